// Large counts that no index keeps yet (a first start, a crash) are walked in chunks between which the engine
// serves other requests (storage/indexes.ts walkCount, query/count.ts ColdCounts): a connection's count waits
// for its walk while other connections are answered, the count is exact whatever writes commit before, during
// or after the walk, and identical counts share one walk. The chunks are made small here (countWalk) so that a
// walk of a few thousand keys spans hundreds of event-loop turns. Engine internals, so only registered against
// the embedded engine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Document } from 'bson';
import { MongoClient, type Collection as DriverCollection } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';
import { encode } from '../src/storage/bsonio.js';
import { readStats, StorageEnv } from '../src/storage/env.js';
import { Catalog } from '../src/storage/catalog.js';
import { countWalk } from '../src/storage/kept-counts.js';
import { prefixKey } from '../src/storage/index-keys.js';
import { matches } from '../src/query/exec.js';
import { scratchStore } from './scratch-store.js';

const saved = { ...countWalk };
const smallChunks = (): void => {
  Object.assign(countWalk, { firstChunk: 64, minChunk: 64, maxChunk: 64 });
};

const article = (i: number): Document => ({ _id: i, status: i % 4 ? 'published' : 'draft', n: i });

function defineTests(): void {
  beforeAll(smallChunks);
  afterAll(() => Object.assign(countWalk, saved));

  describe('through the driver', () => {
    let engine: RunningEngine;
    const clients: MongoClient[] = [];
    const coll = (i: number): DriverCollection<Document> => clients[i]!.db('walks').collection('articles');
    // The same filter in a form no index counts: the engine matches documents.
    const slowCount = (filter: Document): Promise<number> => coll(2).countDocuments({ $and: [filter] });

    beforeAll(async () => {
      engine = await startEngine({ port: 0 });
      for (let i = 0; i < 3; i++) {
        const c = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 5000, maxPoolSize: 1 });
        await c.connect();
        clients.push(c);
      }
      await coll(0).createIndex({ status: 1 });
      for (let from = 0; from < 24_000; from += 4000)
        await coll(0).insertMany(Array.from({ length: 4000 }, (_, i) => article(from + i)));
    });
    afterAll(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await engine.close();
    });

    it('answers other connections (hello, finds, counts already kept) while a large count walks the index', async () => {
      const small = await coll(1).countDocuments({ status: 'draft' }); // 6,000 entries: walked once, then kept
      expect(small).toBe(6000);
      const order: string[] = [];
      let done = false;
      const counting = coll(0)
        .countDocuments({ status: 'published' })
        .then((n) => {
          order.push('count');
          done = true;
          return n;
        });
      let answered = 0;
      while (!done && answered < 50) {
        const hello = await clients[1]!.db('admin').command({ hello: 1 });
        expect(hello.isWritablePrimary).toBe(true);
        expect(await coll(1).findOne({ _id: answered } as Document)).toEqual(article(answered));
        expect(await coll(1).countDocuments({ status: 'draft' })).toBe(6000);
        if (!done) order.push('other');
        answered++;
      }
      expect(await counting).toBe(18_000);
      // A walk in one go would hold the engine's thread, and nothing sent after the count would be answered first.
      expect(order.slice(0, 3)).toEqual(['other', 'other', 'other']);
    });

    it('is exact, and stays kept and exact, when inserts and deletes commit while the count walks', async () => {
      // A prefix no count keeps yet: the documents get a new status value.
      await coll(0).updateMany({ status: 'published', n: { $lt: 12_000 } } as Document, { $set: { status: 'live' } });
      const walks = readStats.indexCounts;
      const counting = coll(0).countDocuments({ status: 'live' });
      let next = 100_000;
      for (let i = 0; i < 30; i++) {
        await coll(1).insertOne(article(next++));
        await coll(1).insertOne({ ...article(next++), status: 'live' });
        if (i % 3 === 0) await coll(1).deleteOne({ status: 'live' });
      }
      const first = await counting;
      // What it answers holds every write acknowledged before it was asked, at least, and none that was not sent.
      expect(first).toBeGreaterThanOrEqual(9000 - 10);
      expect(first).toBeLessThanOrEqual(9000 + 30);
      expect(await coll(2).countDocuments({ status: 'live' })).toBe(await slowCount({ status: 'live' }));
      expect(readStats.indexCounts).toBe(walks + 1);
      for (let i = 0; i < 5; i++) {
        await coll(1).insertOne({ ...article(next++), status: 'live' });
        await coll(1).deleteMany({ status: 'live', n: { $lt: 100 * (i + 1) } } as Document);
        expect(await coll(2).countDocuments({ status: 'live' })).toBe(await slowCount({ status: 'live' }));
      }
      expect(readStats.indexCounts).toBe(walks + 1);
    });

    it('walks once for identical counts asked at the same time on several connections', async () => {
      await coll(0).updateMany({ status: 'live' }, { $set: { status: 'archived' } });
      const walks = readStats.indexCounts;
      const counts = await Promise.all([0, 1, 2].map((i) => coll(i).countDocuments({ status: 'archived' })));
      const expected = await slowCount({ status: 'archived' });
      expect(counts).toEqual([expected, expected, expected]);
      expect(readStats.indexCounts).toBe(walks + 1);
      // The $count and per-value $group pipelines are answered from the same kept count.
      expect(
        await coll(1)
          .aggregate([{ $match: { status: 'archived' } }, { $count: 'n' }])
          .toArray(),
      ).toEqual([{ n: expected }]);
      expect(readStats.indexCounts).toBe(walks + 1);
    });
    it('walks behind back-to-back updates of thousands of documents (one transaction each), answering others meanwhile', async () => {
      await coll(0).createIndex({ phase: 1 });
      await coll(1).updateMany({}, { $set: { phase: 'even' } });
      const total = await coll(2).countDocuments({});
      const walks = readStats.indexCounts;
      // Each update moves 6,000 documents' entries of the phase index in one transaction (more than an index
      // journals per transaction), one after the other while the count walks.
      let stop = false;
      let rounds = 0;
      const writer = (async () => {
        while (!stop && rounds < 12)
          await coll(1).updateMany({ _id: { $lt: 6000 } } as Document, {
            $set: { phase: rounds++ % 2 ? 'even' : 'odd' },
          });
      })();
      const order: string[] = [];
      const counting = coll(0)
        .countDocuments({ phase: { $in: ['even', 'odd'] } })
        .then((n) => {
          order.push('count');
          return n;
        });
      await clients[2]!.db('admin').command({ hello: 1 });
      order.push('hello');
      const n = await counting;
      stop = true;
      await writer;
      expect(order).toEqual(['hello', 'count']);
      expect(rounds).toBeGreaterThan(0);
      // Every document has one of the two values at every commit.
      expect(n).toBe(total);
      expect(readStats.indexCounts).toBe(walks + 2); // one walk per value, each kept
      expect(await coll(2).countDocuments({ phase: 'even' })).toBe(await slowCount({ phase: 'even' }));
      expect(await coll(2).countDocuments({ phase: 'odd' })).toBe(await slowCount({ phase: 'odd' }));
      expect(readStats.indexCounts).toBe(walks + 2);
      // Up to twelve updates of 6,000 documents with index changes: 30-45 s on a 2-core machine with nothing else
      // running, more beside the rest of the suite. The budget is for the work, not a measure of its speed.
    }, 120_000);
  });

  describe('from storage', () => {
    const store = scratchStore();
    const env = store.catalog.env;
    afterAll(() => store.close());
    const c = store.collection('articles');
    store.write(() => {
      c.addIndex({ v: 2, key: { status: 1 }, name: 'status' });
      for (let i = 0; i < 6000; i++) c.insert(encode(article(i)), article(i));
    });
    const idx = c.indexes.get('status')!;
    const published = prefixKey(['published']);
    let next = 10_000;
    const insert = (status: string): Promise<void> =>
      env.writeAsync(() => {
        const d = { ...article(next++), status };
        c.insert(encode(d), d);
      });
    const truth = (status: string): number => [...matches(c, { status })].length;

    it('counts changes whose transaction ran before the walk began but committed after its snapshot', async () => {
      // The walk starts as soon as the transaction has run, before lmdb's write thread can commit it.
      let walking!: Promise<void>;
      const committed = env.writeAsync(
        () => {
          for (let i = 0; i < 10; i++) {
            const d = { ...article(next++), status: 'published' };
            c.insert(encode(d), d);
          }
        },
        () => {
          walking = idx.walkCount(published);
        },
      );
      await committed;
      await walking;
      expect(idx.kept(published)).toBe(truth('published'));
      expect(idx.kept(published)).toBe(4500 + 10);
    });

    it('folds in the changes committed while it walks, and those after', async () => {
      const draft = prefixKey(['draft']);
      const walking = idx.walkCount(draft);
      for (let i = 0; i < 20; i++) await insert(i % 2 ? 'draft' : 'published');
      await walking;
      expect(idx.kept(draft)).toBe(1500 + 10);
      await insert('draft');
      expect(idx.kept(draft)).toBe(1500 + 11);
      expect(idx.kept(draft)).toBe(truth('draft'));
    });

    it('is not kept when the index is dropped while it walks', async () => {
      const other = store.collection('other');
      store.write(() => {
        other.addIndex({ v: 2, key: { status: 1 }, name: 'status' });
        for (let i = 0; i < 3000; i++) other.insert(encode(article(i)), article(i));
      });
      const o = other.indexes.get('status')!;
      const walking = o.walkCount(published);
      await env.writeAsync(() => other.dropIndex('status'));
      await walking;
      expect(o.kept(published)).toBeUndefined();
    });
  });

  describe('behind large write transactions', () => {
    // On a data directory (commits flushed, as the engine serves), where lmdb runs the next transaction while
    // the one before is committing.
    const dir = mkdtempSync(join(tmpdir(), 'count-walk-'));
    const env = StorageEnv.open({ dir });
    const catalog = new Catalog(env);
    afterAll(async () => {
      await env.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const c = env.write(() => catalog.ensure('db', 'articles'));
    env.write(() => {
      c.addIndex({ v: 2, key: { status: 1 }, name: 'status' });
      for (let i = 0; i < 6000; i++) c.insert(encode(article(i)), article(i));
    });
    const idx = c.indexes.get('status')!;
    const truth = (status: string): number => [...matches(c, { status })].length;
    let next = 10_000;

    it('walks behind back-to-back transactions each changing thousands of entries, and stays exact', async () => {
      // Each transaction inserts 5,000 documents (more entries than an index journals per transaction) and, once
      // it has run, queues the next, which lmdb runs while the one before commits: one of them is always waiting
      // for its commit. The walks begin behind the first. A walk that waited for the newest such transaction
      // to commit would always find the next one waiting: it must take its snapshot once the first has committed.
      // The eight commits write about 160 MB to a flushed data directory: seconds alone, over half a minute when
      // another test writes to the same disk, hence the time allowed (as for the updates above).
      const bulk = prefixKey(['bulk']);
      const published = prefixKey(['published']);
      const per = 5000;
      const rounds = 8;
      // Documents of a few kilobytes: each commit writes tens of megabytes, so it is still under way when the
      // transaction before it is reported committed.
      const pad = 'x'.repeat(4000);
      let walking: Promise<void> | undefined;
      const transactions: Array<Promise<void>> = [];
      const big = (k: number): Promise<void> =>
        env.writeAsync(
          () => {
            for (let i = 0; i < per; i++) {
              const d = { ...article(next++), status: i % 2 ? 'bulk' : 'published', body: pad };
              c.insert(encode(d), d);
            }
          },
          () => {
            if (k === 0) walking = Promise.all([idx.walkCount(bulk), idx.walkCount(published)]).then(() => undefined);
            if (k + 1 < rounds) setImmediate(() => transactions.push(big(k + 1)));
          },
        );
      const publishedBefore = truth('published');
      const walks = readStats.indexCounts;
      transactions.push(big(0));
      while (walking === undefined) await new Promise((resolve) => setImmediate(resolve));
      await walking;
      // Kept (not given up on): one walk each.
      expect(idx.kept(bulk)).toBeDefined();
      expect(idx.kept(published)).toBeDefined();
      expect(readStats.indexCounts).toBe(walks + 2);
      while (transactions.length < rounds) await new Promise((resolve) => setImmediate(resolve));
      await Promise.all(transactions);
      // Exact once every transaction has committed.
      expect(idx.kept(bulk)).toBe((rounds * per) / 2);
      expect(idx.kept(bulk)).toBe(truth('bulk'));
      expect(idx.kept(published)).toBe(publishedBefore + (rounds * per) / 2);
      expect(idx.kept(published)).toBe(truth('published'));
      expect(readStats.indexCounts).toBe(walks + 2);
    }, 120_000);
  });
}

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();
