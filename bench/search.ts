// `npm run bench:search -- --data DIR [--scale medium|large] [--queries 40] [--relevance 200] [--build-index]`:
// article search over a seeded data directory, through the service as `npm start` runs it (response cache off,
// one client). The data directory is written to (the service opens it): bench a copy of data you care about.
// - With --build-index first: the engine alone on DIR, the articles' text index dropped and built again, timed, with
//   the longest wait of a ping sent every 5 ms meanwhile.
// - With --insert-cost: 10,000 of DIR's articles inserted (batches of 100) into new collections of a new engine
//   with the articles' indexes, with and without the text index, alternated four times: engine CPU per article.
// - Query terms from the data: a sample of articles read by id; words of their titles and summaries whose share
//   of the articles is confirmed by `totalCount`: rare ones (each in under 1%) and common ones (near 10%).
// - p50/p95 wall time and the service's CPU per query (every thread, from /proc) of: a rare two-word query, a
//   common one-word query, and two common words together (the seed has no word in 10% of the articles: its
//   commonest are in about 5%, two of them match about as many as one word in 10% would), each first 20 with
//   `totalCount`, without and with facets.
// - Relevance: for random published articles, a query of three distinctive words of the title (those rarest in
//   the sample): how often that article comes first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient, type Document } from 'mongodb';
import { scales, type ScaleName } from '../src/seed/seeder.js';
import { Rand } from '../src/seed/content-random.js';
import {
  cpuSeconds,
  freePort,
  nodeProc,
  outputTails,
  projectRoot,
  startEntry,
  startFlags,
  stopAll,
  waitForHttp,
  waitForOutput,
} from './procs.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    scale: { type: 'string', default: 'medium' },
    queries: { type: 'string', default: '40' },
    relevance: { type: 'string', default: '200' },
    sample: { type: 'string', default: '3000' },
    'build-index': { type: 'boolean', default: false },
    'insert-cost': { type: 'boolean', default: false },
  },
});
if (!values.data || !(values.scale! in scales)) {
  process.stderr.write('usage: npm run bench:search -- --data DIR [--scale medium|large] [--build-index]\n');
  process.exit(2);
}
const dataDir = values.data;
const articles = scales[values.scale as ScaleName].articles;
const QUERIES = Number(values.queries);

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** The engine alone on the data directory: the articles' text index dropped and built again. */
async function buildIndex(): Promise<void> {
  const engine = nodeProc(
    'engine',
    join(projectRoot, 'packages/engine/dist/src/cli.js'),
    ['--port', '0', '--dbpath', dataDir],
    {},
  );
  const uri = (await waitForOutput(engine, (out) => out.includes('\n'), 300_000)).split('\n')[0]!.trim();
  const client = await MongoClient.connect(uri, { socketTimeoutMS: 0 });
  try {
    const coll = client.db('gateway').collection('articles');
    const spec = (await coll.listIndexes().toArray()).find((i) => i.name === 'articles_text');
    if (!spec) throw new Error('no articles_text index to rebuild');
    // Another client pings the engine every 5 ms throughout: how long any other command waits meanwhile.
    const pinger = await MongoClient.connect(uri);
    let longest = 0;
    let pinging = true;
    const probe = (async () => {
      while (pinging) {
        const p0 = performance.now();
        await pinger.db('admin').command({ ping: 1 });
        longest = Math.max(longest, performance.now() - p0);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const d0 = performance.now();
    await coll.dropIndex('articles_text');
    const dropMs = performance.now() - d0;
    const { v: _v, key: stored, ns: _ns, ...options } = spec;
    // The text fields where the stored key has _fts (and _ftsx), its other fields in their places.
    const key: Document = {};
    for (const [field, kind] of Object.entries(stored as Document)) {
      if (field === '_fts') for (const f of Object.keys(spec.weights as object)) key[f] = 'text';
      else if (field !== '_ftsx') key[field] = kind;
    }
    const cpu0 = cpuSeconds(engine.pid)!;
    const t0 = performance.now();
    await coll.createIndex(key, options);
    pinging = false;
    await probe;
    await pinger.close();
    console.log(
      `dropIndex answered in ${dropMs.toFixed(1)} ms (its entries deleted in the background); ` +
        `text index build over ${await coll.estimatedDocumentCount()} articles: ${((performance.now() - t0) / 1000).toFixed(1)} s, ` +
        `engine CPU ${(cpuSeconds(engine.pid)! - cpu0).toFixed(1)} s; longest ping meanwhile ${longest.toFixed(1)} ms ` +
        `(load average ${loadAverage()})`,
    );
  } finally {
    await client.close();
    await engine.stop(60_000);
  }
}

/** Engine CPU per article inserted, with the articles' indexes, without and with their text index. */
async function insertCost(): Promise<void> {
  const cli = join(projectRoot, 'packages/engine/dist/src/cli.js');
  const uriOf = async (proc: ReturnType<typeof nodeProc>): Promise<string> =>
    (await waitForOutput(proc, (out) => out.includes('\n'), 300_000)).split('\n')[0]!.trim();
  const source = nodeProc('engine', cli, ['--port', '0', '--dbpath', dataDir], {});
  let docs: Document[];
  let specs: Document[];
  try {
    const client = await MongoClient.connect(await uriOf(source));
    const coll = client.db('gateway').collection('articles');
    docs = await coll.find({}).limit(10_000).toArray();
    specs = (await coll.listIndexes().toArray()).filter((i) => i.name !== '_id_');
    await client.close();
  } finally {
    await source.stop(60_000);
  }
  const engine = nodeProc('engine', cli, ['--port', '0'], {});
  const client = await MongoClient.connect(await uriOf(engine), { socketTimeoutMS: 0 });
  try {
    const rows: Record<'without' | 'with', number[]> = { without: [], with: [] };
    for (let round = 0; round < 4; round++)
      for (const kind of ['without', 'with'] as const) {
        const coll = client.db('inserts').collection(`${kind}${round}`);
        for (const { v: _v, ns: _ns, key, ...options } of specs) {
          const text = (key as Document)._fts === 'text';
          if (text && kind === 'without') continue;
          const fields = text
            ? Object.fromEntries(Object.keys(options.weights as object).map((f) => [f, 'text']))
            : key;
          await coll.createIndex(fields as Document, options);
        }
        const cpu0 = cpuSeconds(engine.pid)!;
        for (let i = 0; i < docs.length; i += 100) await coll.insertMany(docs.slice(i, i + 100));
        rows[kind].push(((cpuSeconds(engine.pid)! - cpu0) * 1e6) / docs.length);
      }
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `insert of ${docs.length} articles with their ${specs.length - 1} other indexes, engine CPU per article: ` +
        `without the text index ${rows.without.map((x) => x.toFixed(0)).join(', ')} µs, with it ` +
        `${rows.with.map((x) => x.toFixed(0)).join(', ')} µs; medians' ratio ` +
        `${(median(rows.with) / median(rows.without)).toFixed(2)} (load average ${loadAverage()})`,
    );
  } finally {
    await client.close();
    await engine.stop(60_000);
  }
}

let url = '';

async function graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(`GraphQL ${res.status}: ${JSON.stringify(body.errors)}`);
  return body.data;
}

interface Sampled {
  id: string;
  title: string;
  summary: string | null;
}

/** Published articles among `n` picked at random by id (30 per request, as aliases). */
async function sampleArticles(n: number, r: () => number): Promise<Sampled[]> {
  const out: Sampled[] = [];
  for (let i = 0; i < n; i += 30) {
    const ids = Array.from({ length: Math.min(30, n - i) }, () => `article-${1 + Math.floor(r() * articles)}`);
    const q = `{ ${ids.map((id, j) => `a${j}: article(id: "${id}") { id title summary }`).join(' ')} }`;
    const data = await graphql<Record<string, Sampled | null>>(q, {});
    for (const a of Object.values(data)) if (a) out.push(a);
  }
  return out;
}

/** Words of a text as the bench counts them (the engine stems them too; shares are confirmed by totalCount). */
const wordsOf = (text: string): string[] => [
  ...new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length >= 4 && !/^\p{N}+$/u.test(w)),
  ),
];

const COUNT = 'query C($q: String!) { searchArticles(query: $q, first: 1) { totalCount } }';
const count = async (q: string): Promise<number> =>
  (await graphql<{ searchArticles: { totalCount: number } }>(COUNT, { q })).searchArticles.totalCount;

const PAGE = `query S($q: String!) { searchArticles(query: $q, first: 20) { totalCount
  edges { score node { id title } highlights { title { text match } summary { text match } } }
  pageInfo { hasNextPage endCursor } } }`;
const FACETS = `query F($q: String!) { searchArticles(query: $q, first: 20) { totalCount
  edges { score node { id title } highlights { title { text match } summary { text match } } }
  pageInfo { hasNextPage endCursor }
  facets { categories { category { id name } count } authors { author { id } count }
    keywords { keyword { id name } count } years { year count } } } }`;

async function timed(label: string, query: string, texts: string[], pid: number): Promise<void> {
  for (const q of texts.slice(0, 3)) await graphql(query, { q }); // warm-up
  const times: number[] = [];
  let total = 0;
  const load = loadAverage();
  const cpu0 = cpuSeconds(pid)!;
  for (let i = 0; i < QUERIES; i++) {
    const q = texts[i % texts.length]!;
    const t = performance.now();
    const data = await graphql<{ searchArticles: { totalCount: number } }>(query, { q });
    times.push(performance.now() - t);
    total += data.searchArticles.totalCount;
  }
  const cpu = ((cpuSeconds(pid)! - cpu0) * 1000) / QUERIES;
  console.log(
    `| ${label} | ${Math.round(total / QUERIES)} | ${percentile(times, 50).toFixed(1)} | ${percentile(times, 95).toFixed(1)} | ` +
      `${cpu.toFixed(1)} | ${load} |`,
  );
}

/** Words with a confirmed share of the articles in [lo, hi), tried in the given order, up to `want`. */
async function confirmed(candidates: string[], lo: number, hi: number, want: number): Promise<string[]> {
  const out: string[] = [];
  for (const w of candidates) {
    if (out.length >= want) break;
    const share = (await count(w)) / articles;
    if (share >= lo && share < hi) out.push(w);
  }
  return out;
}

async function main(): Promise<void> {
  console.log(`article search over ${dataDir} (${values.scale}, ${articles} articles); load average ${loadAverage()}`);
  if (values['build-index']) await buildIndex();
  if (values['insert-cost']) await insertCost();
  const port = await freePort();
  const service = nodeProc(
    'service',
    startEntry(),
    [],
    {
      STORE: 'disk',
      DATA_DIR: dataDir,
      SEED: 'none',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RESPONSE_CACHE_MB: '0',
      STORE_TIMEOUT_MS: '60000',
    },
    startFlags(),
  );
  url = `http://127.0.0.1:${port}`;
  await waitForHttp(service, `${url}/readyz`, 600_000);
  // Over an archive whose index is still being built, search answers SEARCH_UNAVAILABLE: wait for it.
  for (;;) {
    try {
      await count('bench');
      break;
    } catch (e) {
      if (!String(e).includes('SEARCH_UNAVAILABLE')) throw e;
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
  const rand = new Rand(34);
  const r = (): number => rand.next();
  const sample = await sampleArticles(Number(values.sample), r);
  const df = new Map<string, number>();
  for (const a of sample) for (const w of wordsOf(`${a.title} ${a.summary ?? ''}`)) df.set(w, (df.get(w) ?? 0) + 1);
  const share = (w: string): number => (df.get(w) ?? 0) / sample.length;
  const shuffled = [...df.keys()].sort(() => r() - 0.5);
  const rare = await confirmed(
    shuffled.filter((w) => share(w) >= 0.001 && share(w) < 0.01),
    0.001,
    0.01,
    24,
  );
  // The seed's vocabulary may have no word in exactly 10%: the three nearest of its most frequent words.
  const frequent = [...df.keys()].sort((a, b) => share(b) - share(a)).slice(0, 12);
  const counted = await Promise.all(frequent.map(async (w) => ({ w, n: await count(w) })));
  const common = counted
    .sort((a, b) => Math.abs(a.n / articles - 0.1) - Math.abs(b.n / articles - 0.1))
    .slice(0, 3)
    .map((c) => c.w);
  if (!rare.length || !common.length) {
    const top = [...df.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
    throw new Error(
      `no rare or no common words; the sample's most frequent: ${top.map(([w, n]) => `${w} ${((n * 100) / sample.length).toFixed(1)}%`).join(', ')}`,
    );
  }
  const pairs = Array.from(
    { length: QUERIES },
    () => `${rare[Math.floor(r() * rare.length)]} ${rare[Math.floor(r() * rare.length)]}`,
  );
  console.log(
    `sample: ${sample.length} published articles; rare words: ${rare.length}; common words: ${common.map((w) => `${w} (${counted.find((c) => c.w === w)!.n})`).join(', ')}`,
  );
  // What the service spends with no request (its pollers): part of the CPU per query below, shown apart.
  const idle0 = cpuSeconds(service.pid)!;
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  console.log(`service CPU while idle: ${((cpuSeconds(service.pid)! - idle0) * 100).toFixed(0)} ms/s`);
  console.log(`\n${QUERIES} queries each, first 20 with totalCount, one client, response cache off`);
  console.log('| query | matches | p50 ms | p95 ms | service CPU ms/query | load average |');
  console.log('|---|---|---|---|---|---|');
  await timed('two rare words', PAGE, pairs, service.pid);
  await timed('two rare words, facets', FACETS, pairs, service.pid);
  await timed('one word in ~10%', PAGE, common, service.pid);
  await timed('one word in ~10%, facets', FACETS, common, service.pid);
  const commonPairs = common.flatMap((a, i) => common.slice(i + 1).map((b) => `${a} ${b}`));
  if (commonPairs.length) {
    await timed('two common words', PAGE, commonPairs, service.pid);
    await timed('two common words, facets', FACETS, commonPairs, service.pid);
  }

  // Relevance: three distinctive title words of random published articles.
  const picked = sample.sort(() => r() - 0.5).slice(0, Number(values.relevance));
  let first = 0;
  let asked = 0;
  const missed: string[] = [];
  for (const a of picked) {
    const words = wordsOf(a.title).sort((x, y) => share(x) - share(y) || y.length - x.length);
    if (words.length < 2) continue;
    asked++;
    const data = await graphql<{ searchArticles: { edges: Array<{ node: { id: string; title: string } }> } }>(
      'query R($q: String!) { searchArticles(query: $q, first: 1) { edges { node { id title } } } }',
      { q: words.slice(0, 3).join(' ') },
    );
    const top = data.searchArticles.edges[0]?.node;
    if (top?.id === a.id) first++;
    else
      missed.push(
        `"${words.slice(0, 3).join(' ')}" for ${a.id} ("${a.title}"): ${top ? `${top.id} ("${top.title}")` : 'nothing'}`,
      );
  }
  const pct = (n: number): string => `${((n * 100) / Math.max(1, asked)).toFixed(1)}%`;
  console.log(`\nrelevance: ${asked} articles, three distinctive title words each: that article first ${pct(first)}`);
  // What ranked first instead: the first few, to tell a ranking question from a wrong answer.
  for (const m of missed.slice(0, 5)) console.log(`  missed: ${m}`);
  console.log(`load average at the end: ${loadAverage()}`);
}

try {
  await main();
} catch (e) {
  console.error(e);
  console.error(outputTails());
  process.exitCode = 1;
} finally {
  await stopAll();
}
