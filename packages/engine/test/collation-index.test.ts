// Collation in indexes: an index with a collation keys strings by their collation key, so a
// unique index under strength 2 refuses an e-mail differing only in case; the planner uses such an index
// only for queries with the same collation (or for values without strings). Behaviour through the
// driver; the planner's choice through planQuery on a scratch store (there is no explain command).
import type { Document } from 'bson';
import { MongoServerError, type Db } from 'mongodb';
import { planQuery } from '../src/query/plan.js';
import { decode, encode } from '../src/storage/bsonio.js';
import { openTestDb } from './helpers/db.js';
import { scratchStore } from './scratch-store.js';

const ci = { locale: 'en', strength: 2 };
let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;
const store = scratchStore();

beforeAll(async () => {
  ctx = await openTestDb('collidx');
  db = ctx.db;
});
afterAll(async () => {
  await ctx.close();
  await store.close();
});

async function code(p: Promise<unknown>): Promise<number | undefined> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(MongoServerError);
  return (e as MongoServerError).code as number | undefined;
}

type Customer = { _id: number; email: string; n?: number };

it('a unique index with collation strength 2 refuses A@x.com after a@x.com, on insert, update and upsert', async () => {
  const c = db.collection<Customer>('customers');
  await c.createIndex({ email: 1 }, { unique: true, collation: ci });
  await c.insertOne({ _id: 1, email: 'a@x.com' });
  expect(await code(c.insertOne({ _id: 2, email: 'A@x.com' }))).toBe(11000);
  await c.insertOne({ _id: 3, email: 'b@x.com' });
  expect(await code(c.updateOne({ _id: 3 }, { $set: { email: 'A@X.COM' } }))).toBe(11000);
  expect(await code(c.updateOne({ email: 'nobody' }, { $set: { email: 'B@x.com' } }, { upsert: true }))).toBe(11000);
  expect((await c.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d.email)).toEqual(['a@x.com', 'b@x.com']);
  // Strength 2 still tells accents apart.
  await c.insertOne({ _id: 4, email: 'á@x.com' });
});

it('listIndexes shows the collation with MongoDB defaults; the same key under another collation is another index', async () => {
  const c = db.collection<Customer>('customers');
  await c.createIndex({ email: 1 }, { name: 'email_binary' });
  const byName = Object.fromEntries((await c.indexes()).map((i) => [i.name, i]));
  expect(byName.email_1!.collation).toEqual({
    locale: 'en',
    caseLevel: false,
    caseFirst: 'off',
    strength: 2,
    numericOrdering: false,
    alternate: 'non-ignorable',
    maxVariable: 'punct',
    normalization: false,
    backwards: false,
  });
  expect(byName.email_binary!.collation).toBeUndefined();
  // Creating the collated one again is a no-op; the same name with another collation is a conflict.
  await c.createIndex({ email: 1 }, { unique: true, collation: ci });
  expect(
    await code(
      c.createIndex({ email: 1 }, { name: 'email_1', unique: true, collation: { locale: 'fr', strength: 1 } }),
    ),
  ).toBe(86);
});

it('queries find what their own collation says, whichever index exists', async () => {
  const c = db.collection<Customer>('customers');
  expect((await c.find({ email: 'A@X.COM' }, { collation: ci }).toArray()).map((d) => d._id)).toEqual([1]);
  expect(await c.find({ email: 'A@X.COM' }).toArray()).toEqual([]);
  expect(await c.countDocuments({ email: 'A@X.COM' })).toBe(0);
  expect(await c.countDocuments({ email: { $in: ['A@X.COM', 'B@X.COM'] } }, { collation: ci })).toBe(2);
  expect(await c.countDocuments({ email: 'a@x.com' })).toBe(1);
  expect((await c.findOne({ email: 'B@x.COM' }, { collation: { locale: 'en', strength: 1 } }))?._id).toBe(3);
});

it('a unique collated index cannot be built over values equal under its collation', async () => {
  const c = db.collection<Customer>('dupes');
  await c.insertMany([
    { _id: 1, email: 'x@y.com' },
    { _id: 2, email: 'X@Y.com' },
  ]);
  expect(await code(c.createIndex({ email: 1 }, { unique: true, collation: ci }))).toBe(11000);
  expect((await c.indexes()).map((i) => i.name)).toEqual(['_id_']);
});

describe('the planner', () => {
  const coll = store.collection();
  const idsOf = (rids: string[] | undefined): unknown[] | undefined => rids?.map((r) => decode(coll.get(r)!)._id);
  store.write(() => {
    coll.addIndex({
      v: 2,
      key: { email: 1 },
      name: 'email_ci',
      unique: true,
      collation: {
        locale: 'en',
        caseLevel: false,
        caseFirst: 'off',
        strength: 2,
        numericOrdering: false,
        alternate: 'non-ignorable',
        maxVariable: 'punct',
        normalization: false,
        backwards: false,
      },
    });
    coll.addIndex({ v: 2, key: { n: 1 }, name: 'n_ci', collation: { locale: 'en', strength: 2 } });
    for (let i = 0; i < 50; i++) {
      const doc: Document = { _id: i, email: `user${i}@x.com`, n: i };
      coll.insert(encode(doc), doc);
    }
  });

  it('uses a collated index for a query with the same collation, exactly, by collation key', () => {
    const p = planQuery(coll, { email: 'USER7@X.COM' }, { locale: 'en', strength: 2 });
    expect([p.index, idsOf(p.rids), p.exact]).toEqual(['email_ci', [7], true]);
  });

  it('does not use it for a binary (or another) collation on strings', () => {
    expect(planQuery(coll, { email: 'user7@x.com' }).index).toBeUndefined();
    expect(planQuery(coll, { email: 'user7@x.com' }, { locale: 'en', strength: 1 }).index).toBeUndefined();
    expect(planQuery(coll, { email: 'user7@x.com' }, { locale: 'fr', strength: 2 }).index).toBeUndefined();
  });

  it('uses any index for values without strings, and none for an ordered walk under a collation', () => {
    expect(idsOf(planQuery(coll, { n: 7 }).rids)).toEqual([7]);
    expect(idsOf(planQuery(coll, { _id: { $in: [3, 4] } }, { locale: 'en', strength: 2 }).rids)).toEqual([3, 4]);
    expect(planQuery(coll, {}, undefined, [['n', 1]]).walk).toBeUndefined();
  });
});
