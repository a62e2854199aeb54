// Server-level and DDL commands through the driver: hello, ping, buildInfo, unknown commands,
// listCollections, create, drop, dropDatabase, listDatabases.
import { MongoServerError, type CollectionInfo, type Db, type MongoClient } from 'mongodb';
import { openTestDb, uniqueDbName } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;
let client: MongoClient;

beforeAll(async () => {
  ctx = await openTestDb('admin');
  db = ctx.db;
  client = ctx.client;
});
afterAll(async () => ctx.close());

it('hello describes a writable standalone', async () => {
  const h = await db.admin().command({ hello: 1 });
  expect(h).toMatchObject({ isWritablePrimary: true, ok: 1 });
  expect(h.setName).toBeUndefined();
  expect(h.maxWireVersion).toBeGreaterThanOrEqual(9);
  expect(h.maxBsonObjectSize).toBe(16 * 1024 * 1024);
  expect(h.maxWriteBatchSize).toBeGreaterThan(0);
  expect(h.localTime).toBeInstanceOf(Date);
  expect(typeof h.connectionId).toBe('number');
  const legacy = await db.admin().command({ isMaster: 1 });
  expect(legacy.ismaster).toBe(true);
});

it('ping and buildInfo', async () => {
  expect(await db.admin().ping()).toMatchObject({ ok: 1 });
  const info = await db.admin().buildInfo();
  expect(typeof info.version).toBe('string');
  expect(Array.isArray(info.versionArray)).toBe(true);
});

it('an unknown command fails with CommandNotFound (59)', async () => {
  const err = await db.command({ frobnicate: 1 }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MongoServerError);
  expect(err).toMatchObject({ code: 59, codeName: 'CommandNotFound' });
  expect((err as Error).message).toMatch(/no such command: 'frobnicate'/);
});

it('createCollection, listCollections (full, nameOnly, filter)', async () => {
  await db.createCollection('alpha');
  await db.collection('beta').insertOne({ x: 1 });
  const all = await db.listCollections().toArray();
  expect(all.map((c) => c.name).sort()).toEqual(['alpha', 'beta']);
  const alpha = all.find((c) => c.name === 'alpha') as CollectionInfo;
  expect(alpha).toMatchObject({ type: 'collection', options: {}, info: { readOnly: false } });
  expect(alpha.idIndex).toMatchObject({ key: { _id: 1 }, name: '_id_' });
  const names = await db.listCollections({}, { nameOnly: true }).toArray();
  expect(names.find((c) => c.name === 'beta')).toEqual({ name: 'beta', type: 'collection' });
  const filtered = await db.listCollections({ name: 'beta' }).toArray();
  expect(filtered.map((c) => c.name)).toEqual(['beta']);
  await db.command({ create: 'alpha' }); // identical options: succeeds (MongoDB 7+)
});

it('drop removes a collection and its indexes', async () => {
  const c = db.collection('gamma');
  await c.createIndex({ a: 1 });
  await c.insertOne({ a: 1 });
  expect(await c.drop()).toBe(true);
  expect((await db.listCollections({ name: 'gamma' }).toArray()).length).toBe(0);
  expect(await c.countDocuments()).toBe(0);
});

it('listDatabases includes a database once it has data; dropDatabase removes it', async () => {
  const name = uniqueDbName('ldb');
  const other = client.db(name);
  await other.collection('c').insertOne({ a: 1 });
  const { databases } = await client.db('admin').admin().listDatabases();
  expect(databases.map((d) => d.name)).toContain(name);
  expect(await other.dropDatabase()).toBe(true);
  const after = await client.db('admin').admin().listDatabases({ nameOnly: true });
  expect(after.databases.map((d) => d.name)).not.toContain(name);
  expect(await other.collection('c').countDocuments()).toBe(0);
});

it('endSessions is accepted', async () => {
  expect(await db.admin().command({ endSessions: [] })).toMatchObject({ ok: 1 });
});

// A standalone mongod answers 20 "Transaction numbers are only allowed on a replica set member or mongos",
// which the driver reports as "This MongoDB deployment does not support retryable writes".
it('transactions are refused as by a standalone server and nothing is written', async () => {
  const c = db.collection('tx');
  const session = client.startSession();
  try {
    await expect(session.withTransaction(async () => c.insertOne({ a: 1 }, { session }))).rejects.toThrow(
      /retryable writes|Transaction numbers/,
    );
  } finally {
    await session.endSession();
  }
  expect(await c.countDocuments()).toBe(0);
});

it('write concern w:0 (moreToCome) still applies the write', async () => {
  const c = db.collection('w0');
  await c.insertOne({ a: 1 }, { writeConcern: { w: 0 } });
  // An unacknowledged write is not ordered before this read on a different connection: poll briefly.
  for (let i = 0; i < 50 && (await c.countDocuments()) === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(await c.countDocuments()).toBe(1);
});
