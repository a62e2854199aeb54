// `npm run build && node dist/bench/store-scale.js --data <seeded DATA_DIR> [--runs 15] [--only rest]
// [--ready-parts-mb N]`: what a user of a seeded data directory sees. Starts the service (as `npm start` runs it, embedded engine in-process, response
// cache off, no seeding) on the directory and measures: time from spawn to the first 200 of /readyz (and of
// a first GraphQL answer), the latency of the API's entry points and both REST lists (sequential, one
// client; p50 / p90 / max), the process's anonymous memory (RssAnon, not the file cache) while serving,
// then, against the engine alone (`cli.js`), the engine CPU per count through `count`, `countDocuments`
// and the gateway's per-parent `$group` pipeline. Prints a Markdown table. The REST rows ask with
// `Accept-Encoding: identity` (one `br` row beside it) and give the service's CPU per answer (engine included: it
// runs in the process); `--only rest` measures them alone, `--ready-parts-mb` sets READY_PARTS_MB (0: none kept).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { startEntry, startFlags } from './procs.js';
import { startEngineCli, stopped } from './store-common.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    runs: { type: 'string', default: '15' },
    port: { type: 'string', default: '4123' },
    only: { type: 'string' },
    'ready-parts-mb': { type: 'string' },
  },
});
if (!values.data) throw new Error('--data <seeded DATA_DIR> is required');
const runs = Number(values.runs);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

function status(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

function cpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (b: number) => `${(b / 1048576).toFixed(0)} MiB`;

async function until(fn: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error('timed out');
    await sleep(20);
  }
}

async function gql(query: string): Promise<unknown> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { errors?: unknown; data?: unknown };
  if (!res.ok || body.errors)
    throw new Error(`GraphQL ${res.status}: ${JSON.stringify(body.errors ?? body).slice(0, 300)}`);
  return body.data;
}

/** GETs `path` with `Accept-Encoding: coding`; returns the bytes as sent (not decoded). */
function rest(path: string, coding = 'identity'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { 'accept-encoding': coding } }, (res) => {
      let size = 0;
      res.on('data', (chunk: Buffer) => (size += chunk.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(size) : reject(new Error(`${path}: ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The REST lists: name, path, Accept-Encoding. */
const REST_CASES: Array<[string, string, string]> = [
  ['GET /cms/page/page-1/issues?limit=20', '/cms/page/page-1/issues?page=1&limit=20', 'identity'],
  ['GET /cms/page/page-1/issues?limit=20 (br)', '/cms/page/page-1/issues?page=1&limit=20', 'br'],
  ['GET /cms/page/page-1/issues?limit=2', '/cms/page/page-1/issues?page=1&limit=2', 'identity'],
  ['GET /cms/product/categories (default page)', '/cms/product/categories', 'identity'],
  ['GET /cms/product/categories?page=2&limit=100', '/cms/product/categories?page=2&limit=100', 'identity'],
];

const NESTED = `{ page(id: "page-1") { name issues(first: 3) { totalCount edges { node { title date
  contents { category { name } articles { title accessAllowed preview authors { name } keywords { name } } } } } } } }`;

/** Name, request, and optionally fewer runs (the whole-catalogue REST list is many megabytes of JSON). */
const cases: Array<[string, () => Promise<unknown>, number?]> = [
  ['README nested query (page, 3 issues, contents)', () => gql(NESTED)],
  ['pages(first: 10)', () => gql('{ pages(first: 10) { totalCount edges { node { name } } } }')],
  [
    'page(id) { issues(first: 20) { totalCount } }',
    () => gql('{ page(id: "page-1") { issues(first: 20) { totalCount edges { node { title } } } } }'),
  ],
  ['issue(id)', () => gql('{ issue(id: "issue-7") { title date } }')],
  ['article(id)', () => gql('{ article(id: "article-123") { title authors { name } keywords { name } } }')],
  ['articles(first: 20) { totalCount }', () => gql('{ articles(first: 20) { totalCount edges { node { title } } } }')],
  [
    'articles(filter: category, first: 20) { totalCount }',
    () => gql('{ articles(filter: { categoryId: "category-3" }, first: 20) { totalCount edges { node { title } } } }'),
  ],
  [
    'contentCategory { articles(first: 10) { totalCount } }',
    () =>
      gql('{ contentCategory(id: "category-3") { name articles(first: 10) { totalCount edges { node { title } } } } }'),
  ],
  [
    'author(id) { articles(first: 10) }',
    () => gql('{ author(id: "author-5") { name articles(first: 10) { totalCount edges { node { title } } } } }'),
  ],
  [
    'keyword(id) { articles(first: 10) }',
    () => gql('{ keyword(id: "keyword-5") { name articles(first: 10) { totalCount edges { node { title } } } } }'),
  ],
  ['channel(id)', () => gql('{ channel(id: "1") { name } }')],
  ['productCategories (every level)', () => gql('{ productCategories { name } }')],
  [
    'product(id) / productItem(id)',
    () => gql('{ product(id: "prod-000001") { name } productItem(id: "item-000001-1") { name } }'),
  ],
  ...REST_CASES.map(([name, path, coding]): [string, () => Promise<unknown>] => [name, () => rest(path, coding)]),
];

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function service(): Promise<void> {
  const t0 = performance.now();
  const env = {
    ...process.env,
    DATA_DIR: values.data!,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED: 'none',
    RESPONSE_CACHE_MB: '0',
    LOG_LEVEL: 'warn',
    STORE: 'disk',
    ...(values['ready-parts-mb'] === undefined ? {} : { READY_PARTS_MB: values['ready-parts-mb'] }),
  };
  // As `npm start` runs it: with package.json's start flags.
  const proc = spawn(process.execPath, [...startFlags(), startEntry()], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await until(async () => (await fetch(`${base}/readyz`)).status === 200, 600_000);
    const ready = performance.now() - t0;
    await gql('{ pages(first: 1) { edges { node { name } } } }');
    const firstAnswer = performance.now() - t0;
    console.log(`| ready (/readyz 200) after spawn | ${(ready / 1000).toFixed(2)} s |`);
    console.log(`| first GraphQL answer after spawn | ${(firstAnswer / 1000).toFixed(2)} s |`);
    console.log(`| RssAnon after start | ${mb(status(proc.pid!, 'RssAnon'))} |`);
    console.log(
      '\n| entry point | p50 ms | p90 ms | max ms | service CPU ms/answer | bytes |\n|---|---|---|---|---|---|',
    );
    let peakAnon = 0;
    const chosen = values.only === 'rest' ? cases.filter(([name]) => name.startsWith('GET ')) : cases;
    for (const [name, run, n = runs] of chosen) {
      const times: number[] = [];
      const size = await run(); // warm-up (first use of the code path), not counted
      const c0 = cpuMs(proc.pid!);
      for (let i = 0; i < n; i++) {
        const s = performance.now();
        await run();
        times.push(performance.now() - s);
        peakAnon = Math.max(peakAnon, status(proc.pid!, 'RssAnon'));
      }
      const cpu = (cpuMs(proc.pid!) - c0) / n;
      console.log(
        `| ${name} | ${pct(times, 50).toFixed(1)} | ${pct(times, 90).toFixed(1)} | ${Math.max(...times).toFixed(1)} | ${cpu.toFixed(1)} | ${typeof size === 'number' ? size : ''} |`,
      );
    }
    console.log(`\n| RssAnon while serving (peak) | ${mb(peakAnon)} |`);
    console.log(`| RssFile (mapped data in the page cache) | ${mb(status(proc.pid!, 'RssFile'))} |`);
  } finally {
    await stopped(proc);
  }
}

async function engineCounts(): Promise<void> {
  const { proc, uri } = await startEngineCli(values.data!);
  const client = new MongoClient(uri);
  try {
    const db = client.db(process.env.MONGODB_DB ?? 'gateway');
    const issues = db.collection('issues');
    const articles = db.collection('articles');
    const pageIds = (
      await db
        .collection('pages')
        .find({}, { projection: { _id: 1 } })
        .toArray()
    ).map((p) => p._id);
    const measure = async (name: string, op: () => Promise<unknown>, n = 200): Promise<void> => {
      await op();
      const c0 = cpuMs(proc.pid!);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await op();
      const wall = (performance.now() - t0) / n;
      console.log(`| ${name} | ${((cpuMs(proc.pid!) - c0) / n).toFixed(2)} | ${wall.toFixed(2)} |`);
    };
    console.log('\n| engine alone: count | engine CPU ms/op | wall ms/op |\n|---|---|---|');
    await measure('issues of page-1: count command', () =>
      db.command({ count: 'issues', query: { pageId: 'page-1', status: 'published' } }),
    );
    await measure('issues of page-1: countDocuments', () =>
      issues.countDocuments({ pageId: 'page-1', status: 'published' }),
    );
    await measure('issues of every page: per-parent $group', () =>
      issues
        .aggregate([
          { $match: { status: 'published', pageId: { $in: pageIds } } },
          { $project: { _id: 0, b: '$pageId' } },
          { $unwind: '$b' },
          { $match: { b: { $in: pageIds } } },
          { $group: { _id: '$b', n: { $sum: 1 } } },
        ])
        .toArray(),
    );
    await measure('all published articles: countDocuments', () => articles.countDocuments({ status: 'published' }), 50);
    await measure(
      'articles of category-3: countDocuments',
      () => articles.countDocuments({ categoryIds: 'category-3', status: 'published' }),
      100,
    );
    console.log(`\nengine RssAnon after the counts: ${mb(status(proc.pid!, 'RssAnon'))}`);
  } finally {
    await client.close();
    await stopped(proc);
  }
}

await service();
if (values.only !== 'rest') await engineCounts();
