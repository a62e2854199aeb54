// `npm run bench:scale-soak -- --data <seeded DATA_DIR> [--minutes 10] [--clients 6]`: a mixed read load on a
// seeded data directory, served as `npm start` serves it (the service with its embedded engine, response
// cache off so every answer is computed, no seeding). Each client loops over a weighted mix of the
// API's entry points on random ids of the seeded scale and checks every answer (HTTP 200, no GraphQL
// `errors`). Samples the process's anonymous memory (RssAnon, not the mapped data file) every 5 s and its
// CPU. Prints a Markdown table and exits 1 if any answer was wrong or the service died (an OOM shows here).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { Rand } from '../src/seed/content-random.js';
import { startEntry, startFlags } from './procs.js';
import { cpuMs, rssMb, startEngineCli, stopped } from './store-common.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    minutes: { type: 'string', default: '10' },
    clients: { type: 'string', default: '6' },
    port: { type: 'string', default: '4124' },
    seed: { type: 'string', default: '2026' },
  },
});
if (!values.data) throw new Error('--data <seeded DATA_DIR> is required');
const minutes = Number(values.minutes);
const clients = Number(values.clients);
const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (mb: number) => `${mb} MiB`;

interface Sizes {
  pages: number;
  issues: number;
  articles: number;
  categories: number;
  authors: number;
  keywords: number;
}

/** The seeded counts, read from the data directory through the engine alone before the service starts. */
async function sizes(): Promise<Sizes> {
  const { proc, uri } = await startEngineCli(values.data!);
  const client = new MongoClient(uri);
  try {
    const db = client.db(process.env.MONGODB_DB ?? 'gateway');
    const n = (c: string) => db.collection(c).estimatedDocumentCount();
    return {
      pages: await n('pages'),
      issues: await n('issues'),
      articles: await n('articles'),
      categories: await n('contentCategories'),
      authors: await n('authors'),
      keywords: await n('keywords'),
    };
  } finally {
    await client.close();
    await stopped(proc);
  }
}

async function until(fn: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await fn().catch(() => false)) return;
    if (Date.now() > end) throw new Error('timed out');
    await sleep(50);
  }
}

type Request = () => Promise<string | undefined>; // undefined when right, else what was wrong

async function gql(query: string, variables: Record<string, unknown>): Promise<string | undefined> {
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  if (res.status !== 200) return `HTTP ${res.status}: ${text.slice(0, 200)}`;
  const body = JSON.parse(text) as { errors?: unknown; data?: unknown };
  return body.errors ? `errors: ${JSON.stringify(body.errors).slice(0, 200)}` : undefined;
}

async function rest(path: string): Promise<string | undefined> {
  const res = await fetch(`${base}${path}`);
  const text = await res.text();
  return res.status === 200 ? undefined : `${path}: HTTP ${res.status}: ${text.slice(0, 200)}`;
}

const NESTED = `query($id: ID!) { page(id: $id) { name issues(first: 3) { totalCount edges { node { title date
  contents { category { name } articles { title accessAllowed preview authors { name } keywords { name } } } } } } } }`;

/** The mix: name, weight, and a request built from a random number source. */
function mix(s: Sizes): Array<[string, number, (r: () => number) => Request]> {
  const pick = (r: () => number, n: number) => 1 + Math.floor(r() * n);
  // The seed switches the last page off when there are more than two ("Page not enabled"): leave it out.
  const enabledPages = s.pages > 2 ? s.pages - 1 : s.pages;
  return [
    ['README nested query, random page', 3, (r) => () => gql(NESTED, { id: `page-${pick(r, enabledPages)}` })],
    [
      'article(id), random',
      4,
      (r) => () =>
        gql('query($id: ID!) { article(id: $id) { title authors { name } keywords { name } } }', {
          id: `article-${pick(r, s.articles)}`,
        }),
    ],
    [
      'issue(id), random',
      2,
      (r) => () => gql('query($id: ID!) { issue(id: $id) { title date } }', { id: `issue-${pick(r, s.issues)}` }),
    ],
    [
      'articles(first: 20) { totalCount }',
      1,
      () => () => gql('{ articles(first: 20) { totalCount edges { node { title } } } }', {}),
    ],
    [
      "a category's articles, random",
      2,
      (r) => () =>
        gql(
          'query($id: ID!) { contentCategory(id: $id) { name articles(first: 10) { totalCount edges { node { title } } } } }',
          { id: `category-${pick(r, s.categories)}` },
        ),
    ],
    [
      "an author's articles, random",
      2,
      (r) => () =>
        gql(
          'query($id: ID!) { author(id: $id) { name articles(first: 10) { totalCount edges { node { title } } } } }',
          { id: `author-${pick(r, s.authors)}` },
        ),
    ],
    [
      "a keyword's articles, random",
      1,
      (r) => () =>
        gql(
          'query($id: ID!) { keyword(id: $id) { name articles(first: 10) { totalCount edges { node { title } } } } }',
          { id: `keyword-${pick(r, s.keywords)}` },
        ),
    ],
    [
      'GET /cms/page/{id}/issues?limit=20, random page and page number',
      1,
      (r) => () => rest(`/cms/page/page-${pick(r, enabledPages)}/issues?page=${pick(r, 20)}&limit=20`),
    ],
  ];
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
}

async function main(): Promise<number> {
  const s = await sizes();
  console.log(
    `data: ${values.data} (${s.articles} articles, ${s.issues} issues, ${s.pages} pages); ${clients} clients for ${minutes} min`,
  );
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: values.data!,
    PORT: String(port),
    HOST: '127.0.0.1',
    SEED: 'none',
    RESPONSE_CACHE_MB: '0',
    LOG_LEVEL: 'warn',
    STORE: 'disk',
  };
  // As `npm start` runs it: with package.json's start flags.
  const proc = spawn(process.execPath, [...startFlags(), startEntry()], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let died: string | undefined;
  proc.once('exit', (code, signal) => (died = `service exited (code ${code}, signal ${signal})`));
  try {
    await until(async () => (await fetch(`${base}/readyz`)).status === 200, 600_000);
    const kinds = mix(s);
    const totalWeight = kinds.reduce((t, k) => t + k[1], 0);
    const times = new Map<string, number[]>(kinds.map(([name]) => [name, []]));
    const wrong: string[] = [];
    const anon: number[] = [];
    const end = Date.now() + minutes * 60_000;
    const sampler = setInterval(() => {
      if (!died) anon.push(rssMb(proc.pid!, 'RssAnon'));
    }, 5_000);
    const cpu0 = cpuMs(proc.pid!);
    const t0 = performance.now();
    const client = async (i: number): Promise<void> => {
      const rand = new Rand(Number(values.seed) + i);
      const r = () => rand.next();
      while (Date.now() < end && !died) {
        let w = r() * totalWeight;
        const [name, , make] = kinds.find(([, weight]) => (w -= weight) < 0) ?? kinds[0]!;
        const started = performance.now();
        const problem = await make(r)().catch((e: Error) => `${e.name}: ${e.message}`);
        times.get(name)!.push(performance.now() - started);
        if (problem) wrong.push(`${name}: ${problem}`);
      }
    };
    await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
    clearInterval(sampler);
    const wallS = (performance.now() - t0) / 1000;
    const answers = [...times.values()].reduce((t, x) => t + x.length, 0);
    const cpuPerAnswer = died ? NaN : (cpuMs(proc.pid!) - cpu0) / answers;
    console.log('\n| request | answers | p50 ms | p99 ms | max ms |\n|---|---:|---:|---:|---:|');
    for (const [name, xs] of times)
      console.log(
        `| ${name} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 99).toFixed(1)} | ${Math.max(...xs).toFixed(1)} |`,
      );
    console.log(
      `\n- ${answers} answers in ${wallS.toFixed(0)} s (${(answers / wallS).toFixed(1)} per second), ${wrong.length} wrong`,
    );
    console.log(`- service CPU per answer (engine thread included): ${cpuPerAnswer.toFixed(2)} ms`);
    console.log(
      `- RssAnon every 5 s: min ${mib(Math.min(...anon))}, max ${mib(Math.max(...anon))}, last ${mib(anon.at(-1) ?? NaN)} (${anon.length} samples)`,
    );
    console.log(`- load average at the end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    if (died) console.log(`- ${died}`);
    for (const w of wrong.slice(0, 10)) console.log(`  wrong: ${w}`);
    return died || wrong.length ? 1 : 0;
  } finally {
    await stopped(proc);
  }
}

process.exitCode = await main();
