// `npm run bench [-- --duration 10 --connections 50 --warmup 3 --rounds 1 --soak 60 --soak-connections 100
//                    --scale medium --data DIR --quick --only a,b --no-write --cpu-prof --service-flags=--max-semi-space-size=32 --service-env=GRAPHQL_JIT=true
//                    --store-timeout-ms 30000]`
// Builds nothing itself (the npm script builds first). Starts the engine as its own process on a temp
// dbpath, seeds it through the seed code, starts the service against it, records and checks one answer
// of every scenario, starts the two references (a plain node:http server replaying the gateway's exact
// bytes, and a hand-written node:http handler making the same store reads), then runs autocannon per
// scenario with every answer checked, a soak at 100 connections with the service's resident memory, and
// writes the figures into docs/PERFORMANCE.md. Every process it started is stopped at the end, failure or not.
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { record } from './answers.js';
import { recordGatewayAnswers } from './gateway-answers.js';
import type { LoadRequest } from './load.js';
import { log } from './log.js';
import { currentLoad, describeMachine } from './machine.js';
import { options } from './options.js';
import { outputTails, projectRoot, startFlags, stopAll } from './procs.js';
import { consoleTable, writeReport, type Report, type Row } from './report.js';
import { medianRows, runRounds, type Rounds } from './rounds.js';
import { refreshRequest, scenarioList, smallRequests } from './scenario-list.js';
import { nestedPostBody, productItemBody } from './scenarios.js';
import { runSoak } from './soak.js';
import {
  ensureCatalogue,
  sampleProductItemId,
  seed,
  seededCounts,
  startEngine,
  startService,
  type Service,
} from './stack.js';
import { startReferences } from './start-references.js';
import { benchTargets } from './targets.js';
import { demoAccessToken, RefreshTokenPool } from './tokens.js';
import { setExpectedBodies } from './wrong-answers.js';

async function main(): Promise<void> {
  const opts = options();
  const started = Date.now();
  const machine = describeMachine();
  log(
    `machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, load ${machine.loadBefore.join(' / ')}`,
  );
  if (machine.loadBefore[0]! > machine.cores * 0.5)
    log(
      `warning: the machine is busy (load ${machine.loadBefore[0]} on ${machine.cores} cores): figures will be low and noisy`,
    );

  const tempDir = opts.data ? undefined : mkdtempSync(join(tmpdir(), 'gateway-bench-'));
  cleanupDir = tempDir;
  const dbPath = opts.data ?? join(tempDir!, 'db');
  const checks: string[] = [];
  try {
    // --- engine, dataset, service -------------------------------------------------------------
    log(`engine: starting on ${dbPath}`);
    const profDir = join(projectRoot, 'dist/bench-profiles');
    const profile = (): string[] => (opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []);
    const engine = await startEngine(dbPath, profile());
    log(`engine: ${engine.uri} (pid ${engine.proc.pid})`);
    let seeded = await seededCounts(engine.uri);
    if (seeded)
      log(
        `dataset: already seeded, scale "${seeded.scale}" (${Object.values(seeded.counts).reduce((a, b) => a + b, 0)} documents)`,
      );
    else {
      log(`dataset: seeding scale "${opts.scale}" through the seed code (medium takes a few minutes)`);
      const t = Date.now();
      await seed(engine.uri, opts.scale, log);
      seeded = (await seededCounts(engine.uri))!;
      log(`dataset: seeded in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    }
    const catalogue = await ensureCatalogue(engine.uri);
    const datasetCounts = { ...seeded.counts, ...catalogue.counts };
    if (catalogue.inserted)
      log("dataset: the seed made no catalogue; inserted the benchmark's own (bench/catalogue.ts)");
    const scale = seeded.scale;
    const itemBody = productItemBody(await sampleProductItemId(engine.uri));

    // STORE_TIMEOUT_MS is also the driver's heartbeat timeout: the engine answers one command at a time,
    // and at medium scale some of the REST list's article counts take longer than the default 2 s, which
    // marks the store unreachable (503) mid-answer. The bench raises it (--store-timeout-ms; 2000 = default).
    const serviceEnv = { STORE_TIMEOUT_MS: String(opts.storeTimeoutMs), ...opts.serviceEnv };
    const service = await startService(engine.uri, serviceEnv, [...opts.serviceFlags, ...profile()]);
    log(`service: ${service.url} (pid ${service.proc.pid})`);

    // --- one checked answer of every scenario; the ceiling's fixtures --------------------------
    const answers = await recordGatewayAnswers(service.url, engine.uri, itemBody, checks);
    const { nestedPost, nestedCommands, restMiss, restCommands, categories, item } = answers;

    // The signed-in reader: the demo customer's token, the nested query as POST (what apps send). Minted when
    // its scenario comes, not before: on Node 20 the first OAuth request (oidc-provider's AsyncLocalStorage)
    // turns on async hooks for every promise of the process from then on, which the uncached rows before it
    // would otherwise pay.
    const signedIn: Record<string, string> = {};
    const signIn = async (): Promise<void> => {
      if (signedIn.authorization) return;
      signedIn.authorization = `Bearer ${await demoAccessToken(service.url)}`;
      await record(service.url, 'POST', '/graphql', signedIn, nestedPostBody);
      const answer = await record(service.url, 'POST', '/graphql', signedIn, nestedPostBody);
      if (answer.text !== nestedPost.text || answer.raw.get('x-cache') !== 'HIT') {
        throw new Error(
          `signed-in nested query: not a shared answer (x-cache ${answer.raw.get('x-cache')}, cache-control ${answer.raw.get('cache-control')}, same body: ${answer.text === nestedPost.text})`,
        );
      }
      checks.push(
        `signed-in nested query (POST with the demo customer's token): second answer shared (X-Cache: HIT, ${answer.raw.get('cache-control')}), same bytes as the anonymous answer`,
      );
    };

    // --- references -----------------------------------------------------------------------------
    const { ceiling, minimal, nestedSame, minimalNestedCommands, minimalRestCommands } = await startReferences(
      tempDir ?? tmpdir(),
      engine.uri,
      profile(),
      answers,
      checks,
    );
    for (const c of checks) log(`check: ${c}`);
    setExpectedBodies({ nested: nestedPost.text, rest: restMiss.text, categories: categories.text, item: item.text });

    // --- refresh tokens ------------------------------------------------------------------------
    // A run cut off by its end loses the tokens in flight (spent by the service, answer never read), so
    // the pool is topped up before every run that uses it.
    const pool = new RefreshTokenPool();
    const topUp = async (connections: number): Promise<void> => {
      const wanted = connections + 20;
      if (pool.size >= wanted) return;
      const t0 = performance.now();
      const minted = wanted - pool.size;
      await pool.fill(service.url, minted);
      log(
        `  tokens: ${minted} refresh tokens minted with the password grant in ${((performance.now() - t0) / 1000).toFixed(1)} s (pool ${pool.size})`,
      );
    };

    // --- scenarios --------------------------------------------------------------------------------
    const servers: Rounds['servers'] = {};
    const noCacheService = (): Service => servers.noCache!;
    const small = smallRequests(answers.smallIds, answers.smallAnswers);
    const refresh = (): LoadRequest => refreshRequest(pool);
    const all = scenarioList({
      opts,
      service,
      minimal,
      ceiling,
      noCacheService,
      embeddedService: () => servers.embedded!,
      answers,
      itemBody,
      signedIn,
      signIn,
      topUp,
      small,
      refresh,
    });
    const scenarios = all.filter((s) => !opts.only || opts.only.includes(s.key));

    const byKey = new Map<string, Row[]>();
    const rounds: Rounds = { opts, dbPath, serviceEnv, profile, engine, servers, noCacheService, byKey };
    await runRounds(
      scenarios.filter((s) => !s.embedded),
      rounds,
    );
    if (servers.noCache) {
      await servers.noCache.proc.stop();
      servers.noCache = undefined;
    }
    if (pool.starved) checks.push(`refresh token pool ran dry ${pool.starved} times (those requests failed)`);

    // --- soak ---------------------------------------------------------------------------------------
    const soak =
      opts.soak > 0 && (!opts.only || opts.only.includes('soak'))
        ? await runSoak({ opts, service, engine, answers, itemBody, refresh, topUp })
        : undefined;

    // --- `npm start`: the engine inside the service, on the same dataset ---------------------------
    const embeddedScenarios = scenarios.filter((s) => s.embedded);
    if (embeddedScenarios.length) {
      // One data directory opens in one engine: everything that reads the engine process stops first.
      for (const p of [service.proc, minimal.proc, ceiling.proc, engine.proc]) await p.stop();
      await runRounds(embeddedScenarios, rounds);
    }

    const rows = medianRows(scenarios, byKey);
    // --- targets and report -------------------------------------------------------------------
    const targets = benchTargets(rows, soak, { nestedSame, scale, connections: opts.connections });

    const report: Report = {
      machine,
      loadAfter: currentLoad(),
      scale,
      datasetCounts,
      ownCatalogue: catalogue.inserted,
      connections: opts.connections,
      durationSeconds: opts.duration,
      warmupSeconds: opts.warmup,
      rows,
      soak,
      targets,
      checks,
      commandCounts: {
        'nested query': { gateway: nestedCommands, minimal: minimalNestedCommands },
        'REST list': { gateway: restCommands, minimal: minimalRestCommands },
      },
      startedAt: new Date(started).toISOString().replace(/\.\d+Z$/, 'Z'),
      minutes: (Date.now() - started) / 60_000,
      startFlags: startFlags(),
      serviceFlags: opts.serviceFlags,
    };
    log('');
    log(consoleTable(rows));
    log('');
    for (const target of targets)
      log(
        `target ${target.met === null ? 'INFO   ' : target.met ? 'MET    ' : 'MISSED '} ${target.name}: ${target.reached} (goal ${target.goal})`,
      );
    writeFileSync(join(projectRoot, 'dist/bench-last.json'), JSON.stringify(report, null, 2));
    if (opts.write) {
      writeReport(opts.out, report);
      log(`\nwrote ${opts.out}`);
    } else log('\n(not written to docs: --quick or --no-write; raw figures in dist/bench-last.json)');
  } finally {
    await stopAll();
    removeTempDir();
  }
}

let cleanupDir: string | undefined;
function removeTempDir(): void {
  if (cleanupDir) rmSync(cleanupDir, { recursive: true, force: true });
  cleanupDir = undefined;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`\n${signal}: stopping every process`);
    void stopAll().finally(() => {
      removeTempDir();
      process.exit(130);
    });
  });
}

main().then(
  () => process.exit(0),
  async (err: unknown) => {
    process.stderr.write(
      `bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n\noutput of the processes:\n${outputTails()}\n`,
    );
    await stopAll();
    process.exit(1);
  },
);
