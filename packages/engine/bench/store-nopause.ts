// No-pause benchmark (not a test): `npm run bench:store-nopause [-- --base 100000 --insert 100000 --batch 1000
// --writers 3 --readers 4 --idle-seconds 10 --engine <cli.js>]`. Starts the engine (`cli.js`, this build's by
// default) as its own process on a temporary data directory on disk (real durability), loads `base` articles,
// then measures reads through the driver — by `_id`, the newest 20 of a tag (an index walk) and a tag's count
// — first alone for `idle-seconds`, then while `insert` more articles arrive through the driver as a client
// sends them (insertMany batches of `batch`, `writers` batches in flight, unordered, as the seed does), from a
// second process, so building and encoding the batches does not stall the readers' own event loop.
// Prints read latency percentiles for both phases, the insert rate and the engine's CPU and memory.
// The target: reads keep p99 <= 50 ms while the articles are inserted (a seed or an import must not stall readers).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cpuMs, rssMb, startEngineProcess, words } from './common.js';
import { MongoClient, ObjectId, type Collection } from 'mongodb';

const here = dirname(fileURLToPath(import.meta.url));
const ownCli = join(here, '..', 'src', 'cli.js');

const TAGS = Array.from({ length: 50 }, (_, i) => `tag${i}`);

interface Article {
  _id: ObjectId;
  slug: string;
  title: string;
  body: string;
  tags: string[];
  status: string;
  createdAt: Date;
  author: { name: string; bio: string };
}

function article(i: number): Article {
  return {
    _id: new ObjectId(),
    slug: `article-${i}`,
    title: words(8, i),
    body: words(250, i),
    tags: [TAGS[i % TAGS.length]!, TAGS[(i * 7) % TAGS.length]!],
    status: i % 10 === 0 ? 'draft' : 'published',
    createdAt: new Date(1_600_000_000_000 + i * 60_000),
    author: { name: `Author ${i % 500}`, bio: words(20, i) },
  };
}

function startEngine(cli: string, dir: string): Promise<{ proc: ChildProcess; uri: string }> {
  return startEngineProcess(cli, ['--dbpath', dir]);
}

/** Inserts articles from..to-1 in batches, `writers` batches in flight; returns the ids. */
async function insert(
  coll: Collection<Article>,
  from: number,
  to: number,
  batch: number,
  writers: number,
  ids: ObjectId[],
): Promise<void> {
  let next = from;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < to) {
        const start = next;
        next = Math.min(to, start + batch);
        const docs = Array.from({ length: next - start }, (_, j) => article(start + j));
        await coll.insertMany(docs, { ordered: false });
        for (const d of docs) ids.push(d._id);
      }
    }),
  );
}

interface Latencies {
  byId: number[];
  newest: number[];
  count: number[];
}

/** Readers loop until `stop()` is true, each request's latency in ms recorded per kind. */
async function read(
  coll: Collection<Article>,
  ids: ObjectId[],
  readers: number,
  stop: () => boolean,
): Promise<Latencies> {
  const lat: Latencies = { byId: [], newest: [], count: [] };
  let turn = 0;
  await Promise.all(
    Array.from({ length: readers }, async () => {
      while (!stop()) {
        const kind = (['byId', 'newest', 'count'] as const)[turn++ % 3]!;
        const tag = TAGS[Math.floor(Math.random() * TAGS.length)]!;
        const t0 = performance.now();
        if (kind === 'byId') {
          const d = await coll.findOne({ _id: ids[Math.floor(Math.random() * ids.length)]! });
          if (!d) throw new Error('missing document');
        } else if (kind === 'newest')
          await coll.find({ tags: tag, status: 'published' }).sort({ createdAt: -1 }).limit(20).toArray();
        else await coll.countDocuments({ tags: tag, status: 'published' });
        lat[kind].push(performance.now() - t0);
      }
    }),
  );
  return lat;
}

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function row(name: string, xs: number[]): string {
  const f = (n: number): string => n.toFixed(1).padStart(8);
  return `${name.padEnd(28)}${String(xs.length).padStart(8)}${f(pct(xs, 50))}${f(pct(xs, 90))}${f(pct(xs, 99))}${f(Math.max(...xs))}`;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      base: { type: 'string', default: '100000' },
      insert: { type: 'string', default: '100000' },
      batch: { type: 'string', default: '1000' },
      writers: { type: 'string', default: '3' },
      readers: { type: 'string', default: '4' },
      'idle-seconds': { type: 'string', default: '10' },
      engine: { type: 'string', default: ownCli },
      // Internal: the writer process (inserts articles from..from+insert-1 into the engine at `uri`).
      'writer-uri': { type: 'string' },
      from: { type: 'string', default: '0' },
    },
  });
  if (values['writer-uri']) {
    const client = new MongoClient(values['writer-uri'], { maxPoolSize: Number(values.writers) + 1 });
    await client.connect();
    const from = Number(values.from);
    await insert(
      client.db('bench').collection<Article>('articles'),
      from,
      from + Number(values.insert),
      Number(values.batch),
      Number(values.writers),
      [],
    );
    await client.close();
    return;
  }
  const [base, inserted, batch, writers, readers] = ['base', 'insert', 'batch', 'writers', 'readers'].map((k) =>
    Number(values[k as 'base']),
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-nopause-'));
  const engine = await startEngine(values.engine!, dir);
  const client = new MongoClient(engine.uri, { maxPoolSize: readers + writers + 2 });
  try {
    await client.connect();
    const coll = client.db('bench').collection<Article>('articles');
    await coll.createIndexes([
      { key: { slug: 1 }, unique: true },
      { key: { status: 1, createdAt: -1 } },
      { key: { tags: 1, status: 1, createdAt: -1 } },
    ]);
    const ids: ObjectId[] = [];
    process.stderr.write(`loading ${base} articles...\n`);
    const load0 = performance.now();
    await insert(coll, 0, base, batch, writers, ids);
    const loadSeconds = (performance.now() - load0) / 1000;
    const pid = engine.proc.pid!;

    process.stderr.write(`reads alone for ${values['idle-seconds']} s...\n`);
    const idleEnd = Date.now() + Number(values['idle-seconds']) * 1000;
    const cpu0 = cpuMs(pid);
    const idle = await read(coll, ids, readers, () => Date.now() > idleEnd);
    const idleCpu = cpuMs(pid) - cpu0;

    process.stderr.write(`reads while ${inserted} articles are inserted...\n`);
    let writing = true;
    const t0 = performance.now();
    const cpu1 = cpuMs(pid);
    const writer = spawn(
      process.execPath,
      [
        fileURLToPath(import.meta.url),
        '--writer-uri',
        engine.uri,
        '--from',
        String(base),
        '--insert',
        String(inserted),
        '--batch',
        String(batch),
        '--writers',
        String(writers),
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const written = new Promise<void>((resolve, reject) =>
      writer.once(
        'exit',
        (code) => ((writing = false), code === 0 ? resolve() : reject(new Error(`writer exited (${code})`))),
      ),
    );
    const [, busy] = await Promise.all([written, read(coll, ids, readers, () => !writing)]);
    const seconds = (performance.now() - t0) / 1000;
    const busyCpu = cpuMs(pid) - cpu1;
    const all = (l: Latencies): number[] => [...l.byId, ...l.newest, ...l.count];

    const head = `${'reads (ms)'.padEnd(28)}${'n'.padStart(8)}${'p50'.padStart(8)}${'p90'.padStart(8)}${'p99'.padStart(8)}${'max'.padStart(8)}`;
    process.stdout.write(
      [
        `engine ${values.engine}; ${base} articles loaded; ${readers} readers; inserts: ${inserted} in batches of ${batch}, ${writers} in flight`,
        head,
        row('alone: all', all(idle)),
        row('while inserting: all', all(busy)),
        row('  find by _id', busy.byId),
        row('  newest 20 of a tag', busy.newest),
        row('  count of a tag', busy.count),
        `insert: ${inserted} articles in ${seconds.toFixed(1)} s (${Math.round(inserted / seconds)} /s); engine CPU ${(busyCpu / 1000).toFixed(1)} s while inserting, ${(idleCpu / 1000).toFixed(1)} s alone; RssAnon ${rssMb(pid, 'RssAnon')} MiB`,
        `load (no readers, same process): ${base} articles in ${loadSeconds.toFixed(1)} s (${Math.round(base / loadSeconds)} /s)`,
        `target (p99 of reads while inserting <= 50 ms): ${pct(all(busy), 99) <= 50 ? 'met' : 'NOT met'}`,
        '',
      ].join('\n'),
    );
  } finally {
    await client.close();
    engine.proc.kill('SIGTERM');
    await new Promise((r) => engine.proc.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
