// Behaviours where the engine once differed from MongoDB (issue 14): each is MongoDB's documented answer,
// asserted through the official driver.
import { MongoClient, MongoServerError, type Collection, type Db } from 'mongodb';
import { openTestDb, testMongoUri } from '../helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('fidelity');
  db = ctx.db;
});
afterAll(async () => ctx.close());

async function serverError(p: Promise<unknown>): Promise<MongoServerError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(MongoServerError);
  return e as MongoServerError;
}

describe('errors a client can make', () => {
  let c: Collection;
  beforeAll(async () => {
    c = db.collection('errors');
    await c.insertMany([{ _id: 1, name: 'a', n: 1, s: 'text', a: 5 }]);
  });

  it('an unknown top-level query operator is BadValue (2), also on a collection that does not exist', async () => {
    for (const coll of [c, db.collection('missing')]) {
      const e = await serverError(coll.find({ $foo: 1 }).toArray());
      expect([e.code, e.codeName]).toEqual([2, 'BadValue']);
      expect(e.message).toMatch(/unknown top level operator: \$foo/);
    }
  });

  it('a malformed $regex answers 51091 and keeps the connection open', async () => {
    const e = await serverError(c.find({ name: { $regex: '[' } }).toArray());
    expect([e.code, e.codeName]).toEqual([51091, 'Location51091']);
    // A BSON regular expression JavaScript cannot compile fails at decoding: the same answer.
    const { BSONRegExp } = await import('bson');
    const e2 = await serverError(c.find({ name: new BSONRegExp('(', '') }).toArray());
    expect(e2.code).toBe(51091);
    expect(await c.countDocuments({})).toBe(1);
  });

  it('a poison command beside concurrent innocent ones on the same client: none of those fail', async () => {
    const { BSONRegExp } = await import('bson');
    // One connection, so the poison and the innocent requests are queued on the same socket.
    const one = new MongoClient(testMongoUri(), { maxPoolSize: 1 });
    const oc = one.db(db.databaseName).collection('errors');
    try {
      const innocent = Array.from({ length: 40 }, (_, i) => oc.findOne({ _id: 1 }, { projection: { name: 1, i: { $literal: i } } }));
      const poison = Array.from({ length: 10 }, () => oc.find({ name: new BSONRegExp('[', '') }).toArray().then(() => 'no error', (x: MongoServerError) => x.code));
      const [ok, bad] = await Promise.all([Promise.allSettled(innocent), Promise.all(poison)]);
      expect(ok.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(new Set(bad)).toEqual(new Set([51091]));
    } finally {
      await one.close();
    }
  });
});
