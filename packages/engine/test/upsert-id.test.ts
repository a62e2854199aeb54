// MongoDB lets the insert of an upsert choose `_id` through $setOnInsert (the newsletter relies on it).
import type { Db } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openTestDb('upsertid'));
});
afterAll(async () => {
  await close();
});

test('an upsert may set _id through $setOnInsert when it inserts', async () => {
  const coll = db.collection<{ _id: string; n: number; k: string }>('upsert_setoninsert_id');
  const res = await coll.updateOne({ k: 'a' }, { $set: { n: 1 }, $setOnInsert: { _id: 'chosen' } }, { upsert: true });
  expect(res.upsertedId).toBe('chosen');
  expect(await coll.findOne({ _id: 'chosen' })).toEqual({ _id: 'chosen', k: 'a', n: 1 });
  await coll.updateOne({ k: 'a' }, { $set: { n: 2 }, $setOnInsert: { _id: 'other' } }, { upsert: true });
  expect(await coll.find().toArray()).toEqual([{ _id: 'chosen', k: 'a', n: 2 }]);
});
