// `npm run bench:startup [-- --runs 5] [--data DIR]`: spawn to readiness of the service as `npm start` runs it.
// Each run spawns the start bundle on an empty in-memory store (or on a seeded data directory with --data),
// polls /readyz every 10 ms, then asks one GraphQL query; it reports the time to /readyz 200, to that first
// answer, and the process's CPU (every thread) when /readyz first answered, read from /proc.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { freePort, startEntry, startFlags } from './procs.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, data: { type: 'string' } } });
const FIRST_QUERY = '{ pages(first: 1) { edges { node { id } } } }';

/** CPU time (user + system, every thread) the process has used, in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function once(): Promise<{ ready: number; first: number; cpu: number }> {
  const port = await freePort();
  const store = values.data ? { STORE: 'disk', DATA_DIR: values.data } : { STORE: 'memory' };
  const env = { ...process.env, ...store, SEED: 'none', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const started = performance.now();
  const child = spawn(process.execPath, [...startFlags(), startEntry()], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
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
    const answer = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: FIRST_QUERY }),
    });
    if (answer.status !== 200) throw new Error(`the first query answered ${answer.status}`);
    await answer.arrayBuffer();
    return { ready, first: performance.now() - started, cpu };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

const runs: Awaited<ReturnType<typeof once>>[] = [];
for (let i = 0; i < Number(values.runs); i++) runs.push(await once());
const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const r of runs)
  console.log(`ready ${r.ready.toFixed(0)} ms, first answer ${r.first.toFixed(0)} ms, CPU at ready ${r.cpu} ms`);
console.log(
  `median of ${runs.length}: ready ${median(runs.map((r) => r.ready)).toFixed(0)} ms, first answer ` +
    `${median(runs.map((r) => r.first)).toFixed(0)} ms, CPU at ready ${median(runs.map((r) => r.cpu))} ms ` +
    `(${values.data ? values.data : 'empty in-memory store'}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})`,
);
