// `npm run bench:startup [-- --runs 5] [--data DIR [--due N] [--cold]]`: spawn to readiness of the service as
// `npm start` runs it. Each run spawns the start bundle on an empty in-memory store (or on a seeded data directory
// with --data), polls /readyz every 10 ms, then asks one GraphQL query; it reports the time to /readyz 200, to that
// first answer, and the process's CPU (every thread) when /readyz first answered, read from /proc.
// - --due N: before each run, N published articles of DIR are made scheduled an hour ago (the engine alone on
//   DIR), so the start finds a backlog for the publication clock, as after a long stop.
// - --cold: before each run, the page cache is dropped (`/proc/sys/vm/drop_caches`, as root): a start after a
//   reboot, every page read from the disk.
// With --data, a client of its own pings the embedded engine every 100 ms from its first log line to /readyz: the
// longest ping is how long the engine kept the service's own driver waiting (its monitor gives up after
// STORE_TIMEOUT_MS, 2 s by default).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { freePort, nodeProc, projectRoot, startEntry, startFlags, waitForOutput } from './procs.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    data: { type: 'string' },
    due: { type: 'string', default: '0' },
    cold: { type: 'boolean', default: false },
  },
});
const due = Number(values.due);
if ((due > 0 || values.cold) && !values.data) throw new Error('--due and --cold need --data DIR');

/** N published articles of DIR made scheduled an hour ago, by the engine alone on DIR. */
async function makeDue(dir: string, n: number): Promise<void> {
  const engine = nodeProc(
    'engine',
    join(projectRoot, 'packages/engine/dist/src/cli.js'),
    ['--port', '0', '--dbpath', dir],
    {},
  );
  try {
    const uri = (await waitForOutput(engine, (out) => out.includes('\n'), 300_000)).split('\n')[0]!.trim();
    const client = await MongoClient.connect(uri, { socketTimeoutMS: 0 });
    try {
      const articles = client.db(process.env.MONGODB_DB ?? 'gateway').collection<{ _id: string }>('articles');
      const ids = (await articles.find({ status: 'published' }, { projection: { _id: 1 }, limit: n }).toArray()).map(
        (d) => d._id,
      );
      await articles.updateMany(
        { _id: { $in: ids } },
        { $set: { status: 'scheduled', publishAt: new Date(Date.now() - 3_600_000) } },
      );
    } finally {
      await client.close();
    }
  } finally {
    await engine.stop();
  }
}

/** Pings the engine at the port the service's first log lines name, every 100 ms; the longest wait, in ms. */
function pingEngine(log: NodeJS.ReadableStream): { longest: () => number; stop: () => Promise<void> } {
  let longest = 0;
  let stopped = false;
  let done: Promise<void> = Promise.resolve();
  let seen = '';
  const onData = (chunk: Buffer): void => {
    seen += String(chunk);
    const port = /"port":(\d+)[^\n]*"msg":"engine listening"/.exec(seen)?.[1];
    if (!port) return;
    log.off('data', onData);
    done = (async () => {
      const client = new MongoClient(`mongodb://127.0.0.1:${port}/?directConnection=true`, {
        serverSelectionTimeoutMS: 60_000,
        socketTimeoutMS: 60_000,
      });
      try {
        while (!stopped) {
          const started = performance.now();
          await client.db('admin').command({ ping: 1 });
          longest = Math.max(longest, performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await client.close();
      }
    })().catch(() => undefined);
  };
  log.on('data', onData);
  return {
    longest: () => longest,
    stop: async () => {
      stopped = true;
      await done;
    },
  };
}
const FIRST_QUERY = '{ pages(first: 1) { edges { node { id } } } }';

/** CPU time (user + system, every thread) the process has used, in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function once(): Promise<{ ready: number; first: number; cpu: number; ping?: number }> {
  if (values.data && due > 0) await makeDue(values.data, due);
  if (values.cold) {
    execFileSync('sync');
    writeFileSync('/proc/sys/vm/drop_caches', '3\n');
  }
  const port = await freePort();
  const store = values.data ? { STORE: 'disk', DATA_DIR: values.data } : { STORE: 'memory' };
  // info: the engine's port is in its first log line (for the pings).
  const level = values.data ? 'info' : 'warn';
  const env = { ...process.env, ...store, SEED: 'none', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: level };
  const started = performance.now();
  const child = spawn(process.execPath, [...startFlags(), startEntry()], {
    env,
    stdio: ['ignore', values.data ? 'pipe' : 'ignore', 'inherit'],
  });
  const pings = values.data ? pingEngine(child.stdout!) : undefined;
  child.stdout?.resume();
  const url = `http://127.0.0.1:${port}`;
  try {
    for (;;) {
      const status = await fetch(`${url}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) break;
      if (child.exitCode !== null) throw new Error(`the service exited (${child.exitCode}) before it was ready`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const ready = performance.now() - started;
    const cpu = cpuMs(child.pid!);
    await pings?.stop();
    const answer = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: FIRST_QUERY }),
    });
    if (answer.status !== 200) throw new Error(`the first query answered ${answer.status}`);
    await answer.arrayBuffer();
    return { ready, first: performance.now() - started, cpu, ping: pings?.longest() };
  } finally {
    await pings?.stop();
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const runs: Awaited<ReturnType<typeof once>>[] = [];
for (let i = 0; i < Number(values.runs); i++) runs.push(await once());
const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pinged = (r: { ping?: number }): string =>
  r.ping === undefined ? '' : `, longest engine ping ${r.ping.toFixed(0)} ms`;
for (const r of runs)
  console.log(
    `ready ${r.ready.toFixed(0)} ms, first answer ${r.first.toFixed(0)} ms, CPU at ready ${r.cpu} ms${pinged(r)}`,
  );
console.log(
  `median of ${runs.length}: ready ${median(runs.map((r) => r.ready)).toFixed(0)} ms, first answer ` +
    `${median(runs.map((r) => r.first)).toFixed(0)} ms, CPU at ready ${median(runs.map((r) => r.cpu))} ms` +
    `${values.data ? `, longest engine ping ${Math.max(...runs.map((r) => r.ping ?? 0)).toFixed(0)} ms` : ''} ` +
    `(${values.data ? `${values.data}${due ? `, ${due} more due each run` : ''}${values.cold ? ', cold' : ''}` : 'empty in-memory store'}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
);
