// The soak: every scenario at once on the service for a long run, with the service's memory after the warm-up
// and at the end.
import type { GatewayAnswers } from './gateway-answers.js';
import { runLoad, type LoadRequest } from './load.js';
import { log } from './log.js';
import type { BenchOptions } from './options.js';
import { rssMiB, settle, sleep, type Proc } from './procs.js';
import type { Soak } from './report.js';
import { get, post } from './scenario-list.js';
import { categoriesPath, graphqlGetHeaders, nestedGetPath, nestedPostBody, restListPath } from './scenarios.js';
import type { Service } from './stack.js';
import { keepWrongAnswer } from './wrong-answers.js';

/** How long the soak leaves the service idle before reading its memory, after the warm-up and after the run. */
const IDLE_SECONDS = 15;

/** Where the service's memory is (MiB), from its own /metrics: V8 heap used and committed, memory outside the heap. */
async function heapOf(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const metric = (name: string): number => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? NaN) / 2 ** 20;
  return {
    'heap used': metric('nodejs_heap_size_used_bytes'),
    'heap total': metric('nodejs_heap_size_total_bytes'),
    external: metric('nodejs_external_memory_bytes'),
  };
}

/** What the soak runs on. */
export interface SoakContext {
  opts: BenchOptions;
  service: Service;
  engine: { proc: Proc };
  answers: GatewayAnswers;
  itemBody: string;
  refresh: () => LoadRequest;
  topUp: (connections: number) => Promise<void>;
}

export async function runSoak(c: SoakContext): Promise<Soak> {
  const { opts, service, engine, itemBody, refresh, topUp } = c;
  const { nestedPost, restMiss, categories, item } = c.answers;
  // Every scenario at once, each with its share of the connections: one autocannon instance per part,
  // so a connection repeats one request and slow answers (uncached nested query) do not hold back the rest.
  const shares: Array<[string, number, () => LoadRequest]> = [
    ['nested query, uncached (POST)', 0.1, () => post('/graphql', nestedPostBody, nestedPost.text)],
    ['nested query, cached (GET)', 0.3, () => get(nestedGetPath, nestedPost.text, graphqlGetHeaders)],
    ['REST list, cached', 0.2, () => get(restListPath, restMiss.text)],
    ['product categories, cached', 0.15, () => get(categoriesPath, categories.text)],
    ['productItem lookup', 0.15, () => post('/graphql', itemBody, item.text)],
    ['refresh_token grant', 0.1, refresh],
  ];
  const parts = shares.map(([label, share, request]) => ({
    label,
    connections: Math.max(1, Math.round(share * opts.soakConnections)),
    request,
  }));
  const connections = parts.reduce((n, p) => n + p.connections, 0);
  const runParts = (seconds: number) =>
    Promise.all(
      parts.map((p) =>
        runLoad({
          url: service.url,
          requests: [p.request()],
          connections: p.connections,
          durationSeconds: seconds,
          timeoutSeconds: 30,
        }),
      ),
    );
  // Long enough for the heap to reach its working size (and for the allocations of minting tokens to be
  // behind it), so that "after warm-up" is a steady state rather than a peak.
  const warmSeconds = opts.quick ? 3 : 30;
  log(
    `soak: ${warmSeconds} s warm-up, then ${opts.soak} s at ${connections} connections (${parts.map((p) => `${p.connections} ${p.label}`).join(', ')})`,
  );
  // Enough tokens for the warm-up and the run, so no password grant (Argon2) runs between them.
  await topUp(2 * connections);
  const service0 = [service.proc, engine.proc];
  await settle(service0);
  const warm = await runParts(warmSeconds);
  const rssAfterWarmupLoadedMiB = rssMiB(service.proc.pid)!;
  await settle(service0);
  // Idle long enough for V8's memory reducer (it runs a full GC once the process has been idle some
  // seconds): the two figures are compared at the same point of the heap's cycle, not at a peak and a trough.
  await sleep(IDLE_SECONDS * 1000);
  const rssAfterWarmupMiB = rssMiB(service.proc.pid)!;
  const engineRssAfterWarmupMiB = rssMiB(engine.proc.pid);
  const heapAfterWarmup = await heapOf(service.url);
  const samples: number[] = [];
  const sampler = setInterval(() => {
    const rss = rssMiB(service.proc.pid);
    if (rss !== null) samples.push(rss);
  }, 2000);
  const results = await runParts(opts.soak).finally(() => clearInterval(sampler));
  const rssEndLoadedMiB = rssMiB(service.proc.pid)!;
  const engineRssEndMiB = rssMiB(engine.proc.pid);
  await settle(service0);
  await sleep(IDLE_SECONDS * 1000);
  const rssEndMiB = rssMiB(service.proc.pid)!;
  const heapEnd = await heapOf(service.url);
  log(
    `soak: service memory once idle, after the warm-up -> after the run: ${Object.keys(heapEnd)
      .map((k) => `${k} ${heapAfterWarmup[k]?.toFixed(1)} -> ${heapEnd[k]?.toFixed(1)} MiB`)
      .join(', ')}`,
  );
  const soak: Soak = {
    connections,
    seconds: opts.soak,
    warmupSeconds: warmSeconds,
    parts: parts.map((p, i) => ({ label: p.label, result: results[i]! })),
    rssAfterWarmupLoadedMiB,
    rssEndLoadedMiB,
    rssAfterWarmupMiB,
    rssEndMiB,
    rssDuringMiB: samples,
    engineRssAfterWarmupMiB,
    engineRssEndMiB,
  };
  const sum = (f: (r: (typeof results)[number]) => number): number => results.reduce((n, r) => n + f(r), 0);
  log(
    `soak: ${sum((r) => r.rps).toFixed(0)} req/s, wrong ${sum((r) => r.failed)}, errors ${sum((r) => r.errors)}, ` +
      `RSS ${rssAfterWarmupMiB.toFixed(1)} -> ${rssEndMiB.toFixed(1)} MiB idle (${rssAfterWarmupLoadedMiB.toFixed(1)} -> ${rssEndLoadedMiB.toFixed(1)} under load); ` +
      `warm-up: ${warm.reduce((n, r) => n + r.failed + r.errors, 0)} wrong/errors`,
  );
  for (const r of results)
    log(`    ${r.connections} conns: ${r.rps.toFixed(0)} req/s p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms`);
  for (const sample of [...warm, ...results].flatMap((r) => r.samples).slice(0, 3)) log(`    ${sample}`);
  [...warm, ...results].forEach((r, i) => keepWrongAnswer(`soak-${i}`, r.firstWrongBody));
  return soak;
}
