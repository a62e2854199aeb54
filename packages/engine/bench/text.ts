// Text index costs: `npm run bench:text [-- --size 50000]` starts an in-memory engine child process and loads
// article-like documents (a title of 8 words, a summary of 25, a body of 300, drawn from a vocabulary of 30,000
// made-up words with Zipf frequencies, so a few words are in most articles and most words in few) in batches
// of 1000 through the driver:
// - into a collection without a text index, into one with a text index on title and summary (weights 10 and 4),
//   and into one with the body too (weights 10, 4, 1): insert throughput of each, and the ratio to the first;
// - the time to build each text index over the documents already loaded (the first collection);
// - p50/p95 of a two-word query (two words each found in about 1% of the articles), first 20 by score with the
//   score projected, one client.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { cpuMs, startEngineProcess } from './common.js';

const cli = fileURLToPath(new URL('../src/cli.js', import.meta.url));

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

const VOCABULARY = 30_000;
const SYLLABLES = 'ka ri to mu se la ne po vi da ge ho fu ju me sa ti ro be na'.split(' ');

/** A made-up word per rank: distinct, 2 to 4 syllables. */
function word(rank: number): string {
  let w = '';
  let n = rank + SYLLABLES.length;
  while (n > 0) {
    w += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return w;
}

const vocabulary = Array.from({ length: VOCABULARY }, (_, i) => word(i));

/** Cumulative Zipf weights (exponent 1) for sampling ranks. */
const cumulative = (() => {
  const out = new Float64Array(VOCABULARY);
  let sum = 0;
  for (let i = 0; i < VOCABULARY; i++) out[i] = sum += 1 / (i + 1);
  return out.map((x) => x / sum);
})();

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sample(r: () => number): string {
  const x = r();
  let lo = 0;
  let hi = VOCABULARY - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return vocabulary[lo]!;
}

const text = (r: () => number, n: number): string => Array.from({ length: n }, () => sample(r)).join(' ');

function article(i: number): Document {
  const r = random(i + 1);
  return { _id: i, title: text(r, 8), summary: text(r, 25), body: `<p>${text(r, 150)}</p><p>${text(r, 150)}</p>` };
}

function startEngine(): Promise<{ proc: ChildProcess; uri: string }> {
  return startEngineProcess(cli);
}

/** Inserts `size` articles in batches of 1000, two in flight; returns seconds taken and engine CPU ms. */
async function load(coll: Collection, size: number, pid: number): Promise<{ seconds: number; cpu: number }> {
  const cpu0 = cpuMs(pid);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < size) {
        const start = next;
        next += 1000;
        const docs = Array.from({ length: Math.min(1000, size - start) }, (_, j) => article(start + j));
        await coll.insertMany(docs, { ordered: false });
      }
    }),
  );
  return { seconds: (performance.now() - started) / 1000, cpu: cpuMs(pid) - cpu0 };
}

const TITLE_SUMMARY = { keys: { title: 'text', summary: 'text' }, weights: { title: 10, summary: 4 } } as const;
const WITH_BODY = {
  keys: { title: 'text', summary: 'text', body: 'text' },
  weights: { title: 10, summary: 4, body: 1 },
} as const;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function main(): Promise<void> {
  const size = arg('size', 50_000);
  const queries = arg('queries', 200);
  const { proc, uri } = await startEngine();
  // createIndexes answers when its build has ended (minutes at large; other commands are served meanwhile).
  const client = await MongoClient.connect(uri, { connectTimeoutMS: 900_000, socketTimeoutMS: 0 });
  const db = client.db('bench_text');
  try {
    const rows: string[] = [];
    const plain = await load(db.collection('plain'), size, proc.pid!);
    rows.push(row('no text index', size, plain, plain));
    console.log(rows.at(-1));
    for (const [label, spec] of [
      ['title+summary', TITLE_SUMMARY],
      ['title+summary+body', WITH_BODY],
    ] as const) {
      const coll = db.collection(`indexed_${label}`);
      await coll.createIndex(spec.keys, { weights: spec.weights, name: 'text' });
      rows.push(row(`text index: ${label}`, size, await load(coll, size, proc.pid!), plain));
      console.log(rows.at(-1));
      await coll.drop();
    }
    console.log(`insert of ${size} articles, batches of 1000, two in flight`);
    console.log('| collection | docs/s | engine CPU µs/doc | time vs no index |');
    console.log('|---|---|---|---|');
    for (const r of rows) console.log(r);

    const base = db.collection('plain');
    for (const [label, spec] of [
      ['title+summary+body', WITH_BODY],
      ['title+summary', TITLE_SUMMARY],
    ] as const) {
      const cpu0 = cpuMs(proc.pid!);
      const t0 = performance.now();
      await base.createIndex(spec.keys, { weights: spec.weights, name: 'text' });
      const seconds = (performance.now() - t0) / 1000;
      console.log(
        `\nbuild of the ${label} text index over ${size} articles: ${seconds.toFixed(1)} s ` +
          `(engine CPU ${((cpuMs(proc.pid!) - cpu0) / 1000).toFixed(1)} s)`,
      );
      // Two words each in about 1% of the articles: ranks whose share of the articles is nearest 1%.
      const candidates = await wordsNear(base, 0.01, size);
      const r = random(7);
      const times: number[] = [];
      let found = 0;
      for (let i = 0; i < queries; i++) {
        const q = `${candidates[Math.floor(r() * candidates.length)]} ${candidates[Math.floor(r() * candidates.length)]}`;
        const t = performance.now();
        const docs = await base
          .find({ $text: { $search: q } }, { projection: { title: 1, score: { $meta: 'textScore' } } })
          .sort({ score: { $meta: 'textScore' } })
          .limit(20)
          .toArray();
        times.push(performance.now() - t);
        found += docs.length;
      }
      console.log(
        `two-word query, first 20 by score (${queries} queries, ${(found / queries).toFixed(1)} results each): ` +
          `p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
      );
      await base.dropIndex('text');
    }
  } finally {
    await client.close();
    proc.kill('SIGTERM');
  }
}

function row(label: string, size: number, r: { seconds: number; cpu: number }, plain: { seconds: number }): string {
  return `| ${label} | ${Math.round(size / r.seconds)} | ${Math.round((r.cpu * 1000) / size)} | ${(r.seconds / plain.seconds).toFixed(2)}× |`;
}

/** Words found in about `share` of the articles (counted by $text on the index just built), up to 20. */
async function wordsNear(coll: Collection, share: number, size: number): Promise<string[]> {
  // Under Zipf with exponent 1, a word of rank k appears in a 300-word article with probability about
  // 1 - (1 - p_k)^n; probe ranks around the expected one and keep those within a factor of two of the target.
  const out: string[] = [];
  for (let rank = 1500; rank < VOCABULARY && out.length < 20; rank += 97) {
    const w = vocabulary[rank]!;
    const n = await coll.countDocuments({ $text: { $search: w } });
    if (n >= (share / 2) * size && n <= share * 2 * size) out.push(w);
    if (n < (share / 4) * size) break;
  }
  return out.length ? out : [vocabulary[200]!, vocabulary[300]!];
}

await main();
