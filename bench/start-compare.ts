// `npm run build && node dist/bench/start-compare.js --build <name>=<checkout>:<data dir>[:ENV=value,...] ...`
// `npm start` of several builds on their own seeded data directories, asked the same uncached nested query
// (POST, 50 connections, response cache off), in alternating rounds so that each build meets the machine's
// load in turn. Each build runs what its own `npm start` runs (built beforehand in its checkout) on data seeded by
// that build (`DATA_DIR=<dir> MONGODB_DB=bench node dist/scripts/seed.js --scale medium`), since the storage
// format changed between builds. Reports per round and as medians: answers per second, p50 / p99, and the
// whole process's CPU per answer (engine thread included), with the load average.
//
// Used for the target "`npm start`, uncached nested query: >= 3x the in-heap engine's build at medium scale":
// that build is 51f81bb, checked out beside this one with `git worktree add --detach` (docs/PERFORMANCE.md).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startEntry, startFlags } from './procs.js';
import { nestedPostBody } from './scenarios.js';

const { values } = parseArgs({
  options: {
    build: { type: 'string', multiple: true },
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '20' },
    warmup: { type: 'string', default: '8' },
    connections: { type: 'string', default: '50' },
  },
});

interface Build {
  name: string;
  dir: string;
  data: string;
  env: Record<string, string>;
}

const builds: Build[] = (values.build ?? []).map((spec) => {
  const m = /^([^=]+)=([^:]+):([^:]+)(?::(.*))?$/.exec(spec);
  if (!m) throw new Error(`--build ${spec}: expected <name>=<checkout>:<data dir>[:ENV=value,...]`);
  const env = Object.fromEntries(
    (m[4] ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  );
  return { name: m[1]!, dir: m[2]!, data: m[3]!, env };
});
if (builds.length < 2) throw new Error('give at least two --build');
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const warmup = Number(values.warmup);
const connections = Number(values.connections);

const cpuSeconds = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function start(b: Build, port: number): Promise<{ proc: ChildProcess; url: string; readyMs: number }> {
  const url = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    STORE: 'disk',
    DATA_DIR: b.data,
    MONGODB_DB: 'bench',
    SEED: 'none',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    RESPONSE_CACHE_MB: '0',
    ...b.env,
  };
  // As that build's `npm start` runs it: with the node flags of its own package.json.
  const proc = spawn(process.execPath, [...startFlags(b.dir), startEntry(b.dir)], {
    cwd: b.dir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const t0 = Date.now();
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${b.name}: the service exited with ${proc.exitCode}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { proc, url, readyMs: Date.now() - t0 };
    if (Date.now() - t0 > 600_000) throw new Error(`${b.name}: not ready after 600 s`);
    await sleep(200);
  }
}

function load(url: string, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: `${url}/graphql`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: nestedPostBody,
        connections,
        duration: seconds,
      },
      (err, r) => (err ? reject(err) : resolve(r)),
    ),
  );
}

interface Row {
  rps: number;
  p50: number;
  p99: number;
  cpuMs: number;
}

const rows = new Map<string, Row[]>(builds.map((b) => [b.name, []]));
let port = 4200;
for (let round = 1; round <= rounds; round++) {
  for (const b of builds) {
    const s = await start(b, ++port);
    try {
      const first = await fetch(`${s.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: nestedPostBody,
      });
      const body = (await first.json()) as { errors?: unknown };
      if (!first.ok || body.errors)
        throw new Error(`${b.name}: the nested query failed: ${JSON.stringify(body).slice(0, 300)}`);
      await load(s.url, warmup);
      const c0 = cpuSeconds(s.proc.pid!);
      const r = await load(s.url, duration);
      if (!r.requests.total)
        throw new Error(`${b.name}: no answer completed within ${duration} s (try a longer --duration)`);
      if (r.non2xx || r.errors || r.timeouts)
        throw new Error(`${b.name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      const row = {
        rps: r.requests.total / duration,
        p50: r.latency.p50,
        p99: r.latency.p99,
        cpuMs: ((cpuSeconds(s.proc.pid!) - c0) * 1000) / r.requests.total,
      };
      rows.get(b.name)!.push(row);
      console.log(
        `round ${round} ${b.name}: ${row.rps.toFixed(1)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.cpuMs.toFixed(2)} ms CPU/answer, ready in ${s.readyMs} ms, load ${loadAverage()}`,
      );
    } finally {
      s.proc.kill('SIGTERM');
      await new Promise((r) => s.proc.once('exit', r));
    }
  }
}

const ref = builds[0]!.name;
const refRps = median(rows.get(ref)!.map((r) => r.rps));
const refCpu = median(rows.get(ref)!.map((r) => r.cpuMs));
console.log(
  `\n| build | req/s (median of ${rounds}) | vs ${ref} | p50 ms | CPU ms / answer | vs ${ref} |\n|---|---:|---:|---:|---:|---:|`,
);
for (const [name, rs] of rows) {
  const rps = median(rs.map((r) => r.rps));
  const cpu = median(rs.map((r) => r.cpuMs));
  console.log(
    `| ${name} | ${rps.toFixed(1)} | ${(rps / refRps).toFixed(2)}x | ${median(rs.map((r) => r.p50))} | ${cpu.toFixed(2)} | ${(cpu / refCpu).toFixed(2)}x |`,
  );
}
console.log(`\nload average at the end: ${loadAverage()}`);
