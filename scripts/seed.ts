// `npm run seed -- --scale <tiny|demo|medium|large> [--seed N] [--drop]`: fills the configured store
// (MONGODB_URI, or the embedded engine under DATA_DIR) with generated data, showing progress as it goes:
// a bar per collection on a terminal, plain progress lines otherwise.
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { ConfigError, loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { runSeeders } from '../src/seed/index.js';
import { scales, type ScaleName, type SeedProgress } from '../src/seed/seeder.js';
import { allIndexes } from '../src/store/indexes.js';
import { Store } from '../src/store/store.js';

const USAGE =
  'usage: npm run seed -- --scale <tiny|demo|medium|large> [--seed <integer>] [--drop] [--only <seeder,...>]';

function fail(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

function parse(): { scale: ScaleName; seed?: number; drop: boolean; only?: string[] } {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        scale: { type: 'string', default: 'demo' },
        seed: { type: 'string' },
        drop: { type: 'boolean', default: false },
        only: { type: 'string' },
      },
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (!(values.scale! in scales)) fail(`unknown scale "${values.scale}"`);
  if (values.seed !== undefined && !/^[0-9]{1,10}$/.test(values.seed)) fail('--seed must be a non-negative integer');
  return {
    scale: values.scale as ScaleName,
    seed: values.seed === undefined ? undefined : Number(values.seed),
    drop: values.drop!,
    only: values.only
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** A bar per collection on a terminal; otherwise a line each time a collection passes another tenth. */
function progressReporter(): { progress: SeedProgress; stop(): void } {
  if (process.stderr.isTTY) {
    const bars = new cliProgress.MultiBar(
      {
        format: ' {collection} |{bar}| {percentage}% {value}/{total} ETA {eta_formatted}',
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    const byName = new Map<string, cliProgress.SingleBar>();
    return {
      progress: {
        advance(collection, inserted, total) {
          let bar = byName.get(collection);
          if (!bar) byName.set(collection, (bar = bars.create(total, 0, { collection: collection.padEnd(18) })));
          bar.increment(inserted);
        },
      },
      stop: () => bars.stop(),
    };
  }
  const done = new Map<string, number>();
  return {
    progress: {
      advance(collection, inserted, total) {
        const before = done.get(collection) ?? 0;
        const after = before + inserted;
        done.set(collection, after);
        if (Math.floor((after * 10) / total) > Math.floor((before * 10) / total) || after === total) {
          process.stdout.write(`seed: ${collection} ${after}/${total} (${Math.floor((after * 100) / total)}%)\n`);
        }
      },
    },
    stop: () => undefined,
  };
}

const mb = (bytes: number): string => `${Math.round(bytes / 1_048_576)} MiB`;

async function main(): Promise<void> {
  const args = parse();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  // On a terminal the bars own the screen: only warnings interrupt them.
  const log = createLogger(process.stderr.isTTY ? 'warn' : config.logLevel);
  // A batch job, not a request path: one large insert batch holds the engine's write transaction for seconds
  // at the large scale, which the service's 2 s store timeout would treat as an outage, and on a busy machine
  // for longer than the 30 s a request's command may wait: no socket timeout here.
  const store = await Store.open({ ...config.store, timeoutMs: 60_000 }, log, { socketTimeoutMs: 0 });
  try {
    const marker = await store.collection('settings').findOne({ _id: 'seed' });
    if (marker && !args.drop)
      fail(
        `the store "${config.store.dbName}" is already seeded (${JSON.stringify(marker.value)}); pass --drop to replace it`,
      );
    if (args.drop) {
      await store.db.dropDatabase();
      await store.ensureIndexes(allIndexes);
    }
    // The text index is built over the articles once they are written: sorted and appended in one pass, minutes
    // sooner at `large` than kept by every insert.
    const later = await store.setAsideDeferred(allIndexes);
    const started = performance.now();
    const reporter = progressReporter();
    const counts = await runSeeders(store, {
      scale: args.scale,
      seed: args.seed,
      log,
      progress: reporter.progress,
      only: args.only,
    });
    reporter.stop();
    if (later.length > 0) {
      const building = performance.now();
      process.stdout.write(
        `seed: building ${later.map((d) => d.options?.name).join(', ')} over the seeded documents\n`,
      );
      await store.ensureIndexes(later);
      for (const { name, error } of await store.indexBuilds)
        if (error) throw new Error(`the index ${name} could not be built: ${String(error)}`);
      process.stdout.write(`seed: built in ${((performance.now() - building) / 1000).toFixed(1)} s\n`);
    }
    const seconds = (performance.now() - started) / 1000;
    const memory = process.memoryUsage();
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    process.stdout.write(
      `seeded scale "${args.scale}" into "${config.store.dbName}" in ${seconds.toFixed(1)} s: ${total} documents\n` +
        `${Object.entries(counts)
          .map(([name, n]) => `  ${name}: ${n}`)
          .join('\n')}\n` +
        `process memory${store.embedded ? ' (embedded engine included)' : ''}: rss ${mb(memory.rss)}, heap ${mb(memory.heapUsed)}, buffers ${mb(memory.arrayBuffers)}\n`,
    );
  } finally {
    await store.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`seed failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
