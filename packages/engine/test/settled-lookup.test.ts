// Index lookups that settle an equality/$in without re-testing it (query/plan.ts) must match exactly what
// MongoDB's equality matches: numbers by value across types, array fields through their elements, nothing
// of another type, nothing nested one array deeper.
import type { Db } from 'mongodb';
import { Long } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('settled');
  db = ctx.db;
  const c = db.collection('things');
  await c.createIndex({ v: 1 });
  await c.insertMany([
    { _id: 'int' as never, v: 1 },
    { _id: 'double' as never, v: 1.0000001 },
    { _id: 'whole-double' as never, v: 2.0 },
    { _id: 'long' as never, v: Long.fromNumber(3) },
    { _id: 'string' as never, v: '1' },
    { _id: 'array' as never, v: [5, 1] },
    { _id: 'nested' as never, v: [[1]] },
    { _id: 'date' as never, v: new Date(1) },
    { _id: 'missing' as never },
    { _id: 'null' as never, v: null },
    { _id: 'bool' as never, v: true },
  ]);
});
afterAll(async () => ctx.close());

const ids = async (filter: object): Promise<string[]> =>
  (await db.collection('things').find(filter).toArray()).map((d) => String(d._id)).sort();

it.each([
  [{ v: 1 }, ['array', 'int']],
  [{ v: 2 }, ['whole-double']],
  [{ v: 3 }, ['long']],
  [{ v: Long.fromNumber(3) }, ['long']],
  [{ v: '1' }, ['string']],
  [{ v: { $in: [1, '1', true] } }, ['array', 'bool', 'int', 'string']],
  [{ v: { $in: [5, 2] } }, ['array', 'whole-double']],
  [{ v: new Date(1) }, ['date']],
  [{ v: [1] }, ['nested']],
  [{ v: null }, ['missing', 'null']],
])('%j', async (filter, expected) => {
  expect(await ids(filter)).toEqual(expected);
  expect(await db.collection('things').countDocuments(filter)).toBe(expected.length);
});
