// collMod's two-step conversion of a non-unique index to a unique one (MongoDB 6.0+): `prepareUnique: true`
// makes the index refuse new duplicate keys (DuplicateKey, 11000) while the duplicates already there stay;
// `unique: true` then converts it, or fails with CannotConvertIndexToUnique (359) listing the `_id`s that
// share each duplicated key (`dryRun: true`: only that check). Asserted through the official driver, with
// MongoDB's documented answers (also against a real server).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoServerError, type Collection, type Document } from 'mongodb';
import { encode } from '../src/storage/bsonio.js';
import { Catalog } from '../src/storage/catalog.js';
import { StorageEnv } from '../src/storage/env.js';
import { prefixKey } from '../src/storage/index-keys.js';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
beforeAll(async () => {
  ctx = await openTestDb('prepunique');
});
afterAll(async () => ctx.close());

type Doc = { _id: number; x?: unknown; y?: unknown; n?: number };

async function failure(p: Promise<unknown>): Promise<MongoServerError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof MongoServerError) return e;
    throw e;
  }
  throw new Error('expected the command to fail');
}

const collMod = (name: string, index: Document, extra: Document = {}): Promise<Document> =>
  ctx.db.command({ collMod: name, index, ...extra });
const indexNamed = async (c: Collection<Doc>, name: string): Promise<Document | undefined> =>
  (await c.listIndexes().toArray()).find((i) => i.name === name);

describe('collMod prepareUnique, then unique', () => {
  let c: Collection<Doc>;
  beforeAll(async () => {
    c = ctx.db.collection<Doc>('apples');
    await c.insertMany([
      { _id: 1, x: 'Delicious', n: 12 },
      { _id: 2, x: 'Macintosh', n: 13 },
      { _id: 3, x: 'Delicious', n: 13 },
      { _id: 4, x: 'Fuji', n: 15 },
      { _id: 5, x: 'Washington', n: 10 },
    ]);
    await c.createIndex({ x: 1 });
  });

  it('converts only a prepared index, and never to non-unique', async () => {
    expect((await failure(collMod('apples', { keyPattern: { x: 1 }, unique: true }))).code).toBe(72); // InvalidOptions
    expect((await failure(collMod('apples', { keyPattern: { x: 1 }, unique: false }))).code).toBe(2); // BadValue
    expect((await failure(collMod('apples', { keyPattern: { x: 1 }, unique: '100' }))).code).toBe(14); // TypeMismatch
    expect((await indexNamed(c, 'x_1'))?.unique).toBeUndefined();
  });

  it('refuses new duplicate keys once prepared, and keeps the duplicates there are', async () => {
    expect((await collMod('apples', { keyPattern: { x: 1 }, prepareUnique: true })).ok).toBe(1);
    expect(await indexNamed(c, 'x_1')).toMatchObject({ key: { x: 1 }, prepareUnique: true });
    expect((await indexNamed(c, 'x_1'))?.unique).toBeUndefined();

    const dup = await failure(c.insertOne({ _id: 6, x: 'Fuji' }));
    expect(dup.code).toBe(11000);
    expect(await c.countDocuments({ x: 'Delicious' })).toBe(2);
    // A new key is fine; so is an update of a duplicated document that leaves its key alone.
    await c.insertOne({ _id: 7, x: 'Gala' });
    expect((await c.updateOne({ _id: 3 }, { $set: { n: 14 } })).modifiedCount).toBe(1);
    // Moving a document onto a key another holds is refused; off a duplicated key to a new one is fine.
    expect((await failure(c.updateOne({ _id: 7 }, { $set: { x: 'Fuji' } }))).code).toBe(11000);
    expect((await c.updateOne({ _id: 1 }, { $set: { x: 'Delicious' } })).matchedCount).toBe(1);
    expect(
      (
        await failure(
          c.insertMany([
            { _id: 8, x: 'Braeburn' },
            { _id: 9, x: 'Braeburn' },
          ]),
        )
      ).code,
    ).toBe(11000);
    expect(await c.countDocuments({ x: 'Braeburn' })).toBe(1);
    expect(await c.countDocuments()).toBe(7);
  });

  it('fails to convert while duplicates remain, naming them, and a dry run only checks', async () => {
    const err = await failure(collMod('apples', { keyPattern: { x: 1 }, unique: true }));
    expect(err.code).toBe(359);
    expect(err.codeName).toBe('CannotConvertIndexToUnique');
    expect(err.errorResponse.violations).toEqual([{ ids: [1, 3] }]);
    const dry = await failure(collMod('apples', { name: 'x_1', unique: true }, { dryRun: true }));
    expect(dry.errorResponse.violations).toEqual([{ ids: [1, 3] }]);
    await c.deleteOne({ _id: 3 });
    expect((await collMod('apples', { name: 'x_1', unique: true }, { dryRun: true })).ok).toBe(1);
    expect((await indexNamed(c, 'x_1'))?.unique).toBeUndefined();
  });

  it('converts the index: unique from then on, with every entry there', async () => {
    const converted = await collMod('apples', { keyPattern: { x: 1 }, unique: true });
    expect(converted).toMatchObject({ ok: 1, unique_new: true });
    const spec = await indexNamed(c, 'x_1');
    expect(spec).toMatchObject({ key: { x: 1 }, unique: true });
    expect(spec?.prepareUnique).toBeUndefined();
    expect((await failure(c.insertOne({ _id: 10, x: 'Gala' }))).code).toBe(11000);
    const byKey = await c
      .find({ x: { $in: ['Delicious', 'Fuji', 'Gala', 'Braeburn', 'Macintosh', 'Washington'] } })
      .sort({ x: 1 })
      .toArray();
    expect(byKey.map((d) => d._id)).toEqual([8, 1, 4, 7, 2, 5]);
    expect(await c.countDocuments({ x: 'Fuji' })).toBe(1);
    expect((await c.find({ x: 'Gala' }).hint({ x: 1 }).toArray()).map((d) => d._id)).toEqual([7]);
    // The same index asked for again, as created unique, is the one there.
    expect(await c.createIndex({ x: 1 }, { unique: true })).toBe('x_1');
    await c.deleteOne({ x: 'Gala' });
    await c.insertOne({ _id: 11, x: 'Gala' });
    expect((await c.find({ x: 'Gala' }).toArray()).map((d) => d._id)).toEqual([11]);
  });

  it('lets duplicates in again when prepareUnique is set back to false', async () => {
    const d = ctx.db.collection<Doc>('pears');
    await d.insertMany([
      { _id: 1, x: 1, y: 'a' },
      { _id: 2, x: 1, y: 'a' },
      { _id: 3, x: 2, y: 'a' },
    ]);
    await d.createIndex({ x: 1, y: 1 }, { name: 'xy' });
    await collMod('pears', { name: 'xy', prepareUnique: true });
    expect((await failure(d.insertOne({ _id: 4, x: 2, y: 'a' }))).code).toBe(11000);
    await d.insertOne({ _id: 4, x: 2, y: 'b' }); // the compound key differs
    await collMod('pears', { name: 'xy', prepareUnique: false });
    expect((await indexNamed(d, 'xy'))?.prepareUnique).toBeUndefined();
    await d.insertOne({ _id: 5, x: 2, y: 'a' });
    expect(await d.countDocuments({ x: 2, y: 'a' })).toBe(2);
  });

  it('createIndexes takes prepareUnique too', async () => {
    const d = ctx.db.collection<Doc>('plums');
    await d.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 1 },
    ]);
    await ctx.db.command({ createIndexes: 'plums', indexes: [{ key: { x: 1 }, name: 'x_1', prepareUnique: true }] });
    expect(await indexNamed(d, 'x_1')).toMatchObject({ prepareUnique: true });
    expect((await failure(d.insertOne({ _id: 3, x: 1 }))).code).toBe(11000);
    expect((await failure(collMod('plums', { keyPattern: { x: 1 }, unique: true }))).errorResponse.violations).toEqual([
      { ids: [1, 2] },
    ]);
  });
});

// Engine internals: the converted index is stored in the unique layout and found so after a reopen.
const storage = process.env.MONGODB_URI ? describe.skip : describe;
storage('a converted index in storage', () => {
  it('is unique after the data directory is opened again, each key one get', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prepare-unique-'));
    try {
      let env = StorageEnv.open({ dir });
      let catalog = new Catalog(env);
      const docs = Array.from({ length: 1500 }, (_, i) => ({ _id: i, x: `k${i}`, tags: [i, i + 10_000] }));
      env.write(() => {
        const c = catalog.ensure('db', 'c');
        c.addIndex({ v: 2, key: { x: 1, tags: 1 }, name: 'x_tags', prepareUnique: true });
        for (const d of docs) c.insert(encode(d), d);
      });
      env.write(() => {
        const c = catalog.get('db', 'c')!;
        const idx = c.indexes.get('x_tags')!;
        expect(c.uniqueViolations(idx)).toEqual([]);
        c.makeUnique(idx, { v: 2, key: { x: 1, tags: 1 }, name: 'x_tags', unique: true });
      });
      await env.close();
      env = StorageEnv.open({ dir });
      catalog = new Catalog(env);
      const c = catalog.get('db', 'c')!;
      const idx = c.indexes.get('x_tags')!;
      expect(idx.spec).toEqual({ v: 2, key: { x: 1, tags: 1 }, name: 'x_tags', unique: true });
      expect(idx.unique).toBe(true);
      for (const i of [0, 777, 1499]) {
        expect(idx.get(prefixKey([`k${i}`, i + 10_000]))).toBe(c.ridById(i));
        expect([...idx.lookup(prefixKey([`k${i}`]))]).toEqual([c.ridById(i), c.ridById(i)]);
      }
      expect(idx.count(prefixKey([]))).toBe(3000);
      await env.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('an error answer changes nothing (the whole collMod is checked first, as MongoDB does)', () => {
  test('a later option that fails leaves the index as it was: not unique, not prepared', async () => {
    const c = ctx.db.collection<Doc>('atomic');
    await c.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    await c.createIndex({ x: 1 }, { name: 'x_1' });
    await collMod('atomic', { name: 'x_1', prepareUnique: true });
    // dryRun of the wrong type, after the index option: TypeMismatch, and no conversion.
    expect((await failure(collMod('atomic', { name: 'x_1', unique: true }, { dryRun: 1 }))).code).toBe(14);
    expect(
      (await failure(collMod('atomic', { name: 'x_1', unique: true }, { validationLevel: 'bogus' }))).code,
    ).toBeGreaterThan(0);
    expect(await indexNamed(c, 'x_1')).not.toHaveProperty('unique');
    await c.insertOne({ _id: 3, y: 1 });
    // An option after prepareUnique: false that fails: still prepared (a duplicate of x is refused).
    expect((await failure(collMod('atomic', { name: 'x_1', prepareUnique: false }, { nope: 1 }))).code).toBe(40415);
    expect((await failure(c.insertOne({ _id: 4, x: 1 }))).code).toBe(11000);
  });

  test('a successful dry run is no change: no modify event, nothing converted', async () => {
    const c = ctx.db.collection<Doc>('dry');
    await c.insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ]);
    await c.createIndex({ x: 1 }, { name: 'x_1' });
    await collMod('dry', { name: 'x_1', prepareUnique: true });
    const stream = c.watch([], { showExpandedEvents: true, maxAwaitTimeMS: 100 });
    await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
    expect(await collMod('dry', { name: 'x_1', unique: true }, { dryRun: true })).toMatchObject({ ok: 1 });
    await c.insertOne({ _id: 3, x: 3 });
    const next = await stream.next();
    expect(next.operationType).toBe('insert');
    await stream.close();
    expect(await indexNamed(c, 'x_1')).not.toHaveProperty('unique');
  });
});
