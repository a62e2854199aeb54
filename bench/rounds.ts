// Scenarios measured in rounds: the servers a scenario needs started, a warm-up, then the measured run with
// the CPU each process spent per answer; each scenario's row is then its median round.
import { runLoad } from './load.js';
import { log } from './log.js';
import { currentLoad } from './machine.js';
import type { BenchOptions } from './options.js';
import { cpuSeconds, settle, sleep, type Proc } from './procs.js';
import type { Row } from './report.js';
import type { Scenario } from './scenario-list.js';
import { startEmbeddedService, startService, type Service } from './stack.js';
import { keepWrongAnswer } from './wrong-answers.js';

/**
 * A cached scenario must not see its stored answer expire mid-run (the cache keeps answers for the
 * max-age they were given). Asks once; when the stored answer is too old to outlive the run, waits until
 * it expires and asks again, which stores a fresh one. Returns the answer's headers.
 */
async function freshCacheEntry(
  base: string,
  path: string,
  headers: Record<string, string>,
  neededSeconds: number,
  body?: string,
): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await fetch(
      `${base}${path}`,
      body === undefined
        ? { headers }
        : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body },
    );
    await res.arrayBuffer();
    const age = Number(res.headers.get('age') ?? 0);
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1] ?? 0);
    if (res.headers.get('x-cache') === 'MISS' || maxAge - age > neededSeconds) return;
    log(
      `  (stored answer of ${path.slice(0, 40)} is ${age} s old; waiting ${maxAge - age + 1} s for it to expire so the run starts with a fresh one)`,
    );
    await sleep((maxAge - age + 1) * 1000);
  }
}

const procsOf = (s: Scenario, engine: { proc: Proc }): Record<string, Proc> =>
  s.embedded
    ? { service: s.target().proc }
    : {
        ...(s.server === 'gateway' ? { service: s.target().proc } : { reference: s.target().proc }),
        engine: engine.proc,
      };

/** What the rounds run on, and where their rows go. */
export interface Rounds {
  opts: BenchOptions;
  dbPath: string;
  serviceEnv: Record<string, string>;
  profile: () => string[];
  engine: { proc: Proc; uri: string };
  /** Started on demand: the service without response cache, the service with its embedded engine. */
  servers: { noCache?: Service; embedded?: Service };
  noCacheService: () => Service;
  /** Every round's row of each scenario. */
  byKey: Map<string, Row[]>;
}

export async function runRounds(list: Scenario[], c: Rounds): Promise<void> {
  const { opts, dbPath, serviceEnv, profile, engine, servers, noCacheService, byKey } = c;
  for (let round = 1; round <= opts.rounds; round++) {
    if (opts.rounds > 1 && list.length) log(`round ${round} of ${opts.rounds}`);
    for (const s of list) {
      if (s.embedded) {
        await servers.embedded?.proc.stop();
        const t0 = Date.now();
        servers.embedded = await startEmbeddedService(
          dbPath,
          { ...serviceEnv, ...s.embedded },
          [...opts.serviceFlags, ...profile()],
          `service-${s.key}`,
        );
        log(
          `service with its embedded engine (${s.key}): ${servers.embedded.url} (pid ${servers.embedded.proc.pid}), ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
        );
      }
      if (s.target === noCacheService && !servers.noCache) {
        servers.noCache = await startService(
          engine.uri,
          { ...serviceEnv, RESPONSE_CACHE_MB: '0' },
          opts.serviceFlags,
          'service-nocache',
        );
        log(`service without response cache: ${servers.noCache.url} (pid ${servers.noCache.proc.pid})`);
      }
      const connections = s.connections ?? opts.connections;
      const base = s.target().url;
      await s.before?.(connections);
      if (s.cached)
        await freshCacheEntry(base, s.cached.path, s.cached.headers, opts.warmup + opts.duration + 5, s.cached.body);
      const procs = procsOf(s, engine);
      await settle(Object.values(procs));
      const warmupSeconds = s.heavy && !opts.quick ? Math.max(opts.warmup, 8) : opts.warmup;
      const durationSeconds = s.heavy && !opts.quick ? 2 * opts.duration : opts.duration;
      const warm = await runLoad({
        url: base,
        requests: s.requests(),
        connections,
        durationSeconds: warmupSeconds,
        timeoutSeconds: s.timeoutSeconds,
      });
      await s.before?.(connections);
      await settle(Object.values(procs));
      const cpuBefore = Object.fromEntries(Object.entries(procs).map(([k, p]) => [k, cpuSeconds(p.pid) ?? NaN]));
      const benchBefore = process.cpuUsage();
      const result = await runLoad({
        url: base,
        requests: s.requests(),
        connections,
        durationSeconds,
        timeoutSeconds: s.timeoutSeconds,
      });
      const benchCpu = process.cpuUsage(benchBefore);
      const answers = Math.max(1, result.answers);
      const cpuPerAnswerMs: Record<string, number> = Object.fromEntries(
        Object.entries(procs).map(([k, p]) => [k, (((cpuSeconds(p.pid) ?? NaN) - cpuBefore[k]!) * 1000) / answers]),
      );
      cpuPerAnswerMs.bench = (benchCpu.user + benchCpu.system) / 1000 / answers;
      const load1 = currentLoad()[0]!;
      const note = result.answers === 0 ? `no answer completed within the run${s.note ? `; ${s.note}` : ''}` : s.note;
      const row: Row = {
        key: s.key,
        label: s.label,
        server: s.server,
        result,
        ceiling: s.ceiling,
        minimal: s.minimal,
        cpuPerAnswerMs,
        note,
        load1,
      };
      byKey.set(s.key, [...(byKey.get(s.key) ?? []), row]);
      log(
        `${s.key.padEnd(20)} ${result.rps.toFixed(0).padStart(7)} req/s  p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  ` +
          `wrong ${result.failed}  errors ${result.errors}  (warm-up ${warm.rps.toFixed(0)} req/s, ${warm.failed + warm.errors} wrong/errors)`,
      );
      for (const sample of [...warm.samples, ...result.samples].slice(0, 3)) log(`    ${sample}`);
      keepWrongAnswer(`${s.key}-round${round}`, warm.firstWrongBody ?? result.firstWrongBody);
      if (s.embedded) {
        await servers.embedded?.proc.stop();
        servers.embedded = undefined;
      }
    }
  }
}

export function medianRows(scenarios: Scenario[], byKey: Map<string, Row[]>): Row[] {
  const rows: Row[] = [];
  // Each scenario's row is its median round (by req/s), every round's req/s kept for the report; a
  // ratio to a reference is taken within each round (the two ran minutes apart at most) and its median kept.
  const median = (xs: number[]): number | undefined => {
    const sorted = xs.filter(Number.isFinite).sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : undefined;
  };
  const ratioOf = (key: string, ref: string | undefined): number | undefined => {
    if (!ref) return undefined;
    const mine = byKey.get(key) ?? [];
    const theirs = byKey.get(ref) ?? [];
    return median(
      mine.flatMap((r, i) => (theirs[i] && theirs[i]!.result.rps > 0 ? [r.result.rps / theirs[i]!.result.rps] : [])),
    );
  };
  for (const s of scenarios) {
    const runs = byKey.get(s.key) ?? [];
    if (!runs.length) continue;
    const sorted = [...runs].sort((a, b) => a.result.rps - b.result.rps);
    rows.push({
      ...sorted[Math.floor((sorted.length - 1) / 2)]!,
      roundsRps: runs.map((r) => r.result.rps),
      vsCeiling: ratioOf(s.key, s.ceiling),
      vsMinimal: ratioOf(s.key, s.minimal),
    });
  }
  return rows;
}
