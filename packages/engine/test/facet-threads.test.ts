// A search's facets counted on two threads (commands/facet-thread.ts) answer exactly what one thread answers:
// the same counts, the same groups in the same first-seen order, the same fallbacks to mingo at values the counts
// do not key. Two built engines (threads run the built JavaScript) hold the same documents: one counts on two
// threads from the first match on, the other on its own thread only; every pipeline is run on both.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EJSON } from 'bson';
import { MongoClient, type Document } from 'mongodb';
import { startEngineCli } from './helpers/engine-cli.js';

const DOCS = 4000;
const WORDS = ['harbour', 'north', 'storm', 'lighthouse', 'keeper'];

/** Articles with every kind of value the facets meet: arrays of strings and numbers, null, missing, dates. */
function article(i: number): Document {
  const words = WORDS.filter((_, w) => (i + w) % (w + 2) === 0);
  return {
    _id: i,
    title: `${words.join(' ')} article ${i}${i % 7 === 0 ? ' north harbour' : ''}`,
    status: i % 10 === 0 ? 'draft' : 'published',
    categoryIds: i % 13 === 0 ? [] : [`category-${i % 17}`, ...(i % 3 === 0 ? [`category-${i % 5}`] : [])],
    authorIds: i % 11 === 0 ? null : [i % 9, `author-${i % 4}`],
    ...(i % 19 === 0 ? {} : { keywordIds: `keyword-${i % 23}` }),
    firstPublishedDate: i % 29 === 0 ? 'unknown' : new Date(Date.UTC(2000 + (i % 25), i % 12, 1 + (i % 28))),
    kind: i % 2 === 0 ? 'even' : 'odd',
  };
}

const byList = (field: string, sorted = true): Document[] => [
  { $unwind: `$${field}` },
  { $group: { _id: `$${field}`, count: { $sum: 1 } } },
  ...(sorted ? [{ $sort: { count: -1, _id: 1 } }, { $limit: 20 }] : []),
];

/** The pipeline a search page sends for its facets, over `search` and `filter`. */
const facets = (search: string, filter: Document = { status: 'published' }): Document[] => [
  { $match: { $text: { $search: search } } },
  { $match: filter },
  { $project: { _id: 0, categoryIds: 1, authorIds: 1, keywordIds: 1, firstPublishedDate: 1 } },
  {
    $facet: {
      total: [{ $count: 'n' }],
      categories: byList('categoryIds'),
      // No $sort: the groups come in the order they were first seen.
      categoriesSeen: byList('categoryIds', false),
      authors: byList('authorIds'),
      keywords: [{ $group: { _id: '$keywordIds', count: { $sum: 1 } } }],
      years: [
        { $match: { firstPublishedDate: { $type: 'date' } } },
        { $group: { _id: { $year: '$firstPublishedDate' }, count: { $sum: 1 } } },
        { $sort: { _id: -1 } },
      ],
    },
  },
];

interface Engine {
  proc: ChildProcess;
  client: MongoClient;
  dir: string;
}

async function start(parallelFacetsFrom: number): Promise<Engine> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-facets-'));
  const { proc, uri } = await startEngineCli(dir, ['--setParameter', `parallelFacetsFrom=${parallelFacetsFrom}`]);
  return { proc, client: await MongoClient.connect(uri), dir };
}

async function stop(e: Engine | undefined): Promise<void> {
  if (!e) return;
  await e.client.close();
  const exited = new Promise((resolve) => e.proc.once('close', resolve));
  e.proc.kill('SIGTERM');
  await exited;
  rmSync(e.dir, { recursive: true, force: true });
}

const searchFacets = async (e: Engine): Promise<{ twoThreads: number; again: number }> =>
  ((await e.client.db('admin').command({ serverStatus: 1 })).embedded as Document).searchFacets as {
    twoThreads: number;
    again: number;
  };

/** The answer as canonical extended JSON: numbers keep their BSON types. */
const run = async (e: Engine, coll: string, pipeline: Document[]): Promise<string> =>
  EJSON.stringify(await e.client.db('facets').collection(coll).aggregate(pipeline).toArray(), { relaxed: false });

describe('a search’s facets counted on two threads', () => {
  let two: Engine | undefined;
  let one: Engine | undefined;

  beforeAll(async () => {
    [two, one] = await Promise.all([start(1), start(0)]);
    for (const e of [two, one]) {
      const db = e.client.db('facets');
      for (const name of ['articles', 'late', 'early']) {
        const docs = Array.from({ length: DOCS }, (_, i) => article(i));
        // A value no count keys (an object in a list), late or early in the collection's order.
        if (name === 'late') docs[DOCS - 5]!.categoryIds = [{ odd: true }, 'category-1'];
        if (name === 'early') docs[3]!.authorIds = [{ odd: true }];
        await db.collection(name).insertMany(docs);
        await db.collection(name).createIndex({ title: 'text' });
      }
    }
    // The reader thread starts with the first search large enough, which is counted on one thread meanwhile.
    const started = Date.now();
    while ((await searchFacets(two)).twoThreads === 0) {
      if (Date.now() - started > 20_000) throw new Error('the facets were never counted on two threads');
      await run(two, 'articles', facets('harbour'));
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all([stop(two), stop(one)]);
  });

  it('answers what one thread answers, and says it counted on two', async () => {
    const before = await searchFacets(two!);
    for (const [search, filter] of [
      ['harbour', undefined],
      ['north storm keeper', undefined],
      // Checks the text index alone cannot answer (a phrase, a negated term), and a filter of dates and patterns.
      ['"north harbour" -storm', { firstPublishedDate: { $gte: new Date(Date.UTC(2005, 0, 1)) }, kind: /^ev/ }],
      ['lighthouse', { status: 'published', authorIds: { $in: [3, 'author-1'] } }],
    ] as Array<[string, Document | undefined]>) {
      const pipeline = facets(search, filter);
      const answer = await run(two!, 'articles', pipeline);
      expect(answer).toEqual(await run(one!, 'articles', pipeline));
      expect(JSON.parse(answer)[0].total[0].n.$numberInt).not.toBe('0');
    }
    const after = await searchFacets(two!);
    expect(after.twoThreads - before.twoThreads).toBe(4);
    expect(after.again).toBe(before.again);
    expect(await searchFacets(one!)).toEqual({ twoThreads: 0, again: 0 });
  });

  it('counts again on one thread when the reader thread’s half holds a value no count keys', async () => {
    const before = await searchFacets(two!);
    const pipeline = facets('article');
    expect(await run(two!, 'late', pipeline)).toEqual(await run(one!, 'late', pipeline));
    const after = await searchFacets(two!);
    expect(after.again - before.again).toBe(1);
    expect(after.twoThreads).toBe(before.twoThreads);
  });

  it('counts on one thread at once when its own half holds such a value', async () => {
    const before = await searchFacets(two!);
    const pipeline = facets('article');
    expect(await run(two!, 'early', pipeline)).toEqual(await run(one!, 'early', pipeline));
    expect(await searchFacets(two!)).toEqual(before);
  });

  it('counts one state while the collection is written to', async () => {
    const articles = two!.client.db('facets').collection<{ _id: number; status: string }>('articles');
    // Two matches of "harbour", one at each end of the collection (one in each half), change places as published
    // and draft in one write: every state has as many published matches, a count over two states may not.
    const swap = [{ $set: { status: { $cond: [{ $eq: ['$status', 'published'] }, 'draft', 'published'] } } }];
    const ends = { _id: { $in: [20, DOCS - 2] } };
    expect((await articles.find(ends).toArray()).map((d) => d.status)).toEqual(['draft', 'published']);
    const expected = ((await articles.aggregate(facets('harbour')).toArray())[0]!.total as Document[])[0]!.n as number;
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing && i < 2000; i++) await articles.updateMany(ends, swap);
    })();
    const totals: number[] = [];
    while (totals.length < 60)
      totals.push(((await articles.aggregate(facets('harbour')).toArray())[0]!.total as Document[])[0]!.n as number);
    writing = false;
    await writes;
    expect(new Set(totals)).toEqual(new Set([expected]));
  });
});
