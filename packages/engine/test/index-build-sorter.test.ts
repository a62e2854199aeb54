// The external sorter of index builds, and builds that go through it in runs. The sorter gives back every entry
// in LMDB's order (bytes, not JavaScript's UTF-16 order) whether they fit in one run or spill to many, and
// leaves no file behind. A build on the engine as it runs in production (the built command, where the sorting
// runs on a thread of its own), with runs of 64 KB so that a few thousand documents make many: writes made
// during each of its phases are in the finished index exactly as in an index the writes kept from the start,
// and currentOp names the phases as mongod does.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { ExternalSorter } from '../src/storage/sorter.js';
import { startEngineCli } from './helpers/engine-cli.js';

/** A deterministic generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Characters whose UTF-16 order differs from their UTF-8 order (U+FF5E sorts after U+1F600 in UTF-16 only),
// bytes above 0x7f, and the separator the index keys use.
const ALPHABET = ['a', 'b', 'z', '\0', 'é', 'ß', '\uff5e', '😀', '中', '~'];

function word(next: () => number): string {
  let s = '';
  const n = 1 + Math.floor(next() * 12);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
  return s;
}

async function drain(sorter: ExternalSorter): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (;;) {
    const k = sorter.take();
    if (k === null) return out;
    if (k === undefined) await sorter.whenReady();
    else out.push(Buffer.from(k));
  }
}

describe('the external sorter', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-sorter-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['a few, in memory', 1 << 20, 2000],
    ['one run, written to a file at the end', 1 << 20, 20_000],
    ['in runs spilled to files', 64 << 10, 20_000],
  ])('gives back every entry in byte order: %s', async (_, runBytes, n) => {
    const next = random(n);
    const prefix = Buffer.from([0, 0, 0, 9]);
    const sorter = new ExternalSorter(join(dir, `s-${n}-${runBytes}`), runBytes);
    const want: Buffer[] = [];
    for (let i = 0; i < n; i++) {
      const [a, b] = [word(next), String(Math.floor(next() * 1e6))];
      sorter.add(prefix, a, b);
      want.push(Buffer.concat([prefix, Buffer.from(a + b, 'utf8')]));
    }
    sorter.end();
    const runDir = join(dir, `s-${n}-${runBytes}`);
    if (n > 2000) expect(readdirSync(runDir).length).toBe(runBytes < 1 << 20 ? 8 : 1);
    const got = await drain(sorter);
    // The runs are deleted as soon as they are merged.
    expect(existsSync(runDir)).toBe(false);
    want.sort(Buffer.compare);
    expect(got.length).toBe(n);
    expect(got.map((b) => b.toString('hex'))).toEqual(want.map((b) => b.toString('hex')));
    await sorter.close();
  });
});

const register = process.env.MONGODB_URI ? () => undefined : () => defineBuildTests();
register();

interface Article {
  _id: number;
  title: string;
  summary: string;
}

const DOCS = 4000;
const article = (i: number): Article => ({
  _id: i,
  title: `article ${i} about harbours and lighthouses, keeper ${i % 97}`,
  summary: `the series ${i % 13}: storms, ships, the coast guard and the tide ${i}`,
});

function defineBuildTests(): void {
  describe('a build sorted in runs on the sorting thread', () => {
    let dir: string;
    let child: { proc: ChildProcess; uri: string };
    let client: MongoClient;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'engine-sorted-build-'));
      child = await startEngineCli(dir, ['--setParameter', 'maxIndexBuildMemoryUsageMegabytes=0.25']);
      client = await MongoClient.connect(child.uri);
    });
    afterAll(async () => {
      await client?.close();
      child?.proc.kill('SIGTERM');
      await new Promise((resolve) => child?.proc.once('close', resolve));
      rmSync(dir, { recursive: true, force: true });
    });

    it('keeps the writes of every phase, as an index kept from the start does', async () => {
      const db = client.db('sorted');
      const built = db.collection<Article>('built');
      const kept = db.collection<Article>('kept');
      await kept.createIndex({ title: 'text', summary: 'text' }, { name: 'text' });
      const docs = Array.from({ length: DOCS }, (_, i) => article(i));
      await built.insertMany(docs);
      await kept.insertMany(docs);

      let ended = false;
      const creating = built
        .createIndex({ title: 'text', summary: 'text' }, { name: 'text' })
        .finally(() => (ended = true));
      // The same writes to both collections, one after the other, until the build has ended: updates and deletes
      // of documents before and after the scan's position, inserts on either side of it, all the while.
      const phases = new Set<string>();
      const next = random(7);
      let n = 0;
      while (!ended || n < 50) {
        const op = await client.db('admin').command({ currentOp: 1, ns: built.namespace });
        for (const o of op.inprog as Document[])
          phases.add(/^Index Build: ([a-z ]+) Index Build/.exec(String(o.msg))?.[1] ?? '');
        const id = Math.floor(next() * DOCS);
        const write = async (c: Collection<Article>): Promise<void> => {
          if (n % 4 === 0) await c.updateOne({ _id: id }, { $set: { title: `zeppelin ${n} over lighthouse ${id}` } });
          else if (n % 4 === 1) await c.deleteOne({ _id: id });
          else if (n % 4 === 2) await c.insertOne({ _id: (n % 8 === 2 ? -1 : 1) * (DOCS + n), ...zeppelin(n) });
          else await c.updateOne({ _id: id }, { $set: { summary: `airship ${n} and the tide` } });
        };
        await write(built);
        await write(kept);
        n++;
      }
      await expect(creating).resolves.toBe('text');
      expect(phases).toContain('scanning collection');

      for (const q of ['lighthouses', 'zeppelin', 'airship', 'keeper', 'tide', 'storms -zeppelin', '"coast guard"']) {
        const ids = async (c: Collection<Article>): Promise<number[]> =>
          (await c.find({ $text: { $search: q } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id).sort();
        const want = await ids(kept);
        expect(want.length).toBeGreaterThan(0);
        expect(await ids(built)).toEqual(want);
      }
      // No file of the sorter is left.
      expect(readdirSync(join(dir, '_tmp'))).toEqual([]);
    }, 120_000);
  });

  it('started over after the engine was killed during its load: the entries loaded before are replaced, not kept twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-sorted-restart-'));
    const args = ['--setParameter', 'maxIndexBuildMemoryUsageMegabytes=0.25'];
    try {
      let child = await startEngineCli(dir, args);
      let client = await MongoClient.connect(child.uri);
      const c = (): Collection<Article> => client.db('sorted').collection<Article>('restart');
      const docs = Array.from({ length: 3 * DOCS }, (_, i) => article(i));
      for (let i = 0; i < docs.length; i += 1000) await c().insertMany(docs.slice(i, i + 1000));
      void c()
        .createIndex({ title: 'text', summary: 'text' }, { name: 'text' })
        .catch(() => undefined);
      // Killed once the sorted entries are in the index past the term "article" (numbers sort first, then it).
      let loading = false;
      while (!loading) {
        const op = await client.db('admin').command({ currentOp: 1, ns: c().namespace });
        const [build] = op.inprog as Document[];
        if (!build) throw new Error('the build ended before its load was seen');
        loading = /inserting keys/.test(String(build.msg)) && build.progress.done >= 0.4 * build.progress.total;
      }
      child.proc.kill('SIGKILL');
      await new Promise((resolve) => child.proc.once('close', resolve));
      await client.close(true);

      child = await startEngineCli(dir, args);
      client = await MongoClient.connect(child.uri);
      try {
        // Meanwhile, writes on either side of the new scan.
        await c().deleteOne({ _id: 5 });
        await c().updateOne({ _id: 3 * DOCS - 1 }, { $set: { title: 'a zeppelin' } });
        while (((await client.db('admin').command({ currentOp: 1, ns: c().namespace })).inprog as Document[]).length)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await c().listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'text']);
        expect(await c().countDocuments({ $text: { $search: 'lighthouses' } })).toBe(3 * DOCS - 2);
        expect(await c().countDocuments({ $text: { $search: 'zeppelin' } })).toBe(1);
        // "article" left the updated title: its entry from the first start is gone with the others.
        expect(await c().countDocuments({ $text: { $search: 'article' } })).toBe(3 * DOCS - 2);
        // Each document found once by a word of every document: no entry of the first start is left beside the new.
        const found = await c()
          .find({ $text: { $search: 'storms' } }, { projection: { _id: 1 } })
          .toArray();
        expect(found.length).toBe(3 * DOCS - 1);
        expect(new Set(found.map((d) => d._id)).size).toBe(found.length);
      } finally {
        await client.close();
        child.proc.kill('SIGTERM');
        await new Promise((resolve) => child.proc.once('close', resolve));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
}

const zeppelin = (n: number): Omit<Article, '_id'> => ({ title: `zeppelin ${n}`, summary: `airship lighthouses ${n}` });
