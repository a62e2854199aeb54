// Filters that decode only the fields they reference and top-level inclusion projections that copy raw
// elements, checked against the decoding path they replace (decode whole, mingo filter, mingo projection,
// encode) on randomized documents: every BSON type, nested documents and arrays, missing fields,
// look-alike and repeated names, hand-built key orders. Outputs must be the same bytes.
import { Query } from '../src/query/mingo.js';
import {
  Binary,
  BSONRegExp,
  Code,
  Decimal128,
  Double,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  serialize,
  Timestamp,
  type Document,
} from 'bson';
import { MongoClient, type CommandStartedEvent, type Collection as DriverCollection, type Db } from 'mongodb';
import { decode, encode } from '../src/storage/bsonio.js';
import type { Collection } from '../src/storage/collection.js';
import { decodeFields, NameSet, projectFields } from '../src/storage/rawdoc.js';
import { filterFields, inclusionFields } from '../src/query/fields.js';
import { findRaw, projector } from '../src/query/exec.js';
import { mingoOptions } from '../src/query/options.js';
import { compareKeys, parseSort, sortKey } from '../src/query/sort.js';
import { testMongoUri, uniqueDbName } from './helpers/db.js';
import { scratchStore } from './scratch-store.js';
import { random } from './helpers/random.js';

const store = scratchStore();
afterAll(() => store.close());

const NAMES = [
  '_id',
  'a',
  'ab',
  'b',
  'a.b',
  'name',
  'names',
  'Name',
  'status',
  'é',
  'e\u0301',
  '_idx',
  'x',
  '10',
  '2',
  'tags',
];

/** One BSON element (type, name, value) as bytes. */
function elem(name: string, value: unknown): Buffer {
  const b = serialize({ [name]: value });
  return Buffer.from(b.subarray(4, b.length - 1));
}

/** A document from elements, in exactly this order (repeats included). */
function rawDoc(elems: Buffer[]): Buffer {
  const body = Buffer.concat(elems);
  const out = Buffer.alloc(body.length + 5);
  out.writeInt32LE(out.length, 0);
  body.copy(out, 4);
  return out;
}

/** An element of BSON type undefined (0x06), which the JS serializer never writes. */
function undefinedElem(name: string): Buffer {
  const e = elem(name, null);
  e[0] = 0x06;
  return e;
}

/** An embedded document element whose keys keep the given order (a JS object would move integer keys). */
function orderedDocElem(name: string, entries: Array<[string, unknown]>): Buffer {
  const inner = rawDoc(entries.map(([k, v]) => elem(k, v)));
  return Buffer.concat([Buffer.from([0x03]), Buffer.from(name + '\0', 'utf8'), inner]);
}

function scalar(r: () => number, allTypes: boolean): unknown {
  const pick = Math.floor(r() * (allTypes ? 24 : 14));
  switch (pick) {
    case 0:
      return Math.floor(r() * 10);
    case 1:
      return r() * 100;
    case 2:
      return ['published', 'draft', 'x', '', 'é', 'Published'][Math.floor(r() * 6)];
    case 3:
      return null;
    case 4:
      return r() < 0.5;
    case 5:
      return new Date(1_700_000_000_000 + Math.floor(r() * 1e6));
    case 6:
      return new ObjectId();
    case 7:
      return new Decimal128(String(Math.floor(r() * 1000) / 10));
    case 8:
      return new Binary(Buffer.from([1, 2, Math.floor(r() * 255)]), r() < 0.5 ? 0 : 4);
    case 9:
      return 2 ** 31 + Math.floor(r() * 1000); // integral, beyond int32: stays a double
    case 10:
      return -Math.floor(r() * 5);
    case 11:
      return 'long string '.repeat(Math.floor(r() * 20));
    case 12:
      return new Timestamp({ t: 5, i: Math.floor(r() * 10) });
    case 13:
      return new Code('function () { return 1; }');
    // Types the decoding path does not return unchanged.
    case 14:
      return Long.fromNumber(Math.floor(r() * 100));
    case 15:
      return Long.fromString('9007199254740993');
    case 16:
      return new Double(Math.floor(r() * 10));
    case 17:
      return new Double(-0);
    case 18:
      return new Int32(7);
    case 19:
      return new BSONRegExp('^a', 'i');
    case 20:
      return new MinKey();
    case 21:
      return new MaxKey();
    case 22:
      return new Binary(Buffer.from([9, 9]), 2);
    default:
      return NaN;
  }
}

function value(r: () => number, depth: number, allTypes: boolean): unknown {
  const k = r();
  if (depth < 2 && k < 0.15) {
    return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1, allTypes));
  }
  if (depth < 2 && k < 0.3) {
    const d: Document = {};
    for (const n of ['a', 'b', 'c', 'name', '$x'].slice(0, 1 + Math.floor(r() * (allTypes ? 5 : 4))))
      d[n] = value(r, depth + 1, allTypes);
    return d;
  }
  return scalar(r, allTypes);
}

/** A stored document: _id first, then fields in a random order, sometimes repeated, odd or missing. */
function randomDoc(r: () => number, i: number, allTypes: boolean): Buffer {
  const elems = [elem('_id', r() < 0.5 ? i : new ObjectId())];
  const names = NAMES.slice(1).filter(() => r() < 0.6);
  for (let j = names.length - 1; j > 0; j--) {
    const k = Math.floor(r() * (j + 1));
    [names[j], names[k]] = [names[k]!, names[j]!];
  }
  for (const n of names) elems.push(elem(n, value(r, 0, allTypes)));
  if (allTypes) {
    if (r() < 0.1) elems.push(undefinedElem(NAMES[1 + Math.floor(r() * 8)]!));
    if (r() < 0.1) elems.push(elem(NAMES[1 + Math.floor(r() * 8)]!, value(r, 0, true))); // a repeated name
    if (r() < 0.1)
      elems.push(
        orderedDocElem('b', [
          ['z', 1],
          ['3', 2],
          ['1', 3],
        ]),
      );
  }
  return rawDoc(elems);
}

function collectionOf(docs: Buffer[]): Collection {
  const c = store.collection();
  store.write(() => {
    for (const bytes of docs) c.insert(bytes, decode(bytes), true);
  });
  return c;
}

/** The reference answer: every document decoded, the filter and projection through mingo. */
/** The documents in natural order: `_id` order (BSON comparison order), as the storage keeps them. */
function natural(docs: Buffer[]): Buffer[] {
  const byId = parseSort({ _id: 1 });
  return docs
    .map((b) => ({ b, k: sortKey(decode(b), byId) }))
    .sort((x, y) => compareKeys(x.k, y.k, byId))
    .map((x) => x.b);
}

function reference(docs: Buffer[], filter: Document, projection?: Document, sort?: Document, limit = 0): Buffer[] {
  const q = new Query(filter, mingoOptions());
  let hits = natural(docs).filter((b) => q.test(decode(b)));
  if (sort) {
    const fields = parseSort(sort);
    const keyed = hits.map((b, i) => ({ b, i, k: sortKey(decode(b), fields) }));
    keyed.sort((x, y) => compareKeys(x.k, y.k, fields) || x.i - y.i);
    hits = keyed.map((x) => x.b);
  }
  if (limit) hits = hits.slice(0, limit);
  if (!projection) return hits;
  const p = projector({ filter, projection });
  return hits.map((b) => encode(p(decode(b))));
}

function randomFilter(r: () => number, docs: Buffer[]): Document {
  const some = decode(docs[Math.floor(r() * docs.length)]!);
  const field = NAMES[Math.floor(r() * NAMES.length)]!;
  const existing: unknown = some[field];
  const v = existing === undefined ? scalar(r, false) : existing;
  const path = r() < 0.15 ? `${field}.a` : field;
  const cond = (): unknown => {
    switch (Math.floor(r() * 10)) {
      case 0:
        return { $in: [v, 'published', null] };
      case 1:
        return { $ne: v };
      case 2:
        return { $exists: r() < 0.5 };
      case 3:
        return { $gt: 3 };
      case 4:
        return { $type: 'string' };
      case 5:
        return { $size: 1 };
      case 6:
        return { $elemMatch: { $gte: 1 } };
      case 7:
        return { $not: { $eq: v } };
      case 8:
        return { $regex: '^p' };
      default:
        return v;
    }
  };
  switch (Math.floor(r() * 8)) {
    case 0:
      return { $or: [{ [path]: cond() }, { status: 'published' }] };
    case 1:
      return { $and: [{ [path]: cond() }, { a: { $exists: true } }] };
    case 2:
      return { $nor: [{ [path]: cond() }] };
    case 3:
      return { _id: { $in: docs.filter(() => r() < 0.3).map((b) => decode(b)._id as unknown) }, status: 'published' };
    case 4:
      return { $expr: { $eq: ['$status', 'published'] } }; // falls back to the whole document
    default:
      return { [path]: cond() };
  }
}

function randomProjection(r: () => number): Document {
  const p: Document = {};
  const n = 1 + Math.floor(r() * 5);
  for (let i = 0; i < n; i++)
    p[[...NAMES, 'missing', 'tags'][Math.floor(r() * (NAMES.length + 2))]!] = r() < 0.8 ? 1 : true;
  const id = r();
  if (id < 0.3) p._id = 0;
  else if (id < 0.5) p._id = 1;
  else if (id < 0.55) p._id = false;
  return p;
}

/** The documents as hex, or the error (an invalid projection such as {a: 1, 'a.b': 1} fails both ways). */
function outcome(run: () => Buffer[]): string[] | { error: string } {
  try {
    return run().map((b) => b.toString('hex'));
  } catch (e) {
    return { error: String(e) };
  }
}

describe('randomized comparison with the decoding path', () => {
  for (const allTypes of [false, true]) {
    it(`filters and projections, ${allTypes ? 'every BSON type and odd layouts' : 'driver-shaped documents'}`, () => {
      const r = random(allTypes ? 7 : 3);
      for (let round = 0; round < 40; round++) {
        const docs = Array.from({ length: 60 }, (_, i) => randomDoc(r, i, allTypes));
        const coll = collectionOf(docs);
        for (let k = 0; k < 25; k++) {
          const filter = randomFilter(r, docs);
          const projection = r() < 0.8 ? randomProjection(r) : undefined;
          const sort = r() < 0.25 ? { [NAMES[1 + Math.floor(r() * 8)]!]: r() < 0.5 ? 1 : -1 } : undefined;
          const limit = r() < 0.3 ? 1 + Math.floor(r() * 10) : 0;
          const got = outcome(() => [...findRaw(coll, { filter, projection, sort, limit })]);
          const want = outcome(() => reference(docs, filter, projection, sort, limit));
          expect({ filter, projection, sort, limit, got }).toEqual({ filter, projection, sort, limit, got: want });
        }
      }
    });
  }

  it('decodes the named fields as a whole decode gives them: values, their types, key order, repeats', () => {
    const r = random(13);
    const wholes: Array<[Document, Document]> = [];
    for (let i = 0; i < 3_000; i++) {
      const allTypes = i % 2 === 1;
      const bytes = randomDoc(r, i, allTypes);
      const names = new NameSet(NAMES.filter(() => r() < 0.4).concat(r() < 0.05 ? ['__proto__'] : []));
      const whole = decode(bytes);
      const want: Document = {};
      for (const k of Object.keys(whole)) if (names.list.includes(k)) want[k] = whole[k];
      const got = decodeFields(bytes, names)!;
      wholes.push([got, want]);
      // Bytes compare types (a double is not an int32), -0, NaN and order; keys compare what bytes cannot.
      expect(Object.keys(got)).toEqual(Object.keys(want));
      expect(encode(got).equals(encode(want))).toBe(true);
    }
    // Strings the shared table cannot tell apart by length and ends: each document still gets its own.
    const alike = ['tag-0001-end', 'tag-0002-end', 'tag-0001-end', 'tag-\u00e9-end', 'tag-0003-end'];
    const keep = new NameSet(['tags']);
    for (const t of [...alike, ...alike])
      expect(decodeFields(rawDoc([elem('_id', 1), elem('tags', [t, t.toUpperCase()])]), keep)).toEqual({
        tags: [t, t.toUpperCase()],
      });
    // Short ASCII strings are shared between documents; they must still be each document's own.
    const tags = (d: Document): unknown => d.tags;
    expect(wholes.map(([g]) => tags(g))).toEqual(wholes.map(([, w]) => tags(w)));
  });

  it('copies raw elements for driver-shaped documents (the fallback is per document, for odd values)', () => {
    const r = random(11);
    const keep = inclusionFields({ a: 1, name: 1, status: 1, tags: 1 })!;
    let copied = 0;
    for (let i = 0; i < 200; i++) if (projectFields(randomDoc(r, i, false), keep)) copied++;
    expect(copied).toBe(200);
    expect(projectFields(rawDoc([elem('_id', 1), elem('a', new Double(2))]), keep)).toBeUndefined();
    expect(projectFields(rawDoc([elem('_id', 1), elem('a', Long.fromNumber(2))]), keep)).toBeUndefined();
    expect(projectFields(rawDoc([elem('_id', 1), undefinedElem('name')]), keep)).toBeUndefined();
    expect(projectFields(rawDoc([elem('_id', 1), elem('a', 1), elem('a', 2)]), keep)).toBeUndefined();
    expect(
      projectFields(
        rawDoc([
          elem('_id', 1),
          orderedDocElem('a', [
            ['b', 1],
            ['1', 2],
          ]),
        ]),
        keep,
      ),
    ).toBeUndefined();
    // Odd values elsewhere in the document do not matter.
    expect(projectFields(rawDoc([elem('_id', 1), elem('zz', Long.fromNumber(2)), elem('a', 2.5)]), keep)).toEqual(
      rawDoc([elem('_id', 1), elem('a', 2.5)]),
    );
  });
});

describe('what takes the raw paths', () => {
  it('inclusion projections of top-level names only', () => {
    const names = (p: Document) => inclusionFields(p)?.size;
    expect(names({ _id: 1, name: 1, slug: 1 })).toBe(3);
    expect(names({ name: true, _id: 0 })).toBe(1);
    expect(names({ _id: 1 })).toBe(1);
    expect(names({ _id: 0 })).toBeUndefined(); // an exclusion
    expect(names({ name: 0 })).toBeUndefined();
    expect(names({ 'a.b': 1 })).toBeUndefined();
    expect(names({ a: { $slice: 1 } })).toBeUndefined();
    expect(names({ a: { $elemMatch: { x: 1 } } })).toBeUndefined();
    expect(names({ s: { $meta: 'textScore' } })).toBeUndefined();
    expect(names({ a: '$b' })).toBeUndefined();
    expect(names({ a: 2 })).toBeUndefined();
    expect(names({ '10': 1 })).toBeUndefined();
  });

  it('filters over known top-level fields only', () => {
    const set = (f: Document) => filterFields(f);
    expect(set({ _id: { $in: [1] }, status: 'published' })).toBeInstanceOf(NameSet);
    expect(set({ $or: [{ 'a.b': 1 }, { c: { $elemMatch: { d: 1 } } }], $comment: 'x' })!.size).toBe(3);
    expect(set({ $expr: { $eq: ['$a', 1] } })).toBeUndefined();
    expect(set({ $where: 'true' })).toBeUndefined();
    expect(set({ $jsonSchema: {} })).toBeUndefined();
    expect(set({ $and: [{ a: 1 }, { $text: { $search: 'x' } }] })).toBeUndefined();
  });
});

describe('through the driver: replies, batches and getMore', () => {
  let client: MongoClient;
  let db: Db;
  let started: CommandStartedEvent[] = [];
  let c: DriverCollection<{ _id: number } & Document>;
  let stored: Buffer[];

  beforeAll(async () => {
    client = new MongoClient(testMongoUri(), { monitorCommands: true });
    client.on('commandStarted', (e) => started.push(e));
    await client.connect();
    db = client.db(uniqueDbName('rawfields'));
    c = db.collection('articles');
    const r = random(5);
    // About 3 KB each, 6000 of them: 18 MB of projected bodies, more than one 16 MiB reply.
    const docs = Array.from({ length: 6000 }, (_, i) => ({
      _id: i,
      name: `n${i}`,
      status: i % 3 ? 'published' : 'draft',
      slug: r() < 0.1 ? undefined : `s${i}`,
      body: 'b'.repeat(3000),
      at: new Date(1_700_000_000_000 + i),
      tags: [
        { k: 'a', v: i },
        { k: 'b', v: r() },
      ],
      extra: value(r, 0, false),
    }));
    await c.insertMany(docs, { ignoreUndefined: true });
    stored = (await c.find({}, { raw: true }).toArray()) as unknown as Buffer[];
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  async function raw(filter: Document, projection: Document, batchSize?: number): Promise<Buffer[]> {
    return (await c
      .find(filter, { projection, raw: true, ...(batchSize ? { batchSize } : {}) })
      .toArray()) as unknown as Buffer[];
  }

  it('_id $in with an equality filter and a top-level inclusion projection', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => i * 97);
    for (const projection of [
      { _id: 1, name: 1, slug: 1 },
      { _id: 0, slug: 1, missing: 1, tags: 1 },
      { name: 1, status: true, extra: 1 },
    ]) {
      const filter = { _id: { $in: ids }, status: 'published' };
      expect(hexOf(await raw(filter, projection, 7))).toEqual(hexOf(reference(stored, filter, projection)));
    }
  });

  it('projected results over many getMore batches, and replies kept under 16 MiB', async () => {
    const projection = { body: 1, name: 1, missing: 1 };
    started = [];
    const filter = { name: { $exists: true } };
    const got = await raw(filter, projection);
    // 101 in the first batch, then the rest split by the reply size limit.
    expect(started.filter((e) => e.commandName === 'getMore')).toHaveLength(2);
    expect(hexOf(got)).toEqual(hexOf(reference(stored, filter, projection)));
    const small = await raw({ status: 'draft', _id: { $lt: 900 } }, { _id: 0, slug: 1 }, 13);
    expect(hexOf(small)).toEqual(hexOf(reference(stored, { status: 'draft', _id: { $lt: 900 } }, { _id: 0, slug: 1 })));
  });

  it('aggregate: a leading $match/$sort/$limit then an inclusion $project, as without the shortcut', async () => {
    // An empty $match before the $project turns the shortcut off: the reference is the same pipeline.
    const agg = async (pipeline: Document[]) =>
      hexOf((await c.aggregate(pipeline, { raw: true, batchSize: 11 }).toArray()) as unknown as Buffer[]);
    const head = (id: number): Document[] => [
      { $match: { status: 'published', _id: { $gte: id } } },
      { $sort: { at: -1 } },
      { $limit: 40 },
    ];
    for (const projection of [{ name: 1, slug: 1, extra: 1 }, { _id: 0, tags: 1, missing: 1 }, { _id: 1 }]) {
      const tail = [{ $project: projection }, { $addFields: { branch: 1 } }];
      const pipeline = [...head(0), ...tail, { $unionWith: { coll: 'articles', pipeline: [...head(3000), ...tail] } }];
      const plain = [
        ...head(0),
        { $match: {} },
        ...tail,
        { $unionWith: { coll: 'articles', pipeline: [...head(3000), { $match: {} }, ...tail] } },
      ];
      const got = await agg(pipeline);
      expect(got).toHaveLength(80);
      expect(got).toEqual(await agg(plain));
    }
  });
});

const hexOf = (bs: Buffer[]): string[] => bs.map((b) => b.toString('hex'));
