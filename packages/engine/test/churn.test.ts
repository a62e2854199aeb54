// Heavy insert/update/delete churn (enough to make the embedded engine relocate documents between its
// memory slabs) must never change what reads return.
import { ObjectId, type Db } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('churn');
  db = ctx.db;
});
afterAll(async () => ctx.close());

it('keeps every document intact through churn', async () => {
  const c = db.collection<{ _id: number; v: number; pad: string }>('churn');
  await c.createIndex({ v: 1 });
  const pad = (i: number): string => String(i % 10).repeat(2000);
  for (let b = 0; b < 25; b++) {
    await c.insertMany(
      Array.from({ length: 1000 }, (_, j) => ({ _id: b * 1000 + j, v: b * 1000 + j, pad: pad(b * 1000 + j) })),
    );
  }
  await c.deleteMany({ _id: { $mod: [4, 1] } });
  await c.deleteMany({ _id: { $mod: [4, 2] } });
  await c.deleteMany({ _id: { $mod: [4, 3] } });
  await c.updateMany({}, { $inc: { v: 1 } });
  expect(await c.countDocuments()).toBe(6250);
  let n = 0;
  for await (const d of c.find({}, { sort: { _id: 1 } })) {
    expect(d._id % 4).toBe(0);
    expect(d.v).toBe(d._id + 1);
    expect(d.pad).toBe(pad(d._id));
    n++;
  }
  expect(n).toBe(6250);
  expect(await c.findOne({ v: 4001 })).toMatchObject({ _id: 4000 });
}, 120_000);

it('ObjectId keys: unique _id and non-unique references survive deletes and re-inserts', async () => {
  const c = db.collection<{ _id: ObjectId; ref: ObjectId; i: number }>('oids');
  await c.createIndex({ ref: 1 });
  const refs = Array.from({ length: 7 }, () => new ObjectId());
  const docs = Array.from({ length: 5000 }, (_, i) => ({ _id: new ObjectId(), ref: refs[i % 7]!, i }));
  await c.insertMany(docs);
  await c.deleteMany({ i: { $mod: [2, 0] } });
  const back = docs.filter((d) => d.i % 4 === 0);
  await c.insertMany(back);
  await expect(c.insertOne(docs[1]!)).rejects.toMatchObject({ code: 11000 });
  for (const d of docs.slice(0, 40)) {
    const found = await c.findOne({ _id: d._id });
    expect(found ? found.i : null).toBe(d.i % 2 === 1 || d.i % 4 === 0 ? d.i : null);
  }
  const live = docs.filter((d) => d.i % 2 === 1 || d.i % 4 === 0);
  expect(await c.countDocuments({ ref: refs[3]! })).toBe(live.filter((d) => d.i % 7 === 3).length);
  const some = live.slice(100, 200).map((d) => d._id);
  expect(await c.countDocuments({ _id: { $in: some } })).toBe(100);
  expect(await c.countDocuments({ _id: { $in: [new ObjectId(), new ObjectId()] } })).toBe(0);
});
