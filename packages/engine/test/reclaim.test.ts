// Dropping an index or a collection gives its keys back in the background (storage/reclaim.ts): the drop takes it
// out of the catalog at once and records the ranges it held; they survive a restart and are deleted in steps until
// none is left. Over the wire, a dropped index answers no query and one made again under the same name holds
// exactly the documents there are. Engine internals for the first part, so only registered against the embedded
// engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, MongoServerError } from 'mongodb';
import { encode } from '../src/storage/bsonio.js';
import { Catalog } from '../src/storage/catalog.js';
import { StorageEnv } from '../src/storage/env.js';
import { reclaimPending, reclaimStep } from '../src/storage/reclaim.js';
import { startEngine } from '../src/index.js';

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

function defineTests(): void {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-reclaim-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const count = (env: StorageEnv, db: 'docs' | 'keys'): number => [...env[db].getKeys({})].length;

  it('keeps the ranges of a dropped index and a dropped collection across a restart, then deletes them all', async () => {
    let env = StorageEnv.open({ dir });
    let catalog = new Catalog(env);
    env.write(() => {
      const c = catalog.ensure('news', 'articles');
      c.addIndex({ v: 2, key: { tags: 1 }, name: 'tags_1' });
      c.addIndex({ v: 2, key: { title: 1 }, name: 'title_1' });
      for (let i = 0; i < 2000; i++) {
        const d = { _id: i, title: `t${i}`, tags: [`a${i % 7}`, `b${i % 11}`] };
        c.insert(encode(d), d);
      }
      const other = catalog.ensure('news', 'log');
      for (let i = 0; i < 500; i++) other.insert(encode({ _id: i }), { _id: i });
    });
    const keysBefore = count(env, 'keys');
    expect(keysBefore).toBe(2000 * 2 + 2000);
    env.write(() => {
      catalog.get('news', 'articles')!.dropIndex('tags_1');
      catalog.drop('news', 'log');
    });
    // Out of the catalog at once, the keys still there, the ranges recorded.
    expect(catalog.get('news', 'articles')!.indexes.has('tags_1')).toBe(false);
    expect(catalog.get('news', 'log')).toBeUndefined();
    expect(count(env, 'keys')).toBe(keysBefore);
    expect(count(env, 'docs')).toBe(2500);
    expect(reclaimPending(env)).toBe(true);
    await env.close();

    env = StorageEnv.open({ dir });
    catalog = new Catalog(env);
    expect(reclaimPending(env)).toBe(true);
    // A step ends when its time is up, with work left; the next ones finish it.
    expect(env.write(() => reclaimStep(env, 0))).toBe(false);
    let steps = 1;
    while (!env.write(() => reclaimStep(env, performance.now() + 1))) steps++;
    expect(steps).toBeGreaterThan(1);
    expect(reclaimPending(env)).toBe(false);
    expect(count(env, 'keys')).toBe(2000);
    expect(count(env, 'docs')).toBe(2000);
    // What is left is the live index's, whole.
    const c = catalog.get('news', 'articles')!;
    expect([...c.indexes.get('title_1')!.lookup('')].length).toBe(2000);
    await env.close();
  });

  it('over the wire: a dropped index answers nothing, and made again it holds the documents there are', async () => {
    const engine = await startEngine({ port: 0, dbPath: dir });
    const client = await MongoClient.connect(engine.uri);
    try {
      const c = client.db('news').collection<{ _id: number; title: string }>('articles');
      await c.insertMany(Array.from({ length: 3000 }, (_, i) => ({ _id: i, title: `lighthouse keeper ${i}` })));
      await c.createIndex({ title: 'text' }, { name: 'text' });
      await c.dropIndex('text');
      const refused = await c
        .find({ $text: { $search: 'lighthouse' } })
        .toArray()
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(MongoServerError);
      expect((refused as MongoServerError).code).toBe(27);
      await c.deleteMany({ _id: { $lt: 1000 } });
      await c.createIndex({ title: 'text' }, { name: 'text' });
      expect(await c.countDocuments({ $text: { $search: 'lighthouse' } })).toBe(2000);
      await client.db('news').dropDatabase();
      expect(await client.db('news').listCollections().toArray()).toEqual([]);
    } finally {
      await client.close();
      await engine.close();
    }
    // Closed with nothing left to reclaim, or with ranges the next start deletes.
    const env = StorageEnv.open({ dir });
    new Catalog(env);
    while (!env.write(() => reclaimStep(env, performance.now() + 4)));
    expect(count(env, 'docs')).toBe(0);
    expect(count(env, 'keys')).toBe(0);
    await env.close();
  });
}
