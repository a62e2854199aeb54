// A search's term scores are kept for the next search over the same words (a page, then its count) while the
// collection's change counter holds. A write counts its change when its function runs, but readers see it only
// once it commits: a search read in between sees the state before the write. Scores read then must not be kept
// under the new count, or every later search over those words misses the write until the next one. Engine
// internals (the storage's asynchronous commit), so only registered against the embedded engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngine } from '../src/index.js';
import { splitText, textSearch } from '../src/query/text.js';
import { encode } from '../src/storage/bsonio.js';
import { Catalog } from '../src/storage/catalog.js';
import type { Collection } from '../src/storage/collection.js';
import { StorageEnv } from '../src/storage/env.js';

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

function defineTests(): void {
  let dir: string;
  let env: StorageEnv;
  let coll: Collection;
  let bulk: Collection;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-kept-scores-'));
    const engine = await startEngine({ port: 0, dbPath: dir });
    const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      const articles = client.db('news').collection('articles');
      await articles.createIndex({ title: 'text' });
      await articles.insertMany([
        { _id: 1 as never, title: 'Harbour lights return' },
        { _id: 2 as never, title: 'A quiet market day' },
      ]);
      await client.db('news').createCollection('bulk');
    } finally {
      await client.close();
      await engine.close();
    }
    env = StorageEnv.open({ dir });
    const catalog = new Catalog(env);
    coll = catalog.get('news', 'articles')!;
    bulk = catalog.get('news', 'bulk')!;
  });
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const found = (words: string): unknown[] =>
    [...textSearch(coll, splitText({ $text: { $search: words } })!, {})].map((m) => m.doc._id).sort();

  it('does not keep the scores a search read while a write was waiting for its commit', async () => {
    expect(found('harbour')).toEqual([1]);
    // The window is a commit's duration: the write carries 16 MB besides the article, so that its commit (on
    // lmdb's write thread) is still running when this thread next turns. Tried a few times, in case it was not.
    let opened = false;
    for (let id = 100; id < 105 && !opened; id++) {
      const doc = { _id: id, title: `The harbour reopens ${id}` };
      let duringCommit: unknown[] = [];
      await env.writeAsync(
        () => {
          coll.insert(encode(doc), doc);
          for (let i = 0; i < 4; i++) {
            const big = { _id: `${id}-${i}`, blob: Buffer.alloc(4 * 1024 * 1024, id + i) };
            bulk.insert(encode(big), big);
          }
        },
        // Called once the write's function has run, inside lmdb's transaction: the next turn runs during the commit.
        () => setImmediate(() => (duringCommit = found('harbour'))),
      );
      opened = !duringCommit.includes(id);
      // Whatever a search read in between, the next one finds the committed article.
      expect(found('harbour')).toContain(id);
      expect(found('harbour')).toContain(id);
    }
    expect(opened).toBe(true);
  });

  it('still keeps scores read when no write was pending, and drops them at the next write', async () => {
    expect(found('market')).toEqual([2]);
    expect(found('market')).toEqual([2]);
    const doc = { _id: 4, title: 'Market stalls move' };
    await env.writeAsync(() => coll.insert(encode(doc), doc));
    expect(found('market')).toEqual([2, 4]);
  });
}
