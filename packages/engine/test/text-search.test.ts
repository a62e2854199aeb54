// Text indexes and $text through the driver, after MongoDB's own tests of text search (jstests/core/fts_mix.js,
// fts_phrase, fts_score_sort, fts_proj, fts_casesensitive, fts_diacriticsensitive, fts_index): index specs as
// listIndexes shows them, weights, '$**', stemming, stop words, phrases, negation, textScore in find and in
// aggregations, compound text indexes, and MongoDB's errors.
import { Binary, MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('text');
  db = ctx.db;
});
afterAll(async () => ctx.close());

/** The `_id`s matching `search` (and `filter`), by score, highest first (jstests/libs/fts.js queryIDS). */
async function ids(c: Collection<Doc>, search: string, filter: Document = {}, limit = 0): Promise<unknown[]> {
  const docs = await c
    .find({ $text: { $search: search }, ...filter }, { projection: { score: { $meta: 'textScore' } } })
    .sort({ score: { $meta: 'textScore' } })
    .limit(limit)
    .toArray();
  return docs.map((d) => d._id);
}

const sorted = (a: unknown[]): unknown[] => [...a].sort();

type Doc = Document & { _id?: number };

// Wikipedia's random articles, as fts_mix.js has them.
const MIX = [
  {
    _id: 1,
    title: 'Olivia Shakespear',
    text: 'Olivia Shakespear (born Olivia Tucker; 17 March 1863 – 3 October 1938) was a British novelist, playwright, and patron of the arts. She wrote six books that are described as "marriage problem" novels. Her works sold poorly, sometimes only a few hundred copies. Her last novel, Uncle Hilary, is considered her best. She wrote two plays in collaboration with Florence Farr.',
  },
  {
    _id: 2,
    title: 'Mahim Bora',
    text: "Mahim Bora (born 1926) is an Indian writer and educationist from Assam state. He was born at a tea estate of Sonitpur district. He is an M.A. in Assamese literature from Gauhati University and had been a teacher in the Nowgong College for most of his teaching career. He has now retired and lives at Nagaon. Bora spent a good part of his childhood in the culture-rich surroundings of rural Nagaon, where the river Kalong was the life-blood of a community. His impressionable mind was to capture a myriad memories of that childhood, later to find expression in his poems, short stories and novels with humour, irony and pathos woven into their texture. When this river was dammed up, its disturbing effect was on the entire community dependant on nature's bounty.",
  },
  {
    _id: 3,
    title: 'A break away!',
    text: 'A break away! is an 1891 painting by Australian artist Tom Roberts. The painting depicts a mob of thirsty sheep stampeding towards a dam. A drover on horseback is attempting to turn the mob before they drown or crush each other in their desire to drink. The painting, an "icon of Australian art", is part of a series of works by Roberts that "captures what was an emerging spirit of national identity." Roberts painted the work at Corowa. The painting depicts a time of drought, with little grass and the soil kicked up as dust. The work itself is a reflection on the pioneering days of the pastoral industry, which were coming to an end by the 1890s.',
  },
  {
    _id: 4,
    title: 'Linn-Kristin Riegelhuth Koren',
    text: 'Linn-Kristin Riegelhuth Koren (born 1 August 1984, in Ski) is a Norwegian handballer playing for Larvik HK and the Norwegian national team. She is commonly known as Linka. Outside handball she is a qualified nurse.',
  },
  {
    _id: 5,
    title: 'Morten Jensen',
    text: "Morten Jensen (born December 2, 1982 in Lynge) is a Danish athlete. He primarily participates in long jump, 100 metres and 200 metres. He competed at the World Championships in 2005 and 2007, the 2006 World Indoor Championships, the 2006 European Championships, the 2007 World Championships and the 2008 Olympic Games without qualifying for the final round. He was runner-up in the 2010 Finnish Elite Games rankings, just missing out to Levern Spencer for that year's jackpot. He holds the Danish record in both long jump and 100 metres. He also holds the Danish indoor record in the 200 metres. He has been a part of the Sparta teamsine 2005, before then he was a part of FIF Hillerd. His coach was Leif Dahlberg after the 2010 European Championships he change to Lars Nielsen and Anders Miller.",
  },
  {
    _id: 6,
    title: 'Janet Laurence',
    text: "Janet Laurence (born 1947) is a Sydney based Australian artist who works in mixed media and installation. Her work has been included in major survey exhibitions, nationally and internationally and is regularly exhibited in Sydney, Melbourne and Japan. Her work explores a relationship to the natural world, often from an architectural context. It extends from the gallery space into the urban fabric, and has been realized in many site specific projects, often involving collaborations with architects, landscape architects and environmental scientists. She has received many grants and awards including a Rockefeller Residency in 1997. Laurence was a Trustee of the Art Gallery of NSW from 1995 to 2005. Laurence was the subject of John Beard's winning entry for the 2007 Archibald Prize.",
  },
  {
    _id: 7,
    title: 'Glen-Coats Baronets',
    text: 'The Glen-Coats Baronetcy, of Ferguslie Park in the Parish of Abbey in the County of Renfrew, was a title in the Baronetage of the United Kingdom. It was created on 25 June 1894 for Thomas Glen-Coats, Director of the thread-making firm of J. & P. Coats, Ltd, and later Liberal Member of Parliament for Renfrewshire West. Born Thomas Coats, he assumed the additional surname of Glen, which was that of his maternal grandfather. He was succeeded by his son, the second Baronet. He won a gold medal in sailing at the 1908 Summer Olympics. The title became extinct on his death in 1954. Two other members of the Coats family also gained distinction. George Coats, 1st Baron Glentanar, was the younger brother of the first Baronet, while Sir James Coats, 1st Baronet (see Coats Baronets), was the first cousin of the first Baronet.',
  },
  {
    _id: 8,
    title: 'Grapeleaf Skeletonizer',
    text: 'The Grapeleaf Skeletonizer, Harrisina americana is a moth in the family Zygaenidae. It is widespread in the eastern half of the United States, and commonly noticed defoliating grapes, especially of the Virginia creeper (Parthenocissus quinquefolia). The western grapeleaf skeletonizer, Harrisina brillians is very similar to and slightly larger than H. americana, but their distributions are different. Members of this family all produce hydrogen cyanide, a potent antipredator toxin.',
  },
  {
    _id: 9,
    title: 'Physics World',
    text: "Physics World is the membership magazine of the Institute of Physics, one of the largest physical societies in the world. It is an international monthly magazine covering all areas of physics, both pure and applied, and is aimed at physicists in research, industry and education worldwide. It was launched in 1988 by IOP Publishing Ltd and has established itself as one of the world's leading physics magazines. The magazine is sent free to members of the Institute of Physics, who can also access a digital edition of the magazine, although selected articles can be read by anyone for free online. It was redesigned in September 2005 and has an audited circulation of just under 35000. The current editor is Matin Durrani. Also on the team are Dens Milne (associate editor), Michael Banks (news editor), Louise Mayor (features editor) and Margaret Harris (reviews and careers editor). Hamish Johnston is the editor of the magazine's website physicsworld.com and James Dacey is its reporter.",
  },
  {
    _id: 10,
    title: 'Mallacoota, Victoria',
    text: "Mallacoota is a small town in the East Gippsland region of Victoria, Australia. At the 2006 census, Mallacoota had a population of 972. At holiday times, particularly Easter and Christmas, the population increases by about 8,000. It is one of the most isolated towns in the state of Victoria, 25 kilometres off the Princes Highway and 523 kilometres (325 mi) from Melbourne. It is 526 kilometres (327 mi) from Sydney, New South Wales. It is halfway between Melbourne and Sydney when travelling via Princes Highway, though that is a long route between Australia's two main cities. It is the last official township on Victoria's east coast before the border with New South Wales. Mallacoota has a regional airport (Mallacoota Airport) YMCO (XMC) consisting of a grassed field for private light planes. It is known for its wild flowers, abalone industry, the inlet estuary consisting of Top Lake and Bottom Lake, and Croajingolong National Park that surround it. It is a popular and beautiful holiday spot for boating, fishing, walking the wilderness coast, swimming, birdwatching, and surfing. The Mallacoota Arts Council runs events throughout each year. Mallacoota Inlet is one of the main villages along the wilderness coast walk from NSW to Victoria, Australia.",
  },
];

describe('fts_mix', () => {
  let c: Collection<Doc>;
  beforeAll(async () => {
    c = db.collection<Doc>('mix');
    await c.insertMany(MIX);
  });

  it('a one-field index finds the one title', async () => {
    await c.createIndex({ title: 'text' });
    expect(await ids(c, 'Victoria')).toEqual([10]);
    await c.dropIndexes();
  });

  it('weights rank a title match first', async () => {
    await c.createIndex({ title: 'text', text: 'text' }, { weights: { title: 10 } });
    expect(await ids(c, 'members physics')).toEqual([9, 7, 8]);
    await c.dropIndexes();
  });

  it("'$**' indexes every string field, weight 1 by default or as given", async () => {
    await c.createIndex({ '$**': 'text' });
    expect(sorted(await ids(c, 'family tea estate'))).toEqual([2, 7, 8]);
    await c.dropIndexes();
    await c.createIndex({ '$**': 'text' }, { weights: { '$**': 10, text: 2 } });
    expect(sorted(await ids(c, 'Olympic Games gold medal'))).toEqual([5, 7]);
    await c.dropIndexes();
  });

  describe('with $** and title weighted 10', () => {
    beforeAll(async () => {
      await c.createIndex({ '$**': 'text' }, { weights: { title: 10 } });
    });

    it('stems plurals and possessives', async () => {
      expect(sorted(await ids(c, 'member'))).toEqual(sorted(await ids(c, 'members')));
      expect(sorted(await ids(c, "magazine's"))).toEqual(sorted(await ids(c, 'magazine')));
    });

    it('refuses an unknown $language and takes a known one', async () => {
      await expect(c.find({ $text: { $search: 'member', $language: 'spanglish' } }).toArray()).rejects.toMatchObject({
        code: 2,
      });
      await expect(c.find({ $text: { $search: 'member', $language: 'english' } }).toArray()).resolves.toBeDefined();
    });

    it('limits', async () => {
      expect(await ids(c, 'rural river dam', {}, 1)).toEqual([2]);
      expect(await ids(c, 'united kingdom british princes', {}, 1)).toHaveLength(1);
      expect(await ids(c, 'united kingdom british princes')).toHaveLength(4);
    });

    it('projects', async () => {
      const [a] = await c.find({ $text: { $search: 'Morten Jensen' } }, { projection: { title: 1 } }).toArray();
      expect(a).toEqual({ _id: 5, title: 'Morten Jensen' });
      const [b] = await c.find({ $text: { $search: 'handball' } }, { projection: { text: 0 } }).toArray();
      expect(b).toEqual({ _id: 4, title: 'Linn-Kristin Riegelhuth Koren' });
      const [d] = await c.find({ $text: { $search: 'Mahim Bora' } }, { projection: { _id: 0, title: 1 } }).toArray();
      expect(d).toEqual({ title: 'Mahim Bora' });
    });

    it('negates terms; a dash inside a word only joins it', async () => {
      expect(await ids(c, 'United -Kingdom')).toEqual([8]);
      expect(await ids(c, 'Linn-Kristin')).toEqual([4]);
    });

    it('matches phrases, with other terms and negations', async () => {
      expect(await ids(c, '"Summer Olympics"')).toEqual([7]);
      expect(await ids(c, '"wild flowers" Sydney')).toEqual([10]);
      expect(await ids(c, '"industry" -Melbourne -Physics')).toEqual([3]);
    });

    it('finds nothing for an empty or blank search', async () => {
      expect(await ids(c, '')).toEqual([]);
      expect(await ids(c, ' ')).toEqual([]);
    });

    it('applies the rest of the filter', async () => {
      expect(await ids(c, 'Mahim')).toEqual([2]);
      expect(await ids(c, 'Mahim', { _id: 2 })).toEqual([2]);
      expect(await ids(c, 'Mahim', { _id: 1 })).toEqual([]);
      expect(await ids(c, 'Mahim', { _id: { $gte: 4 } })).toEqual([]);
      expect(await ids(c, 'Mahim', { _id: { $lte: 4 } })).toEqual([2]);
      expect(await ids(c, 'members', { title: { $regex: /Phy.*/i } })).toEqual([9]);
    });
  });
});

describe('index specs', () => {
  it('listIndexes shows the text index as MongoDB stores it', async () => {
    const c = db.collection<Doc>('spec');
    const name = await c.createIndex(
      { category: 1, title: 'text', body: 'text' },
      { weights: { title: 10 }, default_language: 'french', language_override: 'lang' },
    );
    expect(name).toBe('category_1_title_text_body_text');
    const idx = (await c.listIndexes().toArray()).find((i) => i.name === name);
    expect(idx).toEqual({
      v: 2,
      key: { category: 1, _fts: 'text', _ftsx: 1 },
      name,
      weights: { body: 1, title: 10 },
      default_language: 'french',
      language_override: 'lang',
      textIndexVersion: 3,
    });
    // The same spec again is no change; another text index is refused (one per collection).
    await c.createIndex(
      { category: 1, title: 'text', body: 'text' },
      { weights: { title: 10 }, default_language: 'french', language_override: 'lang' },
    );
    const err = await c.createIndex({ summary: 'text' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err).toMatchObject({
      code: 67,
      codeName: 'CannotCreateIndex',
      message: `only one text index per collection allowed, found existing text index "${name}"`,
    });
  });

  it('refuses bad text index options', async () => {
    const c = db.collection<Doc>('badspec');
    await expect(c.createIndex({ a: 'text' }, { default_language: 'klingon' })).rejects.toMatchObject({ code: 67 });
    await expect(c.createIndex({ a: 'text', b: 1, c: 'text' })).rejects.toMatchObject({ code: 67 });
    await expect(c.createIndex({ a: 'text' }, { weights: { a: 0 } })).rejects.toMatchObject({ code: 67 });
  });
});

describe('$text errors', () => {
  it('IndexNotFound without a text index', async () => {
    const c = db.collection<Doc>('plain');
    await c.insertOne({ a: 'x' });
    const err = await c
      .find({ $text: { $search: 'x' } })
      .toArray()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 27, codeName: 'IndexNotFound', message: 'text index required for $text query' });
  });

  it('textScore without $text, $text in an $or, and $text after the first stage', async () => {
    const c = db.collection<Doc>('errs');
    await c.createIndex({ a: 'text' });
    await c.insertMany([{ a: 'hello world' }, { a: 'goodbye world' }]);
    await expect(c.find({}, { projection: { s: { $meta: 'textScore' } } }).toArray()).rejects.toMatchObject({
      code: 40218,
    });
    await expect(
      c
        .find({})
        .sort({ s: { $meta: 'textScore' } })
        .toArray(),
    ).rejects.toMatchObject({ code: 40218 });
    await expect(c.find({ $or: [{ $text: { $search: 'hello' } }, { b: 1 }] }).toArray()).rejects.toMatchObject({
      code: 2,
    });
    await expect(
      c.aggregate([{ $match: { b: { $exists: false } } }, { $match: { $text: { $search: 'hello' } } }]).toArray(),
    ).rejects.toMatchObject({ code: 17313 });
    await expect(c.aggregate([{ $project: { s: { $meta: 'textScore' } } }]).toArray()).rejects.toMatchObject({
      code: 40218,
    });
  });
});

describe('scores', () => {
  it("follow MongoDB's formula: term frequency damped per repeat, field length, weight", async () => {
    const c = db.collection<Doc>('scores');
    await c.createIndex({ a: 'text', b: 'text' }, { weights: { b: 2 } });
    await c.insertMany([
      { _id: 1, a: 'coffee' },
      { _id: 2, a: 'coffee shop' },
      { _id: 3, a: 'coffee coffee shop' },
      { _id: 4, a: 'tea', b: 'coffee' },
    ]);
    const docs = await c
      .find({ $text: { $search: 'coffee' } }, { projection: { _id: 1, s: { $meta: 'textScore' } } })
      .sort({ s: { $meta: 'textScore' } })
      .toArray();
    // 1: 1 × (0.5×1/1+0.5); 2: 1 × (0.5×1/2+0.5); 3: (1+0.5) × (0.5×2/3+0.5); 4: weight 2 × 1 × 1. A field that is
    // exactly the term gets × 1.1, but 'coffee' is the term 'coffe': no boost, as in MongoDB.
    expect(docs).toEqual([
      { _id: 4, s: 2 },
      { _id: 3, s: 1.25 },
      { _id: 1, s: 1 },
      { _id: 2, s: 0.75 },
    ]);
    const [tea] = await c.find({ $text: { $search: 'tea' } }, { projection: { s: { $meta: 'textScore' } } }).toArray();
    expect(tea).toEqual({ _id: 4, a: 'tea', b: 'coffee', s: 1.1 });
  });

  it('textScore in an aggregation: first-stage $match, $sort and $project, later stages too', async () => {
    const c = db.collection<Doc>('scores');
    const out = await c
      .aggregate([
        { $match: { $text: { $search: 'coffee shop' } } },
        { $sort: { score: { $meta: 'textScore' }, _id: 1 } },
        { $project: { _id: 1, score: { $meta: 'textScore' } } },
        { $addFields: { again: { $meta: 'textScore' } } },
        { $limit: 2 },
      ])
      .toArray();
    // 4: 2 (coffee in b, weight 2); 3: 1.25 + 1 × (0.5×1/3+0.5) for shop; 2: 0.75 + 0.75; 1: 1.
    expect(out.map((d) => d._id)).toEqual([4, 3]);
    expect(out[0]).toEqual({ _id: 4, score: 2, again: 2 });
    expect(out[1]!.score).toBeCloseTo(1.25 + 2 / 3, 12);
    expect(out[1]!.again).toBe(out[1]!.score);
  });

  it('literal dates, regular expressions and ids in later stages stay what they are', async () => {
    const c = db.collection<Doc>('scores');
    const at = new Date(0);
    const [scored] = await c
      .aggregate([
        { $match: { $text: { $search: 'tea' } } },
        { $project: { _id: 1, at: { $literal: at }, re: { $literal: /^t/ }, later: { $max: [at, '$a'] } } },
      ])
      .toArray();
    expect(scored).toEqual({ _id: 4, at, re: /^t/, later: at });
    const [plain] = await c
      .aggregate([{ $match: { _id: 4 } }, { $project: { _id: 0, at: { $max: [at, null] } } }])
      .toArray();
    expect(plain).toEqual({ at });
  });
});

describe('sensitivity, languages and compound indexes', () => {
  it('$caseSensitive and $diacriticSensitive', async () => {
    const c = db.collection<Doc>('sens');
    await c.createIndex({ a: 'text' });
    await c.insertMany([
      { _id: 1, a: 'Café au lait' },
      { _id: 2, a: 'cafe noir' },
      { _id: 3, a: 'CAFE crème' },
    ]);
    expect(sorted(await ids(c, 'cafe'))).toEqual([1, 2, 3]);
    const find = (q: { $search: string; $caseSensitive?: boolean; $diacriticSensitive?: boolean }) =>
      c
        .find({ $text: q })
        .toArray()
        .then((d) => sorted(d.map((x) => x._id)));
    expect(await find({ $search: 'cafe', $diacriticSensitive: true })).toEqual([2, 3]);
    expect(await find({ $search: 'café', $diacriticSensitive: true })).toEqual([1]);
    expect(await find({ $search: 'CAFE', $caseSensitive: true })).toEqual([3]);
    expect(await find({ $search: '"au lait"' })).toEqual([1]);
    expect(await find({ $search: '"AU LAIT"', $caseSensitive: true })).toEqual([]);
  });

  it('stop words are not searched; each document may name its language', async () => {
    const c = db.collection<Doc>('lang');
    await c.createIndex({ a: 'text' });
    await c.insertMany([
      { _id: 1, a: 'the running man' },
      { _id: 2, a: 'les chevaux courent', language: 'french' },
      { _id: 3, a: 'the horse runs' },
    ]);
    expect(await ids(c, 'the')).toEqual([]);
    expect(sorted(await ids(c, 'run'))).toEqual([1, 3]);
    expect(await c.find({ $text: { $search: 'cheval', $language: 'fr' } }).toArray()).toEqual([
      { _id: 2, a: 'les chevaux courent', language: 'french' },
    ]);
    await expect(c.insertOne({ a: 'x', language: 'klingon' })).rejects.toMatchObject({ code: 17262 });
  });

  it('a compound text index needs equality on its leading fields', async () => {
    const c = db.collection<Doc>('compound');
    await c.createIndex({ shop: 1, about: 'text' });
    await c.insertMany([
      { _id: 1, shop: 'a', about: 'fresh coffee' },
      { _id: 2, shop: 'b', about: 'coffee beans' },
      { _id: 3, shop: 'a', about: 'green tea' },
    ]);
    expect(await ids(c, 'coffee', { shop: 'a' })).toEqual([1]);
    expect(await ids(c, 'coffee', { shop: { $eq: 'b' } })).toEqual([2]);
    await expect(c.find({ $text: { $search: 'coffee' } }).toArray()).rejects.toMatchObject({ code: 2 });
    await expect(c.insertOne({ shop: ['a', 'b'], about: 'x' })).rejects.toMatchObject({ code: 16675 });
  });

  it('equalities on the fields after the text fields: the same matches, counts and scores as without them', async () => {
    // The same documents under a text index with trailing fields and under a plain one: every query answers the
    // same through both (the first tests its equalities on the index's entries, the second on the documents).
    const docs: Doc[] = [
      { _id: 1, about: 'fresh coffee', status: 'published', n: 1 },
      { _id: 2, about: 'coffee beans and coffee cups', status: 'draft', n: 2 },
      { _id: 3, about: 'coffee', status: 'published', n: 1.0 },
      { _id: 4, about: 'coffee grinder', n: 2 },
      { _id: 5, about: 'coffee', status: null, n: 1 },
      { _id: 6, about: 'coffee filter', status: 'Published', n: true },
      { _id: 7, about: 'green tea', status: 'published', n: 1 },
      { _id: 8, about: 'coffee', status: 'published', n: '1' },
    ];
    const withSuffix = db.collection<Doc>('suffix_keyed');
    const plain = db.collection<Doc>('suffix_plain');
    await withSuffix.createIndex({ about: 'text', status: 1, n: 1 });
    await plain.createIndex({ about: 'text' });
    await withSuffix.insertMany(docs.map((d) => ({ ...d })));
    await plain.insertMany(docs.map((d) => ({ ...d })));
    const filters: Document[] = [
      { status: 'published' },
      { status: { $eq: 'published' } },
      { $and: [{ status: 'published' }, { n: 1 }] },
      { status: 'published', n: 1 },
      { n: true },
      { n: '1' },
      { status: null },
      { status: { $exists: false } },
      { status: 'published', _id: { $gt: 1 } },
      { $and: [{ status: 'published' }, { $or: [{ n: 1 }, { n: '1' }] }] },
    ];
    const scored = (c: Collection<Doc>, filter: Document) =>
      c
        .find({ $text: { $search: 'coffee' }, ...filter }, { projection: { score: { $meta: 'textScore' } } })
        .sort({ score: { $meta: 'textScore' }, _id: 1 })
        .toArray();
    const counted = (c: Collection<Doc>, filter: Document) =>
      c.aggregate([{ $match: { $text: { $search: 'coffee' } } }, { $match: filter }, { $count: 'n' }]).toArray();
    for (const filter of filters) {
      const expected = await scored(plain, filter);
      expect({ filter, docs: await scored(withSuffix, filter) }).toEqual({ filter, docs: expected });
      expect({ filter, count: await counted(withSuffix, filter) }).toEqual({
        filter,
        count: await counted(plain, filter),
      });
    }
    expect(sorted((await scored(withSuffix, { status: 'published' })).map((d) => d._id))).toEqual([1, 3, 8]);
    // Under a collation, the documents decide, as they do without the trailing fields.
    const caseless = { locale: 'en', strength: 2 };
    const read = (c: Collection<Doc>) =>
      c
        .find({ $text: { $search: 'coffee' }, status: 'published' }, { collation: caseless })
        .toArray()
        .then((d) => sorted(d.map((x) => x._id)));
    expect(await read(withSuffix)).toEqual(await read(plain));
    // An update moves a document's entries to its new values.
    await withSuffix.updateOne({ _id: 2 }, { $set: { status: 'published' } });
    expect(sorted((await scored(withSuffix, { status: 'published' })).map((d) => d._id))).toEqual([1, 2, 3, 8]);
    // A count reads the entries alone: a deleted document's went with it.
    await withSuffix.deleteOne({ _id: 3 });
    expect(await counted(withSuffix, { status: 'published' })).toEqual([{ n: 3 }]);
    expect(await counted(withSuffix, {})).toEqual([{ n: 6 }]);
  });

  it('keeps the index in step with updates and deletes; counts and deletes by $text', async () => {
    const c = db.collection<Doc>('upkeep');
    await c.insertMany([
      { _id: 1, a: 'red apple' },
      { _id: 2, a: 'green apple' },
    ]);
    await c.createIndex({ a: 'text' });
    expect(sorted(await ids(c, 'apple'))).toEqual([1, 2]);
    await c.updateOne({ _id: 1 }, { $set: { a: 'red pear' } });
    expect(await ids(c, 'apple')).toEqual([2]);
    expect(await ids(c, 'pear')).toEqual([1]);
    expect(await c.countDocuments({ $text: { $search: 'pear apple' } })).toBe(2);
    await c.deleteMany({ $text: { $search: 'green' } });
    expect(await ids(c, 'apple')).toEqual([]);
    expect(await c.countDocuments({})).toBe(1);
  });
});

describe('documents read whole for a phrase', () => {
  it('each keeps its own binary values', async () => {
    // A phrase on a '$**' index tests every candidate decoded whole: each from its own bytes, not from the
    // store's reused read buffer, or every Binary would show the last document's bytes.
    const c = db.collection<{ _id: number; title: string; b: Binary }>('binaries');
    await c.insertMany(
      Array.from({ length: 5 }, (_, i) => ({ _id: i, title: 'apple pie', b: new Binary(Buffer.alloc(16, i + 1)) })),
    );
    await c.createIndex({ '$**': 'text' });
    const out = await c
      .aggregate([{ $match: { $text: { $search: '"apple pie"' } } }, { $sort: { _id: -1 } }])
      .toArray();
    expect(out.map((d) => [d._id, Buffer.from((d.b as Binary).buffer).toString('hex')])).toEqual(
      [4, 3, 2, 1, 0].map((i) => [i, Buffer.alloc(16, i + 1).toString('hex')]),
    );
  });
});

describe('aggregations by score', () => {
  let c: Collection<Doc>;
  beforeAll(async () => {
    c = db.collection<Doc>('byscore');
    await c.createIndex({ title: 'text' });
    // Six articles of one title (equal scores), two with the word twice (higher), one draft among them.
    await c.insertMany([
      ...[1, 2, 3, 4, 5, 6].map((i) => ({ _id: i, title: 'harbour news', day: i % 3, status: 'published' })),
      { _id: 7, title: 'harbour harbour', day: 0, status: 'published' },
      { _id: 8, title: 'harbour harbour', day: 0, status: 'draft' },
      { _id: 9, title: 'other things', day: 5, status: 'published' },
    ]);
  });

  const page = (extra: Document[], limit: number): Promise<Document[]> =>
    c
      .aggregate([
        { $match: { $text: { $search: 'harbour' } } },
        { $match: { status: 'published' } },
        { $addFields: { s: { $meta: 'textScore' } } },
        ...extra,
        { $sort: { s: -1, day: -1, _id: -1 } },
        { $limit: limit },
        { $project: { _id: 1 } },
      ])
      .toArray();

  test('a $sort by score then other keys, limited, orders equal scores by those keys', async () => {
    expect((await page([], 4)).map((d) => d._id)).toEqual([7, 5, 2, 4]);
    expect((await page([], 100)).map((d) => d._id)).toEqual([7, 5, 2, 4, 1, 6, 3]);
  });

  test('a page decoding only the fields its stages read answers as one decoding whole documents', async () => {
    const big = db.collection<Doc>('byscore_fields');
    await big.createIndex({ title: 'text' });
    await big.insertMany(
      Array.from({ length: 30 }, (_, i) => ({
        _id: i,
        title: i % 4 ? 'harbour news' : 'harbour harbour',
        body: 'x'.repeat(5000),
        day: i % 5,
        tag: new Binary(Buffer.from([i, i + 1])),
        status: i % 7 ? 'published' : 'draft',
      })),
    );
    const run = (beforeProject: Document[]) =>
      big
        .aggregate([
          { $match: { $text: { $search: 'harbour' } } },
          { $match: { status: 'published' } },
          { $addFields: { s: { $meta: 'textScore' } } },
          { $match: { day: { $lt: 4 } } },
          { $sort: { s: -1, day: -1, _id: -1 } },
          { $limit: 12 },
          ...beforeProject,
          { $project: { title: 1, tag: 1, s: 1 } },
        ])
        .toArray();
    // A stage the engine does not look into: the documents are then decoded whole.
    const whole = await run([{ $addFields: { unread: 1 } }]);
    expect(whole).toHaveLength(12);
    expect(await run([])).toEqual(whole);
  });

  test('a keyset $match between the score and the $sort pages on', async () => {
    const after = [{ $match: { $or: [{ s: { $lt: 0.75 } }, { s: 0.75, day: { $lt: 1 } }] } }];
    const all = await c
      .aggregate([{ $match: { $text: { $search: 'harbour' } } }, { $project: { s: { $meta: 'textScore' } } }])
      .toArray();
    expect(all.find((d) => d._id === 1)?.s).toBe(0.75);
    expect((await page(after, 2)).map((d) => d._id)).toEqual([6, 3]);
  });

  test('$unwind and $group counts, also of values mingo keys, and a $facet of readers', async () => {
    const t = db.collection<Doc>('unwindcounts');
    await t.createIndex({ title: 'text' });
    await t.insertMany([
      { _id: 1, title: 'tide', tags: ['a', 'b', 1], n: { x: 1 } },
      { _id: 2, title: 'tide', tags: ['a', 1.5, 1] },
      { _id: 3, title: 'tide', tags: 'a' },
      { _id: 4, title: 'tide', tags: [] },
      { _id: 5, title: 'tide' },
      { _id: 6, title: 'tide', tags: [{ o: 1 }, { o: 1 }] },
    ]);
    const counts = (match: Document): Promise<Document[]> =>
      t
        .aggregate([
          { $match: { $text: { $search: 'tide' }, ...match } },
          {
            $facet: {
              tags: [
                { $unwind: '$tags' },
                { $group: { _id: '$tags', count: { $sum: 1 } } },
                { $sort: { count: -1, _id: 1 } },
              ],
              total: [{ $count: 'n' }],
            },
          },
        ])
        .toArray();
    expect(await counts({ _id: { $lte: 5 } })).toEqual([
      {
        tags: [
          { _id: 'a', count: 3 },
          { _id: 1, count: 2 },
          { _id: 1.5, count: 1 },
          { _id: 'b', count: 1 },
        ],
        total: [{ n: 5 }],
      },
    ]);
    // Documents as values: grouped by mingo, with the same result MongoDB gives.
    expect((await counts({ _id: 6 }))[0]!.tags).toEqual([{ _id: { o: 1 }, count: 2 }]);
  });
});
