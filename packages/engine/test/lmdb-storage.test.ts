// The engine's LMDB storage seen from outside: the oplog table and its API (records per change, monotonic
// ts across restarts, retention, listeners after commit), the clear refusal of a data directory in the
// former format, and the one-shot migration from it (`cli.js --migrate <dir>`). Engine internals, so only
// registered against the embedded engine (MONGODB_URI unset).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serialize, type Document } from 'bson';
import { MongoClient } from 'mongodb';
import { startEngine, type ChangeRecord, type RunningEngine } from '../src/index.js';
import { decode } from '../src/storage/bsonio.js';
import { encodeEntry, END_KIND, EntryKind, frameRecord, HEADER_KIND } from '../src/persist/records.js';
import { runEngineCli } from './helpers/engine-cli.js';

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

async function withClient<T>(engine: RunningEngine, fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.close(true);
  }
}

function defineTests(): void {
  const dirs: string[] = [];
  const fresh = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'engine-lmdb-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  describe('oplog', () => {
    it('records every change with an engine-wide ts, post-images, and tells listeners after commit', async () => {
      const dir = fresh();
      const engine = await startEngine({ port: 0, dbPath: dir });
      const heard: ChangeRecord[][] = [];
      const off = engine.changes.onChanges((recs) => heard.push([...recs]));
      try {
        await withClient(engine, async (client) => {
          const c = client.db('news').collection('articles');
          await c.insertMany([
            { _id: 1 as never, title: 'a' },
            { _id: 2 as never, title: 'b' },
          ]);
          await c.updateOne({ _id: 1 as never }, { $set: { title: 'a2' } });
          await c.deleteOne({ _id: 2 as never });
          await c.updateOne({ _id: 99 as never }, { $set: { title: 'none' } }); // matches nothing: no record
        });
        const all = engine.changes.readChanges(0, 100);
        const docs = all.filter((r) => r.ns === 'news.articles');
        expect(docs.map((r) => [r.op, r.documentKey?._id])).toEqual([
          ['i', 1],
          ['i', 2],
          ['u', 1],
          ['d', 2],
        ]);
        expect(decode(docs[2]!.doc!)).toEqual({ _id: 1, title: 'a2' });
        expect(docs[3]!.doc).toBeUndefined();
        // The implicit creation is a 'c' record before the inserts.
        expect(all[0]).toMatchObject({ op: 'c', ns: 'news.$cmd', o: { create: 'articles' } });
        const ts = all.map((r) => r.ts);
        expect(ts).toEqual(ts.map((_, i) => ts[0]! + i)); // contiguous and increasing
        expect(engine.changes.oldestChangeTs()).toBe(ts[0]);
        expect(engine.changes.latestChangeTs()).toBe(ts[ts.length - 1]);
        // Listeners got exactly the same records, one call per committed write command.
        expect(heard.flat().map((r) => r.ts)).toEqual(ts);
        expect(heard.map((h) => h.length)).toEqual([3, 1, 1]);
        expect(engine.changes.readChanges(ts[2]!, 2).map((r) => r.ts)).toEqual([ts[2], ts[3]]);
      } finally {
        off();
        await engine.close();
      }
      // ts keeps growing after a restart.
      const again = await startEngine({ port: 0, dbPath: dir });
      try {
        const before = again.changes.latestChangeTs();
        await withClient(again, (client) =>
          client
            .db('news')
            .collection('articles')
            .insertOne({ _id: 3 as never }),
        );
        const [rec] = again.changes.readChanges(before + 1, 10);
        expect(rec).toMatchObject({ ts: before + 1, op: 'i', documentKey: { _id: 3 } });
      } finally {
        await again.close();
      }
    });

    it('keeps the newest maxChanges records', async () => {
      const engine = await startEngine({ port: 0, maxChanges: 10 });
      try {
        await withClient(engine, async (client) => {
          const c = client.db('r').collection('c');
          for (let i = 0; i < 5; i++) await c.insertMany(Array.from({ length: 7 }, (_, j) => ({ i, j })));
        });
        const latest = engine.changes.latestChangeTs();
        expect(latest).toBe(36); // create + 35 inserts
        expect(engine.changes.oldestChangeTs()).toBe(27);
        expect(engine.changes.readChanges(0, 100).map((r) => r.ts)).toEqual(
          Array.from({ length: 10 }, (_, i) => 27 + i),
        );
      } finally {
        await engine.close();
      }
    });
  });

  describe('a data directory in the former format', () => {
    /** What the former engine wrote: a snapshot (header, collection, unique index, documents, end marker)
     *  and a later log generation with more writes and a torn final record. */
    function legacyDir(): string {
      const dir = fresh();
      const put = (doc: Document): Buffer => encodeEntry(EntryKind.Put, 'shop', 'items', serialize(doc));
      const snapshot = [
        frameRecord([
          encodeEntry(HEADER_KIND, '', '', serialize({ format: 'embedded-snapshot', version: 1, logGen: 2 })),
        ]),
        frameRecord([
          encodeEntry(EntryKind.CreateCollection, 'shop', 'items', serialize({ options: {} })),
          encodeEntry(
            EntryKind.CreateIndex,
            'shop',
            'items',
            serialize({ spec: { v: 2, key: { sku: 1 }, name: 'sku_1', unique: true } }),
          ),
          ...Array.from({ length: 50 }, (_, i) => put({ _id: i, sku: `s${i}`, n: i })),
        ]),
        frameRecord([encodeEntry(END_KIND, '', '', serialize({ end: true, count: 50 }))]),
      ];
      writeFileSync(join(dir, 'snapshot.bin'), Buffer.concat(snapshot));
      const log = Buffer.concat([
        frameRecord([put({ _id: 7, sku: 's7', n: 700 })]),
        frameRecord([encodeEntry(EntryKind.Delete, 'shop', 'items', serialize({ _id: 8 }))]),
        frameRecord([put({ _id: 100, sku: 'torn' })]).subarray(0, 12), // torn by a crash: ignored
      ]);
      writeFileSync(join(dir, 'oplog.00000002.log'), log);
      writeFileSync(join(dir, 'oplog.00000001.log'), frameRecord([put({ _id: 999, sku: 'covered by the snapshot' })]));
      return dir;
    }

    it('is refused with a message naming the migration command', async () => {
      const dir = legacyDir();
      await expect(startEngine({ port: 0, dbPath: dir })).rejects.toThrow(`npm run engine -- --migrate ${dir}`);
      const res = await runEngineCli(['--port', '0', '--dbpath', dir]);
      expect(res.code).toBe(1);
      expect(res.err).toContain('--migrate');
    });

    it('is converted once by --migrate, keeping documents, indexes and unique constraints', async () => {
      const dir = legacyDir();
      const res = await runEngineCli(['--migrate', dir]);
      expect(res).toMatchObject({ code: 0 });
      expect(res.out).toContain('1 collections, 49 documents');
      expect(existsSync(join(dir, 'pre-lmdb', 'snapshot.bin'))).toBe(true);
      expect(existsSync(join(dir, 'snapshot.bin'))).toBe(false);
      const engine = await startEngine({ port: 0, dbPath: dir });
      try {
        await withClient(engine, async (client) => {
          const c = client.db('shop').collection('items');
          expect(await c.countDocuments()).toBe(49);
          expect(await c.findOne({ _id: 7 as never })).toEqual({ _id: 7, sku: 's7', n: 700 });
          expect(await c.findOne({ _id: 8 as never })).toBeNull();
          expect(await c.findOne({ _id: 999 as never })).toBeNull();
          expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'sku_1']);
          await expect(c.insertOne({ sku: 's3' })).rejects.toMatchObject({ code: 11000 });
          expect(
            (await c.find({ sku: { $gte: 's47', $lt: 's5' } }, { sort: { sku: -1 } }).toArray()).map((d) => d._id),
          ).toEqual([49, 48, 47]);
        });
      } finally {
        await engine.close();
      }
      // A second run has nothing to do and says so.
      const again = await runEngineCli(['--migrate', dir]);
      expect(again.code).toBe(1);
      expect(again.err).toContain('already holds LMDB data');
    });
  });
}
