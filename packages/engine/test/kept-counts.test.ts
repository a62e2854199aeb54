// Index counts kept across a clean restart (storage/catalog.ts saveKeptCounts): the first count after the restart
// is answered without walking the index, stays exact through the writes that follow, and is walked again when
// anything wrote to the data directory in between (the stamp no longer matches). Engine internals, so only
// registered against the embedded engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngine } from '../src/index.js';
import { encode } from '../src/storage/bsonio.js';
import { Catalog } from '../src/storage/catalog.js';
import { readStats, StorageEnv } from '../src/storage/env.js';

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

async function withEngine<T>(dir: string, fn: (c: import('mongodb').Collection) => Promise<T>): Promise<T> {
  const engine = await startEngine({ port: 0, dbPath: dir });
  const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.connect();
    return await fn(client.db('news').collection('articles'));
  } finally {
    await client.close();
    await engine.close();
  }
}

function defineTests(): void {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-kept-counts-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers the first counts after a clean restart without walking the index, exact through later writes', async () => {
    await withEngine(dir, async (c) => {
      await c.createIndex({ status: 1, section: 1 });
      await c.insertMany(
        Array.from({ length: 500 }, (_, i) => ({
          _id: i as never,
          status: i % 5 ? 'published' : 'draft',
          section: `s${i % 3}`,
        })),
      );
      expect(await c.countDocuments({ status: 'published' })).toBe(400);
      expect(await c.countDocuments({ status: 'published', section: 's1' })).toBe(134);
    });
    const walks = readStats.indexCounts;
    await withEngine(dir, async (c) => {
      expect(await c.countDocuments({ status: 'published' })).toBe(400);
      expect(await c.countDocuments({ status: 'published', section: 's1' })).toBe(134);
      expect(readStats.indexCounts).toBe(walks);
      await c.insertOne({ _id: 1000 as never, status: 'published', section: 's1' });
      await c.deleteOne({ _id: 1 as never });
      expect(await c.countDocuments({ status: 'published' })).toBe(400);
      expect(await c.countDocuments({ status: 'published', section: 's1' })).toBe(134);
      expect(readStats.indexCounts).toBe(walks);
    });
  });

  it('keeps the counts through refused writes, also one whose transaction is discarded (the catalog reloaded)', async () => {
    await withEngine(dir, async (c) => {
      expect(await c.countDocuments({ status: 'published' })).toBe(400);
      const walks = readStats.indexCounts;
      await expect(c.insertOne({ _id: 1000 as never, status: 'draft', section: 's0' })).rejects.toMatchObject({
        code: 11000,
      });
      await expect(c.updateOne({ _id: 2 as never }, { $set: { _id: 3 } })).rejects.toMatchObject({ code: 66 });
      // A unique index over duplicates: refused after part of it was built, so its transaction is discarded.
      await expect(c.createIndex({ section: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
      await c.insertOne({ _id: 1001 as never, status: 'published', section: 's2' });
      expect(await c.countDocuments({ status: 'published' })).toBe(401);
      expect(await c.countDocuments({ status: 'published', section: 's1' })).toBe(134);
      await c.deleteOne({ _id: 1001 as never });
      expect(readStats.indexCounts).toBe(walks);
    });
  });

  it('walks the index again when something wrote to the directory after the counts were kept', async () => {
    // A write the engine's counts never saw (another build, a tool, a crash after writes all look like this).
    const env = StorageEnv.open({ dir });
    const catalog = new Catalog(env);
    env.write(() => {
      const c = catalog.get('news', 'articles')!;
      for (let i = 2000; i < 2010; i++)
        c.insert(encode({ _id: i, status: 'published', section: 's1' }), {
          _id: i,
          status: 'published',
          section: 's1',
        });
    });
    await env.close();
    const walks = readStats.indexCounts;
    await withEngine(dir, async (c) => {
      expect(await c.countDocuments({ status: 'published' })).toBe(410);
      expect(await c.countDocuments({ status: 'published', section: 's1' })).toBe(144);
      expect(readStats.indexCounts).toBe(walks + 2);
    });
  });
}
