// Cursors through the driver: multiple batches, getMore batch sizes, limits, killCursors, CursorNotFound.
import { Long, MongoServerError, type Collection, type Db } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;
let c: Collection<{ _id: number; i: number; pad: string }>;

beforeAll(async () => {
  ctx = await openTestDb('cursors');
  db = ctx.db;
  c = db.collection('many');
  await c.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: i, i, pad: 'x'.repeat(100) })));
});
afterAll(async () => ctx.close());

it('iterates 250 documents in batches of 100', async () => {
  const cursor = c.find({}, { batchSize: 100 });
  const seen: number[] = [];
  for await (const d of cursor) seen.push(d.i);
  expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => i));
});

it('raw find/getMore replies: firstBatch, nextBatch, Long ids, exhaustion returns id 0', async () => {
  const first = await db.command({ find: 'many', filter: {}, sort: { i: 1 }, batchSize: 100 });
  expect(first.cursor.firstBatch).toHaveLength(100);
  expect(first.cursor.ns).toBe(`${db.databaseName}.many`);
  const id = first.cursor.id as Long;
  expect(Long.isLong(id) || typeof id === 'number' || typeof id === 'bigint').toBe(true);
  expect(Number(id)).not.toBe(0);
  const second = await db.command({ getMore: id, collection: 'many', batchSize: 100 });
  expect(second.cursor.nextBatch).toHaveLength(100);
  expect(second.cursor.nextBatch[0].i).toBe(100);
  const third = await db.command({ getMore: id, collection: 'many', batchSize: 100 });
  expect(third.cursor.nextBatch).toHaveLength(50);
  expect(Number(third.cursor.id)).toBe(0);
});

it('default first batch is 101 documents', async () => {
  const first = await db.command({ find: 'many', filter: {} });
  expect(first.cursor.firstBatch).toHaveLength(101);
  await db.command({ killCursors: 'many', cursors: [first.cursor.id] });
});

it('limit closes the cursor; singleBatch returns one batch', async () => {
  const r = await db.command({ find: 'many', filter: {}, limit: 5 });
  expect(r.cursor.firstBatch).toHaveLength(5);
  expect(Number(r.cursor.id)).toBe(0);
  const s = await db.command({ find: 'many', filter: {}, batchSize: 10, singleBatch: true });
  expect(s.cursor.firstBatch).toHaveLength(10);
  expect(Number(s.cursor.id)).toBe(0);
  expect(
    await c
      .find({ i: { $gte: 200 } })
      .limit(20)
      .toArray(),
  ).toHaveLength(20);
});

it('killCursors reports cursorsKilled; getMore on it then fails with CursorNotFound (43)', async () => {
  const first = await db.command({ find: 'many', filter: {}, batchSize: 2 });
  const id = first.cursor.id;
  const k = await db.command({ killCursors: 'many', cursors: [id] });
  expect(k.cursorsKilled.map(Number)).toEqual([Number(id)]);
  const err = await db.command({ getMore: id, collection: 'many' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MongoServerError);
  expect(err).toMatchObject({ code: 43, codeName: 'CursorNotFound' });
});

it('cursor.close() during iteration kills the server cursor', async () => {
  const cursor = c.find({}, { batchSize: 10 });
  await cursor.next();
  await cursor.close();
  expect(await cursor.hasNext()).toBe(false);
});

it('getMore on an unknown cursor id fails with 43', async () => {
  await expect(db.command({ getMore: Long.fromNumber(123456789), collection: 'many' })).rejects.toMatchObject({
    code: 43,
  });
});

it('large documents are split across batches under 16 MiB', async () => {
  const big = db.collection('big');
  const blob = 'y'.repeat(1024 * 1024);
  await big.insertMany(Array.from({ length: 40 }, (_, i) => ({ i, blob })));
  const first = await db.command({ find: 'big', filter: {}, batchSize: 1000 });
  expect(first.cursor.firstBatch.length).toBeLessThan(40);
  expect(await big.countDocuments()).toBe(40);
  expect((await big.find({}).toArray()).length).toBe(40);
  await big.drop();
});
