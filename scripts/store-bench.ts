// `npm run bench:store-tools -- [--scale medium] [--keep DIR]`: throughput (documents/s) of `store copy`,
// `dump` and `restore` on a freshly seeded embedded store, with the seeding itself measured in the same run
// as the reference (the engine's own insert rate). Everything lives in a temporary directory, removed at
// the end unless --keep names one. Not part of `npm test`; docs/deployment.md carries the figures.
import 'reflect-metadata';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createLogger } from '../src/logger.js';
import { runSeeders } from '../src/seed/index.js';
import { scales, type ScaleName } from '../src/seed/seeder.js';
import { Store } from '../src/store/store.js';
import { copyStore } from '../src/store/tools/copy.js';
import { dumpStore } from '../src/store/tools/dump.js';
import { openEndpoint, type Endpoint } from '../src/store/tools/endpoint.js';
import { noProgress } from '../src/store/tools/progress.js';
import { restoreStore } from '../src/store/tools/restore.js';

const { values } = parseArgs({ options: { scale: { type: 'string', default: 'medium' }, keep: { type: 'string' } } });
if (!(values.scale! in scales)) throw new Error(`unknown scale ${values.scale}`);
const work = values.keep ?? mkdtempSync(join(tmpdir(), 'store-bench-'));
const dir = (name: string) => join(work, name);
const rows: Array<[string, number, number]> = [];

async function timed(label: string, run: () => Promise<number>): Promise<void> {
  const started = performance.now();
  const documents = await run();
  const seconds = (performance.now() - started) / 1000;
  rows.push([label, documents, seconds]);
  process.stdout.write(
    `${label}: ${documents} documents in ${seconds.toFixed(1)} s (${Math.round(documents / seconds)}/s)\n`,
  );
}

/** The engine as its own process, as `npm run engine` runs it. */
async function standaloneEngine(dbPath: string): Promise<{ uri: string; stop(): Promise<void> }> {
  const cli = fileURLToPath(import.meta.resolve('@gateway/engine/cli'));
  const child = spawn(process.execPath, [cli, '--port', '0', '--dbpath', dbPath], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const uri = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8').trim()));
    child.once('exit', (code) => reject(new Error(`engine exited (${code})`)));
  });
  // Stopping waits for the engine's final snapshot, before the directory is removed.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { uri, stop: () => (child.kill('SIGTERM'), exited) };
}

async function main(): Promise<void> {
  const log = createLogger('warn');
  await timed(`reference: seed scale ${values.scale} into the embedded engine`, async () => {
    const store = await Store.open(
      { mode: 'disk', engineThread: false, dataDir: dir('source'), dbName: 'gateway', timeoutMs: 60_000 },
      log,
    );
    const counts = await runSeeders(store, { scale: values.scale as ScaleName, log });
    await store.close();
    return Object.values(counts).reduce((a, b) => a + b, 0) + 1;
  });
  const open = (where: string, mustHoldData = false) => openEndpoint(where, { dbName: 'gateway', mustHoldData });
  const using = async <T>(endpoints: Endpoint[], run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } finally {
      for (const e of endpoints) await e.close();
    }
  };
  const source = await open(dir('source'), true);
  await timed('copy: embedded directory -> embedded directory (same process)', async () => {
    const to = await open(dir('copy'));
    return using([to], async () => (await copyStore(source, to, { progress: noProgress })).documents);
  });
  const engine = await standaloneEngine(dir('standalone'));
  await timed('copy: embedded directory -> standalone engine (another process)', async () => {
    const to = await open(engine.uri);
    return using([to], async () => (await copyStore(source, to, { progress: noProgress })).documents);
  });
  const count = (r: { collections: Array<{ documents: number }> }) =>
    r.collections.reduce((n, c) => n + c.documents, 0);
  await timed('dump', async () => count(await dumpStore(source.db, dir('dump'), { progress: noProgress })));
  await timed('dump --gzip', async () =>
    count(await dumpStore(source.db, dir('dump-gz'), { gzip: true, progress: noProgress })),
  );
  await source.close();
  await timed('restore: files -> embedded directory', async () => {
    const to = await open(dir('restored'));
    return using([to], async () =>
      (await restoreStore(dir('dump'), to, { progress: noProgress })).collections.reduce(
        (n, c) => n + c.restored.count,
        0,
      ),
    );
  });
  await timed('restore: gzipped files -> standalone engine', async () => {
    const to = await open(engine.uri.replace('/?', '/restored?'));
    return using([to], async () =>
      (await restoreStore(dir('dump-gz'), to, { progress: noProgress })).collections.reduce(
        (n, c) => n + c.restored.count,
        0,
      ),
    );
  });
  await engine.stop();
  process.stdout.write(
    `\n| Command | Documents | Time | Documents/s |\n|---|---|---|---|\n${rows.map(([l, n, s]) => `| ${l} | ${n} | ${s.toFixed(1)} s | ${Math.round(n / s)} |`).join('\n')}\n`,
  );
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  });
