// `node dist/bench/compare.js --builds before=/copy/of/dist,after=dist --data DIR [--scenario nested|nested-pages|small]
//                               [--rounds 8] [--answers 150] [--connections 4] [--flags name="--a --b"]
//                               [--node-defaults]`
// Service CPU per answer of several builds back to back: one engine on a seeded data directory (a `--data` of
// `npm run bench`), each build's service beside the others against it with the response cache off, and the
// minimal handler; the services are asked in turn, the order reversed every round, and each round's CPU
// (user + system from /proc, GC threads included) is divided by its answers. Prints every round and the
// medians. `nested-pages` asks the nested query of every enabled page in turn instead of one page on every
// connection (concurrent requests then share fewer of the reads that leave together, src/store/shared-reads.ts). On a shared machine the rounds spread by 10–20%: compare medians of the same run only. Every process runs
// with the node flags of `npm start` (package.json's `start` script of the checkout its dist sits in; the minimal
// handler with this checkout's), then its `--flags`; `--node-defaults` leaves the start flags out.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NESTED_QUERY, NESTED_VARIABLES, nestedPostBody, SMALL_IDS, smallPostBody } from './scenarios.js';
import {
  cpuSeconds,
  freePort,
  nodeProc,
  sleep,
  startEntry,
  startFlags,
  stopAll,
  waitForHttp,
  type Proc,
} from './procs.js';
import { DB_NAME, enabledPageIds, sampleArticleIds, startEngine, startReference } from './stack.js';

const { values } = parseArgs({
  options: {
    builds: { type: 'string' },
    data: { type: 'string' },
    scenario: { type: 'string', default: 'nested' },
    rounds: { type: 'string', default: '8' },
    answers: { type: 'string' },
    connections: { type: 'string', default: '4' },
    flags: { type: 'string', multiple: true, default: [] },
    'node-defaults': { type: 'boolean', default: false },
    /** Writes each process's stdout to DIR/<name>.out at the end (e.g. with `--flags name=--trace-gc`). */
    out: { type: 'string' },
  },
});
if (!values.builds || !values.data)
  throw new Error('--builds name=distDir,... and --data DIR (a seeded bench data directory) are required');
const small = values.scenario === 'small';
const answers = Number(values.answers ?? (small ? 1500 : 150));
const connections = Number(values.connections);
const flagsOf = new Map(values.flags.map((f) => f.split(/=(.*)/s).slice(0, 2) as [string, string]));
const nodeFlags = (name: string, checkout?: string): string[] => [
  ...(values['node-defaults'] ? [] : startFlags(checkout)),
  ...(flagsOf.get(name)?.split(' ').filter(Boolean) ?? []),
];

interface Target {
  name: string;
  url: string;
  proc: Proc;
}

async function main(): Promise<void> {
  const engine = await startEngine(values.data!);
  const targets: Target[] = [];
  for (const spec of values.builds!.split(',')) {
    const [name, dist] = spec.split(/=(.*)/s) as [string, string];
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      NODE_ENV: 'production',
      MONGODB_URI: engine.uri,
      MONGODB_DB: DB_NAME,
      SEED: 'none',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      RESPONSE_CACHE_MB: '0',
    };
    const proc = nodeProc(name, startEntry(join(dist, '..')), [], env, nodeFlags(name, join(dist, '..')));
    await waitForHttp(proc, `${url}/readyz`, 120_000);
    targets.push({ name, url, proc });
  }
  const minimal = await startReference(
    'minimal',
    ['--uri', engine.uri, '--db', DB_NAME],
    flagsOf.get('minimal')?.split(' ').filter(Boolean) ?? [],
    !values['node-defaults'],
  );
  targets.push({ name: 'minimal', url: minimal.url, proc: minimal.proc });

  // The small query asks for SMALL_IDS articles in turn (bench/scenarios.ts), the nested one for the same page, or
  // for each enabled page in turn.
  const bodies = small
    ? (await sampleArticleIds(engine.uri, SMALL_IDS)).map(smallPostBody)
    : values.scenario === 'nested-pages'
      ? (await enabledPageIds(engine.uri)).map((id) =>
          JSON.stringify({ query: NESTED_QUERY, variables: { ...NESTED_VARIABLES, id } }),
        )
      : [nestedPostBody];
  const once = async (t: Target, body = bodies[0]!): Promise<string> => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${t.name} answered ${res.status}: ${text.slice(0, 300)}`);
    return text;
  };
  let next = 0;
  const burst = async (t: Target, n: number): Promise<void> => {
    let left = n;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (left-- > 0) await once(t, bodies[next++ % bodies.length]);
      }),
    );
  };
  // Every target's answers equal the minimal handler's (the first ten bodies).
  for (const body of bodies.slice(0, 10)) {
    const reference = await once(targets.at(-1)!, body);
    for (const t of targets)
      if ((await once(t, body)) !== reference) throw new Error(`${t.name}'s answer differs from the minimal handler's`);
  }
  for (const t of targets) await burst(t, Math.ceil(answers / 2)); // warm-up
  const perRound = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      await sleep(300);
      const before = cpuSeconds(t.proc.pid)!;
      await burst(t, answers);
      perRound.get(t.name)!.push(((cpuSeconds(t.proc.pid)! - before) * 1000) / answers);
    }
    process.stdout.write(
      `round ${round}: ${targets.map((t) => `${t.name} ${perRound.get(t.name)!.at(-1)!.toFixed(3)}`).join('  ')}  (load ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})\n`,
    );
  }
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const min = median(perRound.get('minimal')!);
  for (const t of targets) {
    const m = median(perRound.get(t.name)!);
    process.stdout.write(
      `${t.name}: median ${m.toFixed(3)} ms CPU per answer${t.name === 'minimal' ? '' : `, ${(m / min).toFixed(2)}x the minimal handler's`}\n`,
    );
    if (values.out) writeFileSync(join(values.out, `${t.name}.out`), t.proc.out());
  }
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
