// IdLoader (src/store/loaders.ts): `readNow` reads the ids not read yet at once, in one batch, without asking again
// for ids already read or on their way, and loads of ids it is reading wait for it instead of asking again; `clear` makes the next load read the store again, and so
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
  await db
    .collection<{ _id: string; n: number }>('things')
    .insertMany(['a', 'b', 'c', 'd'].map((id, n) => ({ _id: id, n })));
});
afterAll(() => close());

function countingLoader(batches: string[][]): IdLoader<{ _id: string; n: number }> {
  const factory = byIdLoader<{ _id: string; n: number }>(async (_store, ids) => {
    batches.push([...ids]);
    return db
      .collection<{ _id: string; n: number }>('things')
      .find({ _id: { $in: [...ids] } })
      .toArray();
  });
  return factory(store, outsideAnOperation);
}

test('readNow reads what is neither read nor asked for, in one batch at once, and loads wait for it', async () => {
  const batches: string[][] = [];
  const loader = countingLoader(batches);
  const first = loader.load('a'); // in DataLoader's batch, dispatched after this tick
  const now = loader.readNow(['a', 'b', 'b', 'x']);
  const b = loader.load('b'); // being read by readNow: not asked again
  expect(batches).toEqual([['b', 'x']]);
  await Promise.all([first, now, b]);
  expect(batches).toEqual([['b', 'x'], ['a']]);
  expect(await b).toMatchObject({ n: 1 });
  expect(loader.readAlready(['a', 'b', 'x'])?.map((d) => d?.n ?? null)).toEqual([0, 1, null]);

  await loader.readNow(['a', 'c', 'd']);
  await loader.readNow(['c', 'd', 'x']);
  expect(batches).toEqual([['b', 'x'], ['a'], ['c', 'd']]);
  expect(await loader.load('d')).toMatchObject({ n: 3 });
  expect(await loader.load('x')).toBeNull();
  expect(batches).toHaveLength(3);
});

test('a failed readNow resolves all the same, and a later load reads again and reports the failure', async () => {
  let fail = true;
  const batches: string[][] = [];
  const factory = byIdLoader<{ _id: string; n: number }>(async (_store, ids) => {
    batches.push([...ids]);
    if (fail) throw new Error('store unavailable');
    return db
      .collection<{ _id: string; n: number }>('things')
      .find({ _id: { $in: [...ids] } })
      .toArray();
  });
  const loader = factory(store, outsideAnOperation);
  const waiting = loader.load('c').catch((error: Error) => error.message); // asked while readNow reads it
  await expect(loader.readNow(['b', 'c'])).resolves.toBeUndefined();
  expect(loader.readAlready(['b'])).toBeUndefined();
  await expect(loader.load('b')).rejects.toThrow('store unavailable');
  fail = false;
  expect(await waiting).toBe('store unavailable');
  loader.clearAll();
  expect(await loader.load('b')).toMatchObject({ n: 1 });
  // readNow's own read of b at once, DataLoader's of c after the tick, then the two loads of b.
  expect(batches).toEqual([['b'], ['c'], ['b'], ['b']]);
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
  await loader.readNow(['b']);
  expect(batches).toEqual([['b', 'c'], ['b']]);
});

test("a request's Loaders build fresh loaders after release", async () => {
  const batches: string[][] = [];
  const factory = byIdLoader<{ _id: string; n: number }>(async (_store, ids) => {
    batches.push([...ids]);
    return db
      .collection<{ _id: string; n: number }>('things')
      .find({ _id: { $in: [...ids] } })
      .toArray();
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
