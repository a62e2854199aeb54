// Command-line runner: `node dist/src/cli.js --port 27017 --dbpath ./data [--host 127.0.0.1]`
// [--setParameter enableTestCommands=1] (mongod's test commands: the failCommand fail point)
// [--setParameter maxIndexBuildMemoryUsageMegabytes=200] (what an index build's sorter holds in memory, about)
// [--setParameter parallelFacetsFrom=2048] (matches from which a search's facets are counted on two threads; 0: never).
// Prints one line with the URI once listening; on SIGTERM/SIGINT closes cleanly and exits 0.
// `--migrate <dir>` converts a data directory of the former format (snapshot + log) or of an earlier LMDB layout
// to the current one and exits.
import { parseArgs } from 'node:util';
import { startEngine } from './index.js';
import { BACKUP_DIR, isLegacyDir, migrateLegacy } from './persist/legacy.js';
import { LAYOUT_BACKUP_DIR, migrateLayout } from './persist/layout.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '27017' },
      dbpath: { type: 'string' },
      'ttl-interval-ms': { type: 'string' },
      'max-changes': { type: 'string' },
      migrate: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      // mongod's spelling: --setParameter name=value (enableTestCommands, maxIndexBuildMemoryUsageMegabytes,
      // and the engine's own parallelFacetsFrom).
      setParameter: { type: 'string', multiple: true },
    },
  });
  if (values.migrate !== undefined) {
    const dir = values.migrate;
    const progress = (msg: string, f?: Record<string, unknown>): boolean =>
      process.stderr.write(`${JSON.stringify({ msg, ...f })}\n`);
    const legacy = isLegacyDir(dir);
    const res = legacy ? await migrateLegacy(dir, progress) : await migrateLayout(dir, progress);
    process.stdout.write(
      `migrated ${dir}: ${res.collections} collections, ${res.documents} documents in ${(res.ms / 1000).toFixed(1)} s; ` +
        `the former files are in ${dir}/${legacy ? BACKUP_DIR : LAYOUT_BACKUP_DIR}/ (delete it once satisfied)\n`,
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid --port ${values.port}`);
  const log = values.verbose
    ? (msg: string, fields?: Record<string, unknown>) =>
        process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), msg, ...fields })}\n`)
    : undefined;
  const parameters = serverParameters(values.setParameter ?? []);
  const engine = await startEngine({
    ...parameters,
    host: values.host,
    port,
    dbPath: values.dbpath,
    log,
    ttlIntervalMs: values['ttl-interval-ms'] ? Number(values['ttl-interval-ms']) : undefined,
    maxChanges: values['max-changes'] ? Number(values['max-changes']) : undefined,
  });
  process.stdout.write(`${engine.uri}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    engine.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`error while closing: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** The `--setParameter name=value` this engine takes: enableTestCommands (`1` or `true`),
 *  maxIndexBuildMemoryUsageMegabytes (a positive number) and parallelFacetsFrom (a whole number, 0 for never); any
 *  other parameter is refused. */
function serverParameters(parameters: string[]): {
  testCommands: boolean;
  indexBuildMemoryMB?: number;
  parallelFacetsFrom?: number;
} {
  const out: { testCommands: boolean; indexBuildMemoryMB?: number; parallelFacetsFrom?: number } = {
    testCommands: false,
  };
  for (const p of parameters) {
    const [name, value = ''] = p.split('=');
    if (name === 'enableTestCommands') out.testCommands = value === '1' || value === 'true';
    else if (name === 'maxIndexBuildMemoryUsageMegabytes') {
      const mb = Number(value);
      if (!(mb > 0)) throw new Error(`invalid --setParameter ${p}: a positive number of megabytes`);
      out.indexBuildMemoryMB = mb;
    } else if (name === 'parallelFacetsFrom') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0 || value === '')
        throw new Error(`invalid --setParameter ${p}: a whole number of matches (0: never)`);
      out.parallelFacetsFrom = n;
    } else
      throw new Error(
        `unknown --setParameter ${name ?? ''}: this engine takes enableTestCommands, maxIndexBuildMemoryUsageMegabytes and parallelFacetsFrom`,
      );
  }
  return out;
}

main().catch((e: unknown) => {
  const what = process.argv.includes('--migrate') ? 'migration failed' : 'engine failed to start';
  process.stderr.write(`${what}: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
