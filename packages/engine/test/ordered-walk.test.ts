// Ordered index walks (sorted find/aggregate served by walking an index) against the same queries on an
// unindexed copy of the collection: same documents in the same order, ties included, on seeded random data
// with missing fields, nulls, mixed types, both directions, skip/limit, range and keyset ($or) filters.
// Also: the walk's view follows inserts/updates/deletes, multikey or unordered values make it fall back,
// a cursor walked across writes returns no duplicates, and $unionWith/$lookup sub-pipelines agree.
// Engine-only: tie order (natural order here) is not something MongoDB guarantees across plans.
import { MaxKey, MinKey, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { openTestDb } from './helpers/db.js';
import { random } from './helpers/random.js';

const engineOnly = process.env.MONGODB_URI ? describe.skip : describe;

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;
/** Numeric `_id`s, so cases read in order of insertion. */
type Row = Document & { _id: number };
let indexed: Collection<Row>;
let plain: Collection<Row>;

const rand = random(20240611); // deterministic data so a failure reproduces
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
const oids = Array.from(
  { length: 6 },
  (_, i) => new ObjectId(`65a0000000000000000000${i.toString(16).padStart(2, '0')}`),
);
const dates = Array.from({ length: 6 }, (_, i) => new Date(Date.UTC(2024, 0, 1 + i)));

/** Sort-field values: many ties, missing, null, and every orderable type (numbers of mixed width too). */
function value(): unknown {
  const r = rand();
  if (r < 0.08) return undefined; // missing
  if (r < 0.14) return null;
  if (r < 0.5) return pick([0, 1, 2, 3, 3.5, -1, 10, 2.0, 1e9, -0.5]);
  if (r < 0.65) return pick(['', 'a', 'ab', 'b', 'B', 'a\u0000b', 'é', 'zz']);
  if (r < 0.75) return pick(dates);
  if (r < 0.85) return pick(oids);
  if (r < 0.92) return pick([true, false]);
  if (r < 0.95) return pick([new MinKey(), new MaxKey()]);
  return pick([4, 'c', dates[2]]);
}

let nextId = 1;
function makeDoc(): Row {
  const doc: Row = { _id: nextId++ };
  const g = rand();
  if (g < 0.85) doc.g = pick(['a', 'b', 'c']);
  else if (g < 0.92) doc.g = null;
  const d = value();
  if (d !== undefined) doc.d = d;
  if (rand() < 0.9) doc.e = pick([0, 1, 2, 3, null, 'x']);
  doc.tags = pick([['t1'], ['t1', 't2'], ['t2'], [], 't1']);
  doc.n = Math.floor(rand() * 5);
  return doc;
}

async function insertBoth(docs: Row[]): Promise<void> {
  await indexed.insertMany(docs.map((d) => ({ ...d })));
  await plain.insertMany(docs.map((d) => ({ ...d })));
}

const ids = (docs: Document[]): unknown[] => docs.map((d) => d._id);

async function sameFind(filter: Document, sort: Document, skip = 0, limit = 0): Promise<void> {
  const got = await indexed.find(filter).sort(sort).skip(skip).limit(limit).toArray();
  const want = await plain.find(filter).sort(sort).skip(skip).limit(limit).toArray();
  expect({ filter, sort, skip, limit, ids: ids(got) }).toEqual({ filter, sort, skip, limit, ids: ids(want) });
  expect(got).toEqual(want);
}

async function sameAggregate(pipeline: Document[]): Promise<void> {
  const got = await indexed.aggregate(pipeline).toArray();
  const want = await plain.aggregate(pipeline).toArray();
  expect({ pipeline, ids: ids(got) }).toEqual({ pipeline, ids: ids(want) });
  expect(got).toEqual(want);
}

const FILTERS: Document[] = [
  {},
  { g: 'a' },
  { g: 'b', n: { $gte: 2 } },
  { g: 'a', d: { $gt: 2 } },
  { g: 'a', d: { $gte: 1, $lt: 10 } },
  { g: 'c', d: { $lte: 'b' } },
  { g: 'a', d: { $gt: dates[1] } },
  { g: 'b', d: { $lt: oids[3] } },
  { g: 'a', d: { $in: [1, 'a', dates[0]] } },
  { g: 'a', d: 3 },
  { g: 'c', d: null },
  { d: { $gte: 0 } },
  { $and: [{ g: 'a' }, { d: { $lt: 3 } }] },
  { g: 'a', $or: [{ d: { $lt: 3 } }, { d: 3, e: { $lt: 2 } }] },
  { g: 'b', $or: [{ d: { $gt: 'a' } }, { d: 'a', e: { $gt: 1 } }] },
  { g: { $in: ['a', 'b'] } },
  { g: null },
  { tags: 't1', g: 'a' },
  { tags: 't2' },
];

const SORTS: Document[] = [
  { d: 1 },
  { d: -1 },
  { d: 1, e: 1 },
  { d: -1, e: -1 },
  { d: -1, e: -1, _id: -1 },
  { d: 1, e: 1, _id: 1 },
  { d: 1, e: -1 }, // mixed directions: no walk
  { g: 1, d: 1 },
  { e: -1 },
  { d: -1, _id: -1 },
];

const WINDOWS: Array<[number, number]> = [
  [0, 0],
  [0, 1],
  [0, 7],
  [5, 10],
  [40, 3],
];

async function compareAll(): Promise<void> {
  for (const filter of FILTERS) {
    for (const sort of SORTS) {
      for (const [skip, limit] of WINDOWS) await sameFind(filter, sort, skip, limit);
    }
  }
}

beforeAll(async () => {
  ctx = await openTestDb('walk');
  db = ctx.db;
  indexed = db.collection<Row>('indexed');
  plain = db.collection<Row>('plain');
  await indexed.createIndex({ g: 1, d: -1, e: -1 });
  await indexed.createIndex({ d: 1, _id: 1 });
  await indexed.createIndex({ tags: 1, g: 1, d: -1, _id: -1 });
  await indexed.createIndex({ e: 1 }, { sparse: true });
  await plain.createIndex({ n: 1 }); // unrelated: the plain copy sorts after a scan
  await insertBoth(Array.from({ length: 500 }, makeDoc));
  // Created over existing documents: a compound one (view built with the index) and a single-field one
  // (view built by the first query that walks it).
  await indexed.createIndex({ g: 1, e: 1, _id: 1 });
  await indexed.createIndex({ e: -1 });
});
afterAll(async () => ctx.close());

engineOnly('ordered index walks', () => {
  it('find: same documents and order as an unindexed collection', async () => {
    await compareAll();
  }, 120_000);

  it('aggregate $match/$sort/$skip/$limit: same as unindexed', async () => {
    for (const filter of FILTERS.slice(0, 10)) {
      for (const sort of SORTS.slice(0, 6)) {
        await sameAggregate([{ $match: filter }, { $sort: sort }, { $skip: 3 }, { $limit: 6 }]);
        await sameAggregate([{ $match: filter }, { $sort: sort }, { $limit: 9 }, { $skip: 2 }, { $project: { d: 1 } }]);
        await sameAggregate([{ $match: filter }, { $sort: sort }]);
      }
    }
    await sameAggregate([{ $sort: { d: -1, e: -1 } }, { $limit: 5 }]);
    await sameAggregate([
      { $match: { g: 'a' } },
      { $sort: { d: 1 } },
      { $limit: 10 },
      { $group: { _id: '$e', n: { $sum: 1 } } },
      { $sort: { _id: 1 } },
    ]);
  }, 60_000);

  it('the view follows inserts, updates and deletes', async () => {
    await compareAll(); // views built
    for (const c of [indexed, plain]) {
      await c.updateMany({ n: 1 }, { $set: { d: 2 } });
      await c.updateMany({ n: 2, g: 'b' }, { $set: { g: 'a' }, $unset: { e: '' } });
      await c.deleteMany({ n: 3, g: 'c' });
      await c.updateOne({ _id: 7 }, { $set: { d: 'moved' } });
    }
    const saved = nextId;
    await insertBoth(Array.from({ length: 100 }, makeDoc));
    expect(nextId).toBe(saved + 100);
    await compareAll();
  }, 120_000);

  it('multikey or unordered values in a walked field fall back to sorting, with MongoDB array semantics', async () => {
    await insertBoth([
      { _id: nextId++, g: 'a', d: [3, 50], e: 1 },
      { _id: nextId++, g: 'a', d: [-5, 'b'], e: 2 },
      { _id: nextId++, g: 'a', d: [], e: 3 },
    ]);
    await compareAll();
    await insertBoth([
      { _id: nextId++, g: 'b', d: { x: 1 }, e: 1 },
      { _id: nextId++, g: 'b', d: NaN, e: 1 },
      { _id: nextId++, g: 'c', d: 'a\ud83d\ude00', e: 1 },
    ]);
    await compareAll();
    for (const c of [indexed, plain]) await c.deleteMany({ _id: { $gte: nextId - 6 } });
    await compareAll();
  }, 180_000);

  it('a walked cursor survives writes between batches without duplicates', async () => {
    const cursor = indexed.find({ g: 'a' }).sort({ d: -1, e: -1 }).batchSize(10);
    const seen: unknown[] = [];
    let i = 0;
    for await (const doc of cursor) {
      seen.push(doc._id);
      if (++i % 10 === 0) {
        // $inc on a non-number is an error in MongoDB (14), so only numeric e is incremented.
        await indexed.updateMany({ g: 'a', n: i % 5, e: { $type: 'number' } }, { $inc: { e: 1 } });
        await indexed.insertOne({ _id: nextId++, g: 'a', d: 1, e: 0 });
      }
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(50);
  });

  it('$unionWith and uncorrelated $lookup sub-pipelines give the same results', async () => {
    const sub: Document[] = [{ $match: { g: 'b', d: { $gte: 0 } } }, { $sort: { d: -1, e: -1 } }, { $limit: 4 }];
    const pipeline = (coll: string): Document[] => [
      { $match: { g: 'a' } },
      { $sort: { d: 1, e: 1 } },
      { $limit: 3 },
      { $unionWith: { coll, pipeline: sub } },
      { $unionWith: { coll, pipeline: [{ $match: { g: 'c' } }, { $sort: { d: -1 } }, { $skip: 2 }, { $limit: 2 }] } },
      {
        $lookup: {
          from: coll,
          pipeline: [
            { $match: { g: 'a', d: { $lt: 3 } } },
            { $sort: { d: -1, e: -1 } },
            { $limit: 2 },
            { $project: { d: 1 } },
          ],
          as: 'top',
        },
      },
    ];
    const got = await indexed.aggregate(pipeline('indexed')).toArray();
    const want = await plain.aggregate(pipeline('plain')).toArray();
    expect(got.length).toBe(3 + 4 + 2);
    expect(got).toEqual(want);
  });
});
