// What mongod checks before it runs a command, beyond what the specification tests exercise: update
// documents parsed before any document is looked at, counts of a failing update statement, the versioned
// API's parameters, read concerns a standalone cannot serve, returnKey, and clusteredIndex.
import { Double, Long, MongoClient, MongoServerError, type Db } from 'mongodb';
import { openTestDb, testMongoUri } from './helpers/db.js';

type Doc = { _id: number } & Record<string, unknown>;

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openTestDb('cmdchecks'));
});
afterAll(async () => {
  await close();
});

async function refusal(p: Promise<unknown>): Promise<{ code?: number; codeName?: string; message: string }> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!(e instanceof MongoServerError)) throw new Error(`expected a server error, got ${String(e)}`);
  return { code: e.code as number, codeName: e.codeName, message: e.message };
}

describe('update documents', () => {
  test('an unknown operator is refused even when nothing matches', async () => {
    const c = db.collection<Doc>('upd_unknown');
    await c.insertOne({ _id: 1, x: 1 });
    const r = await refusal(c.updateOne({ _id: 99 }, { $frobnicate: { x: 1 } } as never));
    expect(r.code).toBe(9); // a write error: MongoDB sends code and errmsg, no codeName
    expect(r.message).toContain('Unknown modifier: $frobnicate');
    expect((await refusal(c.updateOne({ _id: 99 }, { $set: 5 } as never))).code).toBe(9);
    expect((await refusal(c.updateOne({ _id: 1 }, { $set: /abc/ } as never))).code).toBe(9);
    expect((await refusal(c.findOneAndUpdate({ _id: 99 }, { $frobnicate: { x: 1 } } as never))).code).toBe(9);
    // Nothing was written, and an upsert with such an update inserts nothing either.
    expect((await refusal(c.updateOne({ _id: 2 }, { $frobnicate: { x: 1 } } as never, { upsert: true }))).code).toBe(9);
    expect(await c.find().toArray()).toEqual([{ _id: 1, x: 1 }]);
  });

  test('a failing statement adds nothing to n or nModified', async () => {
    const c = db.collection<Doc>('upd_counts');
    await c.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 'text' },
    ]);
    const reply = await db.command({
      update: 'upd_counts',
      updates: [
        { q: { _id: 1 }, u: { $inc: { x: 1 } } },
        { q: { _id: 2 }, u: { $inc: { x: 1 } } },
      ],
      ordered: false,
    });
    expect(reply.n).toBe(1);
    expect(reply.nModified).toBe(1);
    expect(reply.writeErrors).toHaveLength(1);
    expect(reply.writeErrors[0]).toMatchObject({ index: 1, code: 14 });
  });
});

describe('versioned API', () => {
  test('apiStrict refuses commands and stages outside API Version 1', async () => {
    const strict = new MongoClient(testMongoUri(), { serverApi: { version: '1', strict: true } });
    try {
      const sdb = strict.db(db.databaseName);
      await sdb.collection<Doc>('api_strict').insertOne({ _id: 1, x: 1 });
      expect(await sdb.collection<Doc>('api_strict').find().toArray()).toEqual([{ _id: 1, x: 1 }]);
      expect(await sdb.collection<Doc>('api_strict').countDocuments()).toBe(1);
      const r = await refusal(sdb.collection<Doc>('api_strict').distinct('x'));
      expect(r).toMatchObject({ code: 323, codeName: 'APIStrictError' });
      expect(r.message).toContain('the command distinct is not in API Version 1');
      const s = await refusal(
        strict
          .db('admin')
          .aggregate([{ $listLocalSessions: {} }])
          .toArray(),
      );
      expect(s.codeName).toBe('APIStrictError');
      // Inside sub-pipelines too, and $collStats beyond its count.
      const lookup = [{ $lookup: { from: 'api_strict', pipeline: [{ $indexStats: {} }], as: 'x' } }];
      expect((await refusal(sdb.collection('api_strict').aggregate(lookup).toArray())).codeName).toBe('APIStrictError');
      const facet = [
        {
          $facet: { a: [{ $match: {} }], b: [{ $unionWith: { coll: 'api_strict', pipeline: [{ $indexStats: {} }] } }] },
        },
      ];
      expect((await refusal(sdb.collection('api_strict').aggregate(facet).toArray())).codeName).toBe('APIStrictError');
      expect(
        (
          await refusal(
            sdb
              .collection('api_strict')
              .aggregate([{ $collStats: { storageStats: {} } }])
              .toArray(),
          )
        ).codeName,
      ).toBe('APIStrictError');
      expect(
        await sdb
          .collection('api_strict')
          .aggregate([{ $collStats: { count: {} } }])
          .toArray(),
      ).toEqual([expect.objectContaining({ count: 1 })]);
      // A command the engine does not have is CommandNotFound whatever the API parameters, and aliases of
      // API Version 1 commands are in it.
      expect((await refusal(sdb.command({ frobnicate: 1 }))).codeName).toBe('CommandNotFound');
      expect(
        await sdb.command({ findandmodify: 'api_strict', query: { _id: 1 }, update: { $set: { y: 1 } } }),
      ).toMatchObject({ ok: 1 });
    } finally {
      await strict.close();
    }
  });

  test('an unknown API version, or apiStrict without a version, is refused', async () => {
    expect(await refusal(db.command({ ping: 1, apiVersion: '2' }))).toMatchObject({
      code: 322,
      codeName: 'APIVersionError',
    });
    expect(await refusal(db.command({ ping: 1, apiStrict: true }))).toMatchObject({
      code: 72,
      codeName: 'InvalidOptions',
    });
    expect(await db.command({ ping: 1, apiVersion: '1', apiStrict: false })).toMatchObject({ ok: 1 });
  });
});

test('snapshot and linearizable reads need a replica set; unknown levels are refused', async () => {
  await db.collection<Doc>('rc').insertOne({ _id: 1 });
  for (const level of ['snapshot', 'linearizable']) {
    expect(await refusal(db.command({ find: 'rc', readConcern: { level } }))).toMatchObject({
      code: 123,
      codeName: 'NotAReplicaSet',
    });
  }
  expect((await refusal(db.command({ find: 'rc', readConcern: { level: 'eventual' } }))).code).toBe(9);
  expect(
    await db
      .collection<Doc>('rc')
      .find({}, { readConcern: { level: 'majority' } })
      .toArray(),
  ).toEqual([{ _id: 1 }]);
});

test('returnKey answers the keys of the index the query used', async () => {
  const c = db.collection<Doc>('rk');
  await c.insertMany([
    { _id: 1, a: 5, b: 'x' },
    { _id: 2, a: 3, b: 'y' },
  ]);
  await c.createIndex({ a: 1, b: 1 });
  expect(await c.find({}, { sort: { _id: 1 }, returnKey: true }).toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
  expect(await c.find({ a: { $gt: 0 } }, { sort: { a: 1 }, returnKey: true }).toArray()).toEqual([
    { a: 3, b: 'y' },
    { a: 5, b: 'x' },
  ]);
  // A collection scan has no index key: empty documents, one per match.
  expect(await c.find({ b: 'x' }, { returnKey: true }).toArray()).toEqual([{}]);
  // A hint names the index whose keys are shown ($natural: none).
  expect(await c.find({ b: 'x' }, { returnKey: true, hint: { a: 1, b: 1 } }).toArray()).toEqual([{ a: 5, b: 'x' }]);
  expect(await c.find({}, { returnKey: true, hint: 'a_1_b_1', sort: { a: 1 } }).toArray()).toEqual([
    { a: 3, b: 'y' },
    { a: 5, b: 'x' },
  ]);
  expect(await c.find({ a: 3 }, { returnKey: true, hint: { $natural: 1 } }).toArray()).toEqual([{}]);
  // Keys keep their stored number types.
  const typed = db.collection<Doc>('rk_types');
  await typed.insertOne({ _id: 1, n: Long.fromNumber(7), d: new Double(2) });
  await typed.createIndex({ n: 1, d: 1 });
  const [key] = await typed
    .find({ n: { $gte: 0 } }, { returnKey: true, promoteValues: false, hint: { n: 1, d: 1 } })
    .toArray();
  expect(key!.n).toBeInstanceOf(Long);
  expect(key!.d).toBeInstanceOf(Double);
});

describe('clusteredIndex', () => {
  test('is recorded and shown in place of the _id index', async () => {
    await db.createCollection('clus', { clusteredIndex: { key: { _id: 1 }, unique: true, name: 'by id' } });
    const [info] = await db.listCollections({ name: 'clus' }, { nameOnly: false }).toArray();
    expect(info!.options).toEqual({ clusteredIndex: { v: 2, key: { _id: 1 }, name: 'by id', unique: true } });
    expect(await db.collection<Doc>('clus').listIndexes().toArray()).toEqual([
      { v: 2, key: { _id: 1 }, name: 'by id', unique: true, clustered: true },
    ]);
    await db.collection<Doc>('clus').insertMany([{ _id: 2 }, { _id: 1 }]);
    expect(await db.collection<Doc>('clus').find().toArray()).toEqual([{ _id: 1 }, { _id: 2 }]);
    expect((await refusal(db.collection<Doc>('clus').insertOne({ _id: 1 }))).code).toBe(11000);
    expect((await refusal(db.collection<Doc>('clus').dropIndex('by id'))).code).toBe(72);
  });

  test('only on _id, unique, and not capped', async () => {
    expect(
      (await refusal(db.createCollection('clus_bad1', { clusteredIndex: { key: { a: 1 }, unique: true } }))).code,
    ).toBe(72);
    expect(
      (await refusal(db.createCollection('clus_bad2', { clusteredIndex: { key: { _id: 1 }, unique: false } }))).code,
    ).toBe(72);
    expect(
      (
        await refusal(
          db.createCollection('clus_bad3', {
            capped: true,
            size: 4096,
            clusteredIndex: { key: { _id: 1 }, unique: true },
          }),
        )
      ).code,
    ).toBe(72);
    expect((await db.listCollections({ name: /^clus_bad/ }).toArray()).length).toBe(0);
  });
});
