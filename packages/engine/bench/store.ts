// Store benchmark (not a test): `npm run bench:store [-- --sizes 10000,1000000 --seconds 5 --concurrency 12]
// [--reference <another build's packages/engine/dist/src/cli.js>[,<another>...]] [--profile DIR]`. With --reference, every size
// is loaded into every engine (the references first, in the order given) and all of them are measured in the same
// alternating windows; the target and the ratios compare this build with the first reference.
// For each size, starts the embedded engine in its own child process (in-memory, so the benchmark's own
// memory does not pollute the measurement), loads ~2 KB article-like documents through the driver in
// batches of 1000, then measures find-by-_id and find with $in of 100 ids at N requests in flight, and the
// child's resident memory (VmRSS). Sizes are measured in alternating windows (see main). Prints the sizes
// side by side with the ratio.
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { procStat, rssMb, startEngineProcess, words, WORDS } from './common.js';
import { MongoClient, ObjectId, type Collection } from 'mongodb';

const here = dirname(fileURLToPath(import.meta.url));
const ownCli = join(here, '..', 'src', 'cli.js');

interface Article {
  _id: ObjectId;
  slug: string;
  title: string;
  summary: string;
  body: string;
  author: { name: string; email: string; bio: string };
  tags: string[];
  sections: Array<{ heading: string; words: number }>;
  stats: { views: number; likes: number; comments: number };
  published: boolean;
  createdAt: Date;
}

interface Result {
  label: string;
  size: number;
  anonAfterRunMb: number;
  loadSeconds: number;
  rssAfterLoadMb: number;
  rssAfterRunMb: number;
  byIdOps: number;
  inOps: number;
  byIdCpuUs: number;
  inCpuUs: number;
  byIdSysUs: number;
  byIdFaults: number;
}

function article(i: number): Article {
  return {
    _id: new ObjectId(),
    slug: `article-${i}`,
    title: words(8, i),
    summary: words(30, i + 1),
    body: words(230, i + 2),
    author: { name: `Author ${i % 500}`, email: `author${i % 500}@example.com`, bio: words(20, i + 3) },
    tags: [WORDS[i % WORDS.length]!, WORDS[(i * 7) % WORDS.length]!, 'news'],
    sections: Array.from({ length: 4 }, (_, s) => ({ heading: words(4, i + s), words: 100 + ((i + s) % 400) })),
    stats: { views: i * 13, likes: i % 1000, comments: i % 57 },
    published: i % 10 !== 0,
    createdAt: new Date(1_600_000_000_000 + i * 60_000),
  };
}

/** `--profile DIR`: this build's engine runs with V8's CPU profiler, its profile written to DIR when it exits. */
let profileDir: string | undefined;

function startEngine(cli: string): Promise<{ proc: ChildProcess; uri: string }> {
  const flags = profileDir && cli === ownCli ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  return startEngineProcess(cli, [], flags);
}

/** Runs `op` with `concurrency` requests in flight for `seconds`; returns completed ops per second. */
async function throughput(seconds: number, concurrency: number, op: () => Promise<unknown>): Promise<number> {
  const end = Date.now() + seconds * 1000;
  let done = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        await op();
        done++;
      }
    }),
  );
  return done / ((Date.now() - started) / 1000);
}

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

/** Loads `size` documents in batches of 1000, a few batches in flight so client and engine overlap. */
async function load(coll: Collection<Article>, size: number): Promise<ObjectId[]> {
  const ids: ObjectId[] = new Array<ObjectId>(size);
  const batch = 1000;
  let next = 0;
  let reported = 0;
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      while (next < size) {
        const start = next;
        next += batch;
        const docs = Array.from({ length: Math.min(batch, size - start) }, (_, j) => article(start + j));
        docs.forEach((d, j) => (ids[start + j] = d._id));
        await coll.insertMany(docs, { ordered: false });
        if (start + batch - reported >= 100_000) {
          reported = start + batch;
          process.stderr.write(`  loaded ~${reported}\n`);
        }
      }
    }),
  );
  return ids;
}

type Charged = [cpuMs: number, ops: number, sysMs: number, minorFaults: number];

interface Loaded {
  label: string;
  size: number;
  proc: ChildProcess;
  client: MongoClient;
  coll: Collection<Article>;
  ids: ObjectId[];
  loadSeconds: number;
  rssAfterLoadMb: number;
  byId: number[];
  inIds: number[];
  /** Engine CPU ms, operations completed, system-mode CPU ms and minor page faults, summed over all windows, per operation kind. */
  cpu: { byId: Charged; inIds: Charged };
}

async function loadSize(label: string, cli: string, size: number, concurrency: number): Promise<Loaded> {
  const engine = await startEngine(cli);
  const client = new MongoClient(engine.uri, { maxPoolSize: concurrency + 2 });
  await client.connect();
  const coll = client.db('bench').collection<Article>('articles');
  process.stderr.write(`${label} size ${size}: loading...\n`);
  const t0 = Date.now();
  const ids = await load(coll, size);
  const loadSeconds = (Date.now() - t0) / 1000;
  const sample = await coll.findOne({ _id: ids[0]! });
  const bytes = sample ? JSON.stringify(sample).length : 0;
  process.stderr.write(`size ${size}: loaded in ${loadSeconds.toFixed(1)}s (~${bytes} bytes/doc as JSON)\n`);
  const rssAfterLoadMb = rssMb(engine.proc.pid!);
  // Warm up connections and code paths before measuring.
  await throughput(1, concurrency, () => coll.findOne({ _id: pick(ids) }));
  const cpu = { byId: [0, 0, 0, 0] as Charged, inIds: [0, 0, 0, 0] as Charged };
  return { label, size, proc: engine.proc, client, coll, ids, loadSeconds, rssAfterLoadMb, byId: [], inIds: [], cpu };
}

/** Runs one window and also charges the engine's CPU time to the operation kind. */
async function window(
  l: Loaded,
  kind: 'byId' | 'inIds',
  seconds: number,
  concurrency: number,
  op: () => Promise<unknown>,
): Promise<void> {
  const before = procStat(l.proc.pid!);
  const t0 = Date.now();
  const rate = await throughput(seconds, concurrency, op);
  const after = procStat(l.proc.pid!);
  const charged = l.cpu[kind];
  charged[0] += after.userMs + after.sysMs - before.userMs - before.sysMs;
  charged[1] += (rate * (Date.now() - t0)) / 1000;
  charged[2] += after.sysMs - before.sysMs;
  charged[3] += after.minorFaults - before.minorFaults;
  l[kind].push(rate);
}

/** One measurement window per operation for one engine. */
async function measure(l: Loaded, seconds: number, concurrency: number): Promise<void> {
  await window(l, 'byId', seconds, concurrency, async () => {
    const d = await l.coll.findOne({ _id: pick(l.ids) });
    if (!d) throw new Error('missing document');
  });
  await window(l, 'inIds', seconds, concurrency, async () => {
    const want = Array.from({ length: 100 }, () => pick(l.ids));
    const docs = await l.coll.find({ _id: { $in: want } }).toArray();
    if (docs.length === 0) throw new Error('no documents');
  });
}

const fmtSize = (n: number): string => n.toLocaleString('en-US');

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function shutdown(l: Loaded): Promise<void> {
  await l.client.close();
  l.proc.kill('SIGTERM');
  await new Promise((r) => l.proc.once('exit', r));
}

function table(results: Result[]): string {
  const fmt = (n: number, d = 0): string =>
    n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const rows: Array<[string, (r: Result) => string, ((a: Result, b: Result) => string) | undefined]> = [
    ['documents', (r) => fmt(r.size), undefined],
    ['load time (s)', (r) => fmt(r.loadSeconds, 1), undefined],
    ['load rate (docs/s)', (r) => fmt(r.size / r.loadSeconds), undefined],
    ['find by _id (ops/s)', (r) => fmt(r.byIdOps), (a, b) => (b.byIdOps / a.byIdOps).toFixed(2)],
    ['find $in 100 ids (ops/s)', (r) => fmt(r.inOps), (a, b) => (b.inOps / a.inOps).toFixed(2)],
    ['engine CPU per find by _id (µs)', (r) => fmt(r.byIdCpuUs), (a, b) => (b.byIdCpuUs / a.byIdCpuUs).toFixed(2)],
    ['engine CPU per $in 100 (µs)', (r) => fmt(r.inCpuUs), (a, b) => (b.inCpuUs / a.inCpuUs).toFixed(2)],
    ['  of which system, by _id (µs)', (r) => fmt(r.byIdSysUs), (a, b) => (b.byIdSysUs / a.byIdSysUs).toFixed(2)],
    ['minor page faults per find by _id', (r) => fmt(r.byIdFaults, 2), undefined],
    ['RSS after load (MB)', (r) => fmt(r.rssAfterLoadMb), undefined],
    ['RSS after run (MB)', (r) => fmt(r.rssAfterRunMb), undefined],
    ['RssAnon after run (MB)', (r) => fmt(r.anonAfterRunMb), undefined],
  ];
  const head = [
    'metric',
    ...results.map((r) => `${r.label}${fmt(r.size)} docs`),
    results.length > 1 ? 'ratio last/first' : '',
  ];
  const lines = rows.map(([name, f, ratio]) => [
    name,
    ...results.map(f),
    ratio && results.length > 1 ? ratio(results[0]!, results[results.length - 1]!) : '',
  ]);
  const all = [head, ...lines];
  const widths = head.map((_, i) => Math.max(...all.map((l) => (l[i] ?? '').length)));
  return all
    .map((l) => l.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '))
    .join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10000,1000000' },
      seconds: { type: 'string', default: '5' },
      rounds: { type: 'string', default: '5' },
      concurrency: { type: 'string', default: '12' },
      reference: { type: 'string' },
      profile: { type: 'string' },
    },
  });
  profileDir = values.profile;
  const sizes = values.sizes.split(',').map((s) => Number(s.trim()));
  const seconds = Number(values.seconds);
  const rounds = Math.max(1, Number(values.rounds));
  const concurrency = Number(values.concurrency);
  // All sizes stay loaded (one engine process each) and are measured in alternating short windows, so
  // load from other processes on the machine affects every size alike instead of skewing the ratio.
  const loaded: Loaded[] = [];
  const references = values.reference ? values.reference.split(',') : [];
  const engines: Array<[string, string]> = [
    ...references.map((cli, i): [string, string] => [
      references.length > 1 ? `reference ${i + 1} ` : 'reference ',
      cli,
    ]),
    [references.length ? 'this build ' : '', ownCli],
  ];
  for (const size of sizes)
    for (const [label, cli] of engines) loaded.push(await loadSize(label, cli, size, concurrency));
  const loadAtStart = loadavg()[0]!;
  try {
    for (let r = 0; r < rounds; r++) {
      for (const l of loaded) await measure(l, seconds / rounds, concurrency);
      process.stderr.write(
        `round ${r + 1}/${rounds} (load ${loadavg()[0]!.toFixed(1)}): ${loaded.map((l) => `${l.label}${l.size}: ${Math.round(l.byId[r]!)} byId/s, ${Math.round(l.inIds[r]!)} $in/s`).join('; ')}\n`,
      );
    }
    const results: Result[] = loaded.map((l) => ({
      label: l.label,
      size: l.size,
      anonAfterRunMb: rssMb(l.proc.pid!, 'RssAnon'),
      loadSeconds: l.loadSeconds,
      rssAfterLoadMb: l.rssAfterLoadMb,
      rssAfterRunMb: rssMb(l.proc.pid!),
      byIdOps: median(l.byId),
      inOps: median(l.inIds),
      byIdCpuUs: (l.cpu.byId[0] * 1000) / l.cpu.byId[1],
      inCpuUs: (l.cpu.inIds[0] * 1000) / l.cpu.inIds[1],
      byIdSysUs: (l.cpu.byId[2] * 1000) / l.cpu.byId[1],
      byIdFaults: l.cpu.byId[3] / l.cpu.byId[1],
    }));
    process.stdout.write(
      `\n${table(results)}\n(throughput: median of ${rounds} alternating windows of ${(seconds / rounds).toFixed(1)} s, ${concurrency} requests in flight; load average ${loadAtStart.toFixed(1)} at the first window, ${loadavg()[0]!.toFixed(1)} now)\n`,
    );
    const [first, last] = [results[0]!, results[results.length - 1]!];
    if (references.length) {
      // The target: at least the (first) reference engine's throughput for both operations, at every size.
      const perSize = engines.length;
      const pairs = sizes.map((_, i) => [results[perSize * i]!, results[perSize * i + perSize - 1]!] as const);
      const ok = pairs.every(([ref, own]) => own.byIdOps >= ref.byIdOps && own.inOps >= ref.inOps);
      const cpu = pairs
        .map(
          ([ref, own]) =>
            `${fmtSize(own.size)}: by _id ${(own.byIdCpuUs / ref.byIdCpuUs).toFixed(2)}, $in ${(own.inCpuUs / ref.inCpuUs).toFixed(2)}`,
        )
        .join('; ');
      process.stdout.write(
        `target (this build's throughput >= the reference's for both ops): ${ok ? 'met' : 'NOT met'}; engine CPU per op, this build / reference: ${cpu}\n`,
      );
    } else if (results.length > 1) {
      const ok =
        last.byIdOps >= (2 / 3) * first.byIdOps && last.inOps >= (2 / 3) * first.inOps && last.rssAfterRunMb < 5 * 1024;
      process.stdout.write(
        `targets (throughput ratio >= 0.67 for both ops, RSS < 5 GB at the largest size): ${ok ? 'met' : 'NOT met'}\n`,
      );
    }
  } finally {
    for (const l of loaded) await shutdown(l);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
