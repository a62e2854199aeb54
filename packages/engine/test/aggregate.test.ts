// Aggregation through the driver: common stages, $lookup (both forms) across collections, $facet,
// cursors over aggregate results, countDocuments.
import type { Db } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('agg');
  db = ctx.db;
  await db.collection('orders').insertMany([
    {
      _id: 1 as never,
      cust: 'a',
      items: [
        { sku: 'x', qty: 2 },
        { sku: 'y', qty: 1 },
      ],
      total: 30,
    },
    { _id: 2 as never, cust: 'b', items: [{ sku: 'x', qty: 5 }], total: 50 },
    { _id: 3 as never, cust: 'a', items: [], total: 5 },
  ]);
  await db.collection('customers').insertMany([
    { _id: 'a' as never, name: 'Ann', tier: 'gold' },
    { _id: 'b' as never, name: 'Bob', tier: 'silver' },
  ]);
});
afterAll(async () => ctx.close());

it('$match $group $sort', async () => {
  const out = await db
    .collection('orders')
    .aggregate([
      { $match: { total: { $gte: 5 } } },
      { $group: { _id: '$cust', sum: { $sum: '$total' }, n: { $sum: 1 } } },
      { $sort: { _id: 1 } },
    ])
    .toArray();
  expect(out).toEqual([
    { _id: 'a', sum: 35, n: 2 },
    { _id: 'b', sum: 50, n: 1 },
  ]);
});

it('$unwind $project $addFields $set $skip $limit $count', async () => {
  const rows = await db
    .collection('orders')
    .aggregate([
      { $unwind: '$items' },
      { $project: { _id: 0, cust: 1, sku: '$items.sku', qty: '$items.qty' } },
      { $addFields: { double: { $multiply: ['$qty', 2] } } },
      { $set: { tag: 'T' } },
      { $sort: { qty: -1 } },
      { $skip: 1 },
      { $limit: 1 },
    ])
    .toArray();
  expect(rows).toEqual([{ cust: 'a', sku: 'x', qty: 2, double: 4, tag: 'T' }]);
  const [count] = await db
    .collection('orders')
    .aggregate([{ $unwind: '$items' }, { $count: 'n' }])
    .toArray();
  expect(count).toEqual({ n: 3 });
});

it('$lookup (localField/foreignField) and pipeline form see other collections', async () => {
  const joined = await db
    .collection('orders')
    .aggregate([
      { $match: { _id: 2 } },
      { $lookup: { from: 'customers', localField: 'cust', foreignField: '_id', as: 'c' } },
    ])
    .toArray();
  expect(joined[0]!.c).toEqual([{ _id: 'b', name: 'Bob', tier: 'silver' }]);
  const viaPipeline = await db
    .collection('customers')
    .aggregate([
      {
        $lookup: {
          from: 'orders',
          let: { id: '$_id' },
          pipeline: [{ $match: { $expr: { $eq: ['$cust', '$$id'] } } }, { $project: { _id: 1 } }],
          as: 'orders',
        },
      },
      { $project: { name: 1, orders: 1 } },
      { $sort: { _id: 1 } },
    ])
    .toArray();
  expect(viaPipeline).toEqual([
    { _id: 'a', name: 'Ann', orders: [{ _id: 1 }, { _id: 3 }] },
    { _id: 'b', name: 'Bob', orders: [{ _id: 2 }] },
  ]);
});

it('$facet and $replaceRoot', async () => {
  const [f] = await db
    .collection('orders')
    .aggregate([{ $facet: { big: [{ $match: { total: { $gt: 20 } } }, { $count: 'n' }], all: [{ $count: 'n' }] } }])
    .toArray();
  expect(f).toEqual({ big: [{ n: 2 }], all: [{ n: 3 }] });
  const roots = await db
    .collection('orders')
    .aggregate([{ $match: { _id: 1 } }, { $unwind: '$items' }, { $replaceRoot: { newRoot: '$items' } }])
    .toArray();
  expect(roots).toEqual([
    { sku: 'x', qty: 2 },
    { sku: 'y', qty: 1 },
  ]);
});

it('an inclusion $project puts _id first, then the document order, as MongoDB does', async () => {
  const orders = db.collection('orders');
  const [f] = await orders
    .aggregate([{ $match: { _id: 2 } }, { $project: { total: 1, cust: 1 } }, { $facet: { docs: [] } }])
    .toArray();
  expect(f).toEqual({ docs: [{ _id: 2, cust: 'b', total: 50 }] });
  expect(Object.keys(f!.docs[0])).toEqual(['_id', 'cust', 'total']);
  for (const pipeline of [
    [{ $match: { _id: 2 } }, { $project: { total: 1, cust: 1 } }],
    [{ $match: { _id: 2 } }, { $addFields: { z: 1 } }, { $project: { total: 1, cust: 1 } }],
    [{ $match: { _id: 2 } }, { $project: { total: 1, cust: 1 } }, { $facet: { docs: [{ $match: {} }] } }],
  ]) {
    const [d] = await orders.aggregate(pipeline).toArray();
    expect(Object.keys('docs' in d! ? d.docs[0] : d!)).toEqual(['_id', 'cust', 'total']);
  }
  const [excluded] = await orders.aggregate([{ $match: { _id: 2 } }, { $project: { items: 0 } }]).toArray();
  expect(Object.keys(excluded!)).toEqual(['_id', 'cust', 'total']);
});

it('aggregate results span several batches', async () => {
  const c = db.collection('nums');
  await c.insertMany(Array.from({ length: 250 }, (_, i) => ({ i })));
  const out = await c.aggregate([{ $sort: { i: -1 } }, { $project: { _id: 0, i: 1 } }], { batchSize: 100 }).toArray();
  expect(out).toHaveLength(250);
  expect(out[0]).toEqual({ i: 249 });
  const raw = await db.command({ aggregate: 'nums', pipeline: [], cursor: { batchSize: 0 } });
  expect(raw.cursor.firstBatch).toEqual([]);
  expect(Number(raw.cursor.id)).not.toBe(0);
  await db.command({ killCursors: 'nums', cursors: [raw.cursor.id] });
});

it('countDocuments with skip/limit (aggregate under the hood)', async () => {
  expect(await db.collection('orders').countDocuments({ cust: 'a' })).toBe(2);
  expect(await db.collection('orders').countDocuments({}, { skip: 1, limit: 1 })).toBe(1);
});

it('aggregate without cursor option fails; invalid stage fails', async () => {
  await expect(db.command({ aggregate: 'orders', pipeline: [] })).rejects.toMatchObject({ code: 9 });
  await expect(
    db
      .collection('orders')
      .aggregate([{ $frobnicate: {} }])
      .toArray(),
  ).rejects.toThrow();
});
