// A data directory in the previous LMDB layout (format 2: documents under (collection id, insertion slot), index
// entries pointing at slots) is refused at start with the command that converts it, and `cli.js --migrate <dir>`
// moves it to the current layout (documents under their `_id`): every document, every index entry (each index
// answers for every document), unique constraints, a capped collection's insertion order, the collections'
// uuids and the change history all survive. The previous layout is written here from a current environment by
// re-keying it the way format 2 stored it. Engine internals, so only registered against the embedded engine.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId, type Document } from 'bson';
import { MongoClient } from 'mongodb';
import { startEngine, type ChangeRecord } from '../src/index.js';
import { encode } from '../src/storage/bsonio.js';
import { Catalog } from '../src/storage/catalog.js';
import { StorageEnv } from '../src/storage/env.js';
import { keyRange, prefixEnd, u32 } from '../src/storage/key-ranges.js';
import { slotSuffix } from '../src/storage/order.js';
import { runEngineCli } from './helpers/engine-cli.js';

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

/** Articles with `_id`s of several types, inserted out of `_id` order. */
function articles(): Document[] {
  const out: Document[] = [];
  for (let i = 0; i < 1500; i++) {
    const _id = i % 3 === 0 ? `z${String(1500 - i).padStart(5, '0')}` : i % 3 === 1 ? 100_000 - i : new ObjectId();
    out.push({ _id, slug: `s${i}`, page: `p${i % 7}`, tags: [`t${i % 5}`, `t${(i + 1) % 5}`], n: i });
  }
  return out;
}

interface Former {
  dir: string;
  docs: Document[];
  capped: Document[];
  uuid: string;
  history: ChangeRecord[];
}

/** A format-2 data directory: built in the current layout, then re-keyed as format 2 stored it. */
async function formerDir(): Promise<Former> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-format2-'));
  const env = StorageEnv.open({ dir });
  const catalog = new Catalog(env);
  const docs = articles();
  const capped = Array.from({ length: 40 }, (_, i) => ({ _id: 40 - i, line: `l${i}` }));
  env.write(() => {
    const c = catalog.ensure('news', 'articles');
    c.addIndex({ v: 2, key: { slug: 1 }, name: 'slug_1', unique: true });
    c.addIndex({ v: 2, key: { page: 1, n: -1 }, name: 'page_1_n_-1' });
    c.addIndex({ v: 2, key: { tags: 1 }, name: 'tags_1' });
    for (const d of docs) c.insert(encode(d), d);
    const log = catalog.ensure('news', 'log', { capped: true, size: 100_000 });
    for (const d of capped) log.insert(encode(d), d);
  });
  const history = catalog.oplog.readChanges(0, 10_000);
  env.write(() => {
    for (const [coll, inserted] of [
      [catalog.get('news', 'articles')!, docs],
      [catalog.get('news', 'log')!, capped],
    ] as const) {
      // Drop the current layout's documents and index entries, then store them as format 2 did.
      const start = u32(coll.id);
      for (const k of [...keyRange(env.docs, start, prefixEnd(start))]) env.docs.removeSync(k);
      for (const idx of coll.indexes.values()) {
        const prefix = u32(idx.id);
        for (const k of [...keyRange(env.keys, prefix, prefixEnd(prefix))]) env.keys.removeSync(k);
      }
      inserted.forEach((d, i) => {
        const slot = i + 1;
        const key = Buffer.alloc(10);
        key.writeUInt32BE(coll.id, 0);
        key.writeUIntBE(slot, 4, 6);
        env.docs.putSync(key, encode(d));
        for (const idx of coll.indexes.values()) {
          const prefix = u32(idx.id);
          for (const e of idx.keys(d).entries) {
            // Unique: components -> slot (u48 BE); otherwise components | slot (12 hex digits) -> empty.
            if (idx.unique)
              env.keys.putSync(Buffer.concat([prefix, Buffer.from(e.key)]), Buffer.from(slotSuffix(slot), 'hex'));
            else env.keys.putSync(Buffer.concat([prefix, Buffer.from(e.key + slotSuffix(slot))]), Buffer.alloc(0));
          }
        }
      });
      const { clustered: _, ...meta } = coll.meta;
      env.meta.putSync(
        `catalog:${String(coll.id).padStart(10, '0')}`,
        encode({ ...meta, nextSlot: inserted.length + 1 }),
      );
    }
    env.meta.putSync('format', encode({ version: 2 }));
  });
  const uuid = catalog.get('news', 'articles')!.uuid.toString('hex');
  await env.close();
  return { dir, docs, capped, uuid, history };
}

/** A format-2 directory holding keys format 2 accepted but the current layout does not: a 1,100-byte string
 *  `_id` (a clustered `_id` is at most 1,024 bytes) and a 1,957-byte secondary key beside an ObjectId `_id`. */
async function tooLongDir(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'engine-format2-long-'));
  const env = StorageEnv.open({ dir });
  const catalog = new Catalog(env);
  const longTitle = new ObjectId();
  const docs = [
    { _id: 'k'.repeat(1100), title: 'a' },
    { _id: 2, title: 'short' },
    { _id: longTitle, title: 't'.repeat(1955) },
  ];
  env.write(() => catalog.ensure('news', 'articles').addIndex({ v: 2, key: { title: 1 }, name: 'title_1' }));
  const coll = catalog.get('news', 'articles')!;
  env.write(() => {
    docs.forEach((d, i) => {
      const key = Buffer.alloc(10);
      key.writeUInt32BE(coll.id, 0);
      key.writeUIntBE(i + 1, 4, 6);
      env.docs.putSync(key, encode(d));
    });
    const { clustered: _, ...meta } = coll.meta;
    env.meta.putSync(
      `catalog:${String(coll.id).padStart(10, '0')}`,
      encode({ ...meta, count: docs.length, nextSlot: docs.length + 1 }),
    );
    env.meta.putSync('format', encode({ version: 2 }));
  });
  await env.close();
  return dir;
}

function defineTests(): void {
  let former: Former;
  beforeAll(async () => {
    former = await formerDir();
  });
  afterAll(() => rmSync(former.dir, { recursive: true, force: true }));

  it('is refused at start with a message naming the migration command', async () => {
    await expect(startEngine({ port: 0, dbPath: former.dir })).rejects.toThrow(
      `npm run engine -- --migrate ${former.dir}`,
    );
    // The refused start released the directory: a second attempt says the same, not "in use".
    await expect(startEngine({ port: 0, dbPath: former.dir })).rejects.toThrow('format 2');
    const res = await runEngineCli(['--port', '0', '--dbpath', former.dir]);
    expect(res.code).toBe(1);
    expect(res.err).toContain('--migrate');
  });

  it('is not migrated while it holds keys longer than the current layout stores: every such document is named, the directory left as it was', async () => {
    const dir = await tooLongDir();
    try {
      const res = await runEngineCli(['--migrate', dir]);
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/^migration failed: 2 document\(s\) have/);
      expect(res.err).toContain('2 document(s) have a key longer than this version of the engine stores');
      expect(res.err).toContain(`news.articles _id "${'k'.repeat(76)}...`);
      expect(res.err).toContain('index: _id_ (1102 bytes, at most 1024)');
      expect(res.err).toContain('index: title_1 (1957 bytes');
      expect(existsSync(join(dir, 'pre-format3'))).toBe(false);
      expect(existsSync(join(dir, '.migrating'))).toBe(false);
      await expect(startEngine({ port: 0, dbPath: dir })).rejects.toThrow(/--migrate/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is moved to the current layout by --migrate, with every document, index entry and change kept', async () => {
    const res = await runEngineCli(['--migrate', former.dir]);
    expect(res).toMatchObject({ code: 0 });
    expect(res.out).toContain('2 collections, 1540 documents');
    expect(existsSync(join(former.dir, 'pre-format3', 'engine.mdb'))).toBe(true);
    const engine = await startEngine({ port: 0, dbPath: former.dir });
    const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.connect();
      const db = client.db('news');
      const c = db.collection('articles');
      const { docs } = former;
      expect(await c.countDocuments()).toBe(docs.length);
      expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'slug_1', 'page_1_n_-1', 'tags_1']);
      const info = (await db.listCollections({ name: 'articles' }).toArray())[0] as unknown as {
        info: { uuid: { toString(enc: 'hex'): string } };
      };
      expect(info.info.uuid.toString('hex')).toBe(former.uuid);
      // Every document by _id (one get each now), and through every index, each index hinted so it must answer.
      const byId = await c.find({ _id: { $in: docs.map((d) => d._id) } }).toArray();
      expect(byId).toHaveLength(docs.length);
      for (const d of docs.slice(0, 60)) expect(await c.findOne({ _id: d._id })).toEqual(d);
      const bySlug = await c.find({ slug: { $in: docs.map((d) => d.slug as string) } }, { hint: 'slug_1' }).toArray();
      expect(bySlug).toHaveLength(docs.length);
      for (let p = 0; p < 7; p++) {
        const want = docs.filter((d) => d.page === `p${p}`).sort((a, b) => (b.n as number) - (a.n as number));
        const got = await c.find({ page: `p${p}` }, { sort: { n: -1 }, hint: 'page_1_n_-1' }).toArray();
        expect(got.map((d) => d.n)).toEqual(want.map((d) => d.n));
      }
      for (let t = 0; t < 5; t++) {
        const want = docs.filter((d) => (d.tags as string[]).includes(`t${t}`)).length;
        expect(await c.countDocuments({ tags: `t${t}` }, { hint: 'tags_1' })).toBe(want);
      }
      // Natural order is now _id order (numbers < strings < ObjectIds, in BSON order).
      const natural = (await c.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id);
      const numbers = docs.map((d) => d._id).filter((id): id is number => typeof id === 'number');
      expect(natural.slice(0, 500)).toEqual(numbers.sort((a, b) => a - b));
      expect(natural.slice(500, 1000)).toEqual(
        docs
          .map((d) => d._id)
          .filter((id) => typeof id === 'string')
          .sort(),
      );
      expect(natural.slice(1000).every((id) => (id as { _bsontype?: string })._bsontype === 'ObjectId')).toBe(true);
      // Unique constraints hold on the migrated entries.
      await expect(c.insertOne({ slug: 's10' })).rejects.toMatchObject({ code: 11000 });
      await expect(c.insertOne({ _id: docs[4]!._id, slug: 'fresh' })).rejects.toMatchObject({ code: 11000 });
      // The capped collection keeps its insertion order (not _id order) and drops its oldest first.
      const log = db.collection('log');
      expect((await log.find().toArray()).map((d) => d._id)).toEqual(former.capped.map((d) => d._id));
      // The change history is the former one, and continues from it.
      const kept = engine.changes.readChanges(0, 10_000);
      expect(kept.map((r) => [r.ts, r.ns, r.op])).toEqual(former.history.map((r) => [r.ts, r.ns, r.op]));
      await c.insertOne({ _id: 'after' as never, slug: 'after' });
      expect(engine.changes.latestChangeTs()).toBe(former.history[former.history.length - 1]!.ts + 1);
    } finally {
      await client.close(true);
      await engine.close();
    }
    const again = await runEngineCli(['--migrate', former.dir]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already holds LMDB data');
    // A process started, a migration and a few hundred queries: a minute and more on a loaded two-core machine.
  }, 120_000);
}
