// IdLoader (src/store/loaders.ts): preloading reads each id once, in one batch with what is asked at the same time,
// without asking again for ids already read or on their way; `clear` makes the next load read the store again, and so
// do `clearAll` and `Loaders.release` (what a request's loaders hold is dropped once it is answered).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { Db, MongoClient } from 'mongodb';
import { byIdLoader, IdLoader, Loaders, outsideAnOperation } from '../../src/store/loaders.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from '../helpers/db.js';

let db: Db;
let client: MongoClient;
let close: () => Promise<void>;
let store: Store;

beforeAll(async () => {
  ({ db, client, close } = await openTestDb('idloader'));
  store = await Store.onDb(client, db);
  await db.collection<{ _id: string; n: number }>('things').insertMany(['a', 'b', 'c', 'd'].map((id, n) => ({ _id: id, n })));
});
afterAll(() => close());

function countingLoader(batches: string[][]): IdLoader<{ _id: string; n: number }> {
  const factory = byIdLoader<{ _id: string; n: number }>(async (_store, ids) => {
    batches.push([...ids]);
    return db.collection<{ _id: string; n: number }>('things').find({ _id: { $in: [...ids] } }).toArray();
  });
  return factory(store, outsideAnOperation) as IdLoader<{ _id: string; n: number }>;
}

test('preload asks once per id, with the loads of the same tick, and not again for what is read', async () => {
  const batches: string[][] = [];
  const loader = countingLoader(batches);
  const loads: Array<Promise<unknown>> = [];
  const first = loader.load('a');
  loader.preload(['a', 'b', 'b', 'x'], loads);
  loader.preload(['b', 'c'], loads);
  await Promise.all([first, ...loads]);
  expect(batches).toEqual([['a', 'b', 'x', 'c']]);
  expect(loader.readAlready(['a', 'b', 'c', 'x'])?.map((d) => d?.n ?? null)).toEqual([0, 1, 2, null]);

  const again: Array<Promise<unknown>> = [];
  loader.preload(['a', 'c', 'd'], again);
  expect(again).toHaveLength(1);
  await Promise.all(again);
  expect(batches).toEqual([['a', 'b', 'x', 'c'], ['d']]);
  expect(await loader.load('d')).toMatchObject({ n: 3 });
});

test('after clear, a load reads the store again', async () => {
  const batches: string[][] = [];
  const loader = countingLoader(batches);
  expect(await loader.load('a')).toMatchObject({ n: 0 });
  await db.collection<{ _id: string; n: number }>('things').updateOne({ _id: 'a' }, { $set: { n: 10 } });
  expect(await loader.load('a')).toMatchObject({ n: 0 });
  loader.clear('a');
  expect(await loader.load('a')).toMatchObject({ n: 10 });
  loader.clearAll();
  await loader.load('a');
  expect(batches).toEqual([['a'], ['a'], ['a']]);
});

test('after clearAll, nothing read is kept: the loader answers nothing at once and a load reads the store again', async () => {
  const batches: string[][] = [];
  const loader = countingLoader(batches);
  expect((await loader.loadMany(['b', 'c'])).map((d) => (d as { n: number } | null)?.n)).toEqual([1, 2]);
  expect(loader.readAlready(['b', 'c'])).toHaveLength(2);
  loader.clearAll();
  expect(loader.readAlready(['b'])).toBeUndefined();
  const loads: Array<Promise<unknown>> = [];
  loader.preload(['b'], loads);
  await Promise.all(loads);
  expect(batches).toEqual([['b', 'c'], ['b']]);
});

test("a request's Loaders build fresh loaders after release", async () => {
  const batches: string[][] = [];
  const factory = byIdLoader<{ _id: string; n: number }>(async (_store, ids) => {
    batches.push([...ids]);
    return db.collection<{ _id: string; n: number }>('things').find({ _id: { $in: [...ids] } }).toArray();
  });
  const loaders = new Loaders(store);
  const first = loaders.get(factory);
  await first.load('d');
  loaders.release();
  const second = loaders.get(factory);
  expect(second).not.toBe(first);
  expect(await second.load('d')).toMatchObject({ n: 3 });
  expect(batches).toEqual([['d'], ['d']]);
});
