// Indexes through the driver: creation, listing, idempotency and conflicts, unique enforcement
// (MongoServerError / MongoBulkWriteError with code 11000 and nothing written), sparse, dropIndexes.
import { MongoBulkWriteError, MongoServerError, type Db } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('indexes');
  db = ctx.db;
});
afterAll(async () => ctx.close());

it('createIndex returns the name; listIndexes shows _id_ and declared options', async () => {
  const c = db.collection('users');
  expect(await c.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
  expect(await c.createIndex({ org: 1, created: -1 })).toBe('org_1_created_-1');
  expect(await c.createIndex({ nick: 1 }, { unique: true, sparse: true, name: 'nick_u' })).toBe('nick_u');
  const list = await c.listIndexes().toArray();
  expect(list).toEqual([
    { v: 2, key: { _id: 1 }, name: '_id_' },
    { v: 2, key: { email: 1 }, name: 'email_1', unique: true },
    { v: 2, key: { org: 1, created: -1 }, name: 'org_1_created_-1' },
    { v: 2, key: { nick: 1 }, name: 'nick_u', unique: true, sparse: true },
  ]);
  expect(await c.indexExists('email_1')).toBe(true);
});

it('createIndex is idempotent for the same spec; conflicting specs fail with 85/86', async () => {
  const c = db.collection('users');
  expect(await c.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
  await expect(c.createIndex({ email: 1 })).rejects.toMatchObject({ code: 86 });
  await expect(c.createIndex({ email: 1 }, { unique: true, name: 'other' })).rejects.toMatchObject({ code: 85 });
});

it('unique index rejects duplicates on insertOne with MongoServerError 11000 and writes nothing', async () => {
  const c = db.collection('users');
  await c.insertOne({ email: 'a@x.io', org: 1 });
  const err = await c.insertOne({ email: 'a@x.io', org: 2 }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MongoServerError);
  expect(err).toMatchObject({ code: 11000, keyPattern: { email: 1 }, keyValue: { email: 'a@x.io' } });
  expect((err as Error).message).toMatch(/E11000 duplicate key error collection: .*users index: email_1 dup key/);
  expect(await c.countDocuments({ email: 'a@x.io' })).toBe(1);
  expect(await c.countDocuments({ org: 2 })).toBe(0);
});

it('insertMany ordered stops at the first duplicate; unordered continues', async () => {
  const c = db.collection('bulk');
  await c.createIndex({ k: 1 }, { unique: true });
  const err = await c.insertMany([{ k: 1 }, { k: 2 }, { k: 1 }, { k: 3 }]).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MongoBulkWriteError);
  const bulk = err as MongoBulkWriteError;
  expect(bulk.code).toBe(11000);
  expect(bulk.insertedCount).toBe(2);
  expect(bulk.writeErrors).toHaveLength(1);
  expect(await c.countDocuments()).toBe(2);
  const err2 = (await c
    .insertMany([{ k: 1 }, { k: 4 }, { k: 2 }, { k: 5 }], { ordered: false })
    .catch((e: unknown) => e)) as MongoBulkWriteError;
  expect(err2).toBeInstanceOf(MongoBulkWriteError);
  expect(err2.insertedCount).toBe(2);
  expect(err2.writeErrors).toHaveLength(2);
  expect((await c.find({}, { sort: { k: 1 } }).toArray()).map((d) => d.k)).toEqual([1, 2, 4, 5]);
});

it('duplicate _id is rejected with 11000', async () => {
  const c = db.collection('ids');
  await c.insertOne({ _id: 'x' as never, v: 1 });
  await expect(c.insertOne({ _id: 'x' as never, v: 2 })).rejects.toMatchObject({ code: 11000, keyValue: { _id: 'x' } });
  expect(await c.findOne({ _id: 'x' as never })).toMatchObject({ v: 1 });
});

it('unique index is enforced by updates, upserts and findOneAndUpdate, all-or-nothing', async () => {
  const c = db.collection<{ _id: number; u: string; other: number }>('uu');
  await c.createIndex({ u: 1 }, { unique: true });
  await c.createIndex({ other: 1 });
  await c.insertMany([
    { _id: 1, u: 'a', other: 1 },
    { _id: 2, u: 'b', other: 2 },
  ]);
  await expect(c.updateOne({ _id: 2 }, { $set: { u: 'a', other: 99 } })).rejects.toMatchObject({ code: 11000 });
  expect(await c.findOne({ _id: 2 })).toEqual({ _id: 2, u: 'b', other: 2 });
  expect(await c.countDocuments({ other: 99 })).toBe(0); // secondary index not left half-updated
  await expect(c.updateOne({ u: 'zz' }, { $set: { u: 'a' } }, { upsert: true })).rejects.toMatchObject({ code: 11000 });
  await expect(c.findOneAndUpdate({ _id: 2 }, { $set: { u: 'a' } })).rejects.toMatchObject({
    code: 11000,
    codeName: 'DuplicateKey',
  });
  expect(await c.countDocuments()).toBe(2);
});

it('unique index without sparse treats missing as null; sparse allows many missing', async () => {
  const c = db.collection('sp');
  await c.createIndex({ s: 1 }, { unique: true, sparse: true });
  await c.createIndex({ n: 1 }, { unique: true });
  await c.insertOne({ n: 1 });
  await c.insertOne({ n: 2 });
  await c.insertOne({ n: 3, s: 'x' });
  await expect(c.insertOne({ n: 4, s: 'x' })).rejects.toMatchObject({ code: 11000 });
  await c.insertOne({ s: 'y' }); // n missing = null, first one
  await expect(c.insertOne({ s: 'z' })).rejects.toMatchObject({ code: 11000, keyValue: { n: null } });
});

it('creating a unique index over duplicates fails with 11000 and creates nothing', async () => {
  const c = db.collection('dups');
  await c.insertMany([{ a: 1 }, { a: 1 }]);
  await expect(c.createIndex({ a: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
  expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
});

it('compound and multikey indexes serve equality and $in queries with correct results', async () => {
  const c = db.collection('ck');
  await c.createIndex({ a: 1, b: 1 });
  await c.createIndex({ tags: 1 });
  await c.insertMany([
    { a: 1, b: 1, tags: ['x', 'y'] },
    { a: 1, b: 2, tags: ['y'] },
    { a: 2, b: 1, tags: [] },
    { a: 1.0, b: 3 },
  ]);
  expect(await c.countDocuments({ a: 1 })).toBe(3);
  expect(await c.countDocuments({ a: 1, b: { $in: [1, 3] } })).toBe(2);
  expect(await c.countDocuments({ a: 1, b: { $gt: 1 } })).toBe(2);
  expect(await c.countDocuments({ tags: 'y' })).toBe(2);
  expect(await c.countDocuments({ tags: { $in: ['x', 'nope'] } })).toBe(1);
  expect(await c.countDocuments({ tags: [] })).toBe(1);
  expect(await c.countDocuments({ b: null })).toBe(0);
  expect(await c.countDocuments({ tags: null })).toBe(1);
});

it('dropIndex / dropIndexes; _id_ cannot be dropped; unknown index fails with 27', async () => {
  const c = db.collection('users');
  await c.dropIndex('org_1_created_-1');
  await expect(c.dropIndex('nope')).rejects.toMatchObject({ code: 27 });
  await expect(c.dropIndex('_id_')).rejects.toMatchObject({ code: 72 });
  await c.dropIndexes();
  expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  await c.insertOne({ email: 'a@x.io' }); // unique gone
});

it('listIndexes on a missing collection fails with NamespaceNotFound (26)', async () => {
  await expect(db.collection('nope').listIndexes().toArray()).rejects.toMatchObject({ code: 26 });
});
