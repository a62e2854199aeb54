// Counts from indexes: count, countDocuments and the $count / per-parent $group pipelines give the same
// answers as counting matching documents, and read no document when an index covers the filter.
import type { Document } from 'bson';
import type { Collection as DriverCollection, Db } from 'mongodb';
import { decode, encode } from '../src/storage/bsonio.js';
import { readStats } from '../src/storage/env.js';
import { countFromIndex, countPipeline } from '../src/query/count.js';
import { matches } from '../src/query/exec.js';
import { openTestDb } from './helpers/db.js';
import { scratchStore } from './scratch-store.js';

const article = (i: number): Document => ({
  _id: i,
  status: i % 10 === 0 ? 'draft' : 'published',
  categoryIds: i % 7 === 0 ? [`c${i % 3}`, `c${(i + 1) % 3}`] : [`c${i % 3}`],
  pageId: `p${i % 5}`,
  rank: i % 4 === 0 ? 2.0 : i % 4, // 2.0 and 2 are equal
  date: new Date(1_700_000_000_000 + i * 1000),
});

describe('from storage (engine internals)', () => {
  const store = scratchStore();
  afterAll(() => store.close());
  const c = store.collection('articles');
  store.write(() => {
    c.addIndex({ v: 2, key: { status: 1, date: -1, _id: -1 }, name: 'published' });
    c.addIndex({ v: 2, key: { categoryIds: 1, status: 1, date: -1, _id: -1 }, name: 'category' });
    c.addIndex({ v: 2, key: { pageId: 1, status: 1 }, name: 'page' });
    c.addIndex({ v: 2, key: { rank: 1 }, name: 'rank' });
    for (let i = 0; i < 700; i++) c.insert(encode(article(i)), article(i));
  });
  const byMatching = (filter: Document): number => [...matches(c, filter)].length;

  it.each([
    [{}],
    [{ status: 'published' }],
    [{ status: { $eq: 'draft' } }],
    [{ categoryIds: 'c1', status: 'published' }],
    [{ status: 'published', categoryIds: { $in: ['c0', 'c2'] } }], // overlapping: a document in both counts once
    [{ pageId: { $in: ['p1', 'p3', 'p1'] }, status: 'published' }],
    [{ rank: 2 }],
    [{ rank: { $in: [1, 2.0] } }],
    [{ status: 'gone' }],
  ])('%j is counted from an index without reading documents', (filter) => {
    const expected = byMatching(filter);
    const before = readStats.documents;
    expect(countFromIndex(c, filter)).toBe(expected);
    expect(readStats.documents).toBe(before);
  });

  it.each([
    [{ status: 'published', rank: 1 }],
    [{ status: { $ne: 'draft' } }],
    [{ 'categoryIds.0': 'c1' }],
    [{ $and: [{ status: 'published' }] }],
  ])('%j is left to document matching', (filter) => expect(countFromIndex(c, filter)).toBeUndefined());

  it('answers the per-parent $group pipeline from the index', () => {
    const parents = { $in: ['c0', 'c1', 'c9'] };
    const pipeline = [
      { $match: { status: 'published', categoryIds: parents } },
      { $project: { _id: 0, b: '$categoryIds' } },
      { $unwind: '$b' },
      { $match: { b: parents } },
      { $group: { _id: '$b', n: { $sum: 1 } } },
    ];
    const before = readStats.documents;
    const rows = countPipeline(c, pipeline, false);
    expect(readStats.documents).toBe(before);
    expect(rows).toEqual([
      { _id: 'c0', n: byMatching({ status: 'published', categoryIds: 'c0' }) },
      { _id: 'c1', n: byMatching({ status: 'published', categoryIds: 'c1' }) },
    ]);
  });

  // The tests below change the collection; the ones above count it as seeded.
  const filters: Document[] = [
    {},
    { status: 'published' },
    { status: 'draft' },
    { categoryIds: 'c1', status: 'published' },
    { categoryIds: 'c2' },
    { status: 'published', categoryIds: { $in: ['c0', 'c2'] } },
  ];

  it('walks the index once per prefix; inserts, updates of indexed fields (multikey too) and deletes keep the counts exact without walking again', () => {
    for (const f of filters) expect(countFromIndex(c, f)).toBe(byMatching(f));
    const walks = readStats.indexCounts;
    const rid = (id: number): string => [...c.scan()].find(([, b]) => decode(b)._id === id)![0];
    for (let round = 0; round < 5; round++) {
      store.write(() => {
        for (let i = 0; i < 20; i++) {
          const id = 1000 + round * 20 + i;
          c.insert(encode(article(id)), article(id));
        }
      });
      store.write(() => {
        // An article moves between categories (one entry kept, one dropped, one added) and is published.
        const id = 7 * (round + 1);
        const before = article(id);
        const after = { ...before, status: 'published', categoryIds: [`c${(id + 1) % 3}`, `c${(id + 2) % 3}`] };
        c.update(rid(id), before, encode(after), after);
      });
      store.write(() => {
        const id = 100 + round;
        c.remove(rid(id), article(id));
      });
      for (const f of filters) expect([f, countFromIndex(c, f)]).toEqual([f, byMatching(f)]);
    }
    expect(readStats.indexCounts).toBe(walks);
  });

  it('forgets the counts of a dropped index', () => {
    store.write(() => c.addIndex({ v: 2, key: { pageId: 1, rank: 1 }, name: 'page_rank' }));
    expect(countFromIndex(c, { pageId: 'p1' })).toBe(byMatching({ pageId: 'p1' }));
    store.write(() => c.dropIndex('page_rank'));
    store.write(() => c.addIndex({ v: 2, key: { pageId: 1, rank: 1 }, name: 'page_rank' }));
    expect(countFromIndex(c, { pageId: 'p1' })).toBe(byMatching({ pageId: 'p1' }));
  });

  it('keeps the counts through a write transaction that is discarded (the catalog is reloaded), less its changes', () => {
    const f = { status: 'published' };
    expect(countFromIndex(c, f)).toBe(byMatching(f));
    const walks = readStats.indexCounts;
    expect(() =>
      store.write(() => {
        c.insert(encode(article(5000)), article(5000));
        throw new Error('discarded');
      }),
    ).toThrow('discarded');
    const reloaded = store.catalog.get('db', 'articles')!;
    expect(reloaded).not.toBe(c);
    expect(countFromIndex(reloaded, f)).toBe([...matches(reloaded, f)].length);
    expect(readStats.indexCounts).toBe(walks);
  });
});

describe('through the driver', () => {
  let ctx: Awaited<ReturnType<typeof openTestDb>>;
  let db: Db;
  let coll: DriverCollection;
  beforeAll(async () => {
    ctx = await openTestDb('counts');
    db = ctx.db;
    coll = db.collection('articles');
    await coll.createIndex({ status: 1, date: -1, _id: -1 });
    await coll.createIndex({ categoryIds: 1, status: 1, date: -1, _id: -1 });
    await coll.createIndex({ pageId: 1, status: 1 });
    await coll.insertMany(Array.from({ length: 300 }, (_, i) => article(i)) as never[]);
  });
  afterAll(async () => ctx.close());

  // `$and: [filter]` is the same filter in a form no index counts, so the engine matches documents.
  const slow = (filter: Document): Document => ({ $and: [filter] });

  it.each([
    [{}],
    [{ status: 'published' }],
    [{ categoryIds: 'c2', status: 'published' }],
    [{ status: 'published', categoryIds: { $in: ['c0', 'c2'] } }],
    [{ status: 'nope' }],
  ])('countDocuments, count and $count agree with document matching for %j', async (filter) => {
    const expected = await coll.countDocuments(slow(filter));
    expect(await coll.countDocuments(filter)).toBe(expected);
    expect(await coll.countDocuments(filter, { skip: 5, limit: 20 })).toBe(Math.min(Math.max(0, expected - 5), 20));
    expect((await db.command({ count: 'articles', query: filter })).n).toBe(expected);
    const viaCount = await coll.aggregate([{ $match: filter }, { $count: 'total' }]).toArray();
    expect(viaCount).toEqual(expected ? [{ total: expected }] : []);
  });

  it('per-parent counts agree with the pipeline run on documents', async () => {
    const parents = ['p0', 'p2', 'p4', 'p9'];
    const pipeline = (first: Document): Document[] => [
      { $match: first },
      { $project: { _id: 0, b: '$pageId' } },
      { $unwind: '$b' },
      { $match: { b: { $in: parents } } },
      { $group: { _id: '$b', n: { $sum: 1 } } },
    ];
    const sortById = (rows: Document[]) => rows.sort((a, b) => String(a._id).localeCompare(String(b._id)));
    const fast = sortById(await coll.aggregate(pipeline({ status: 'published', pageId: { $in: parents } })).toArray());
    const reference = sortById(
      await coll.aggregate(pipeline(slow({ status: 'published', pageId: { $in: parents } }))).toArray(),
    );
    expect(fast).toEqual(reference);
    expect(fast.map((r) => r._id)).toEqual(['p0', 'p2', 'p4']);
  });

  it('a missing collection counts 0', async () => {
    expect(await db.collection('none').countDocuments({ status: 'published' })).toBe(0);
  });
});

describe('counts kept between writes', () => {
  let ctx: Awaited<ReturnType<typeof openTestDb>>;
  beforeAll(async () => {
    ctx = await openTestDb('counts_kept');
  });
  afterAll(async () => ctx.close());

  it('follow every insert, update and delete', async () => {
    const c = ctx.db.collection('articles');
    await c.createIndex({ status: 1, date: -1 });
    await c.insertMany(
      Array.from({ length: 50 }, (_, i) => ({
        _id: i,
        status: i % 5 ? 'published' : 'draft',
        date: new Date(i),
      })) as never[],
    );
    const published = () => c.countDocuments({ status: 'published' });
    expect(await published()).toBe(40);
    expect(await published()).toBe(40);
    await c.insertOne({ _id: 100, status: 'published', date: new Date() } as never);
    expect(await published()).toBe(41);
    await c.updateOne({ _id: 1 } as never, { $set: { status: 'draft' } });
    expect(await published()).toBe(40);
    await c.updateOne({ _id: 2 } as never, { $set: { date: new Date(5) } }); // same status: still counted once
    expect(await published()).toBe(40);
    await c.deleteMany({ _id: { $lt: 10 } } as never);
    expect(await published()).toBe(33);
    expect(await c.countDocuments({ status: 'draft' })).toBe(8);
    await c.drop();
    expect(await published()).toBe(0);
  });
});
