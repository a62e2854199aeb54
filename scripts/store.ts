// `npm run store -- copy|dump|restore ...`: moves a store's data through the driver (see docs/deployment.md,
// "Outgrowing one machine"). A store is a mongodb:// URI or an embedded engine's data directory; dump and
// restore default to the configured one (MONGODB_URI, or DATA_DIR). Progress goes to stderr, the summary to
// stdout; exit 0 when every collection checks out, 1 on a failure or a difference, 2 on a usage error.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { copyStore, type CollectionCheck } from '../src/store/tools/copy.js';
import { dumpStore } from '../src/store/tools/dump.js';
import { openEndpoint, configuredStore, type Endpoint } from '../src/store/tools/endpoint.js';
import { ToolError } from '../src/store/tools/errors.js';
import { progressFor, noProgress } from '../src/store/tools/progress.js';
import { restoreStore } from '../src/store/tools/restore.js';
import { SECRET_COLLECTIONS, SECRET_SETTINGS, splitList, type SelectionOptions } from '../src/store/tools/selection.js';

const USAGE = `usage:
  npm run store -- copy --from <uri|data dir> --to <uri|data dir> [--drop | --resume] [selection] [--db <name>] [--batch-size <n>]
  npm run store -- dump [--from <uri|data dir>] --out <dir> [--gzip] [selection] [--db <name>]
  npm run store -- restore [--to <uri|data dir>] --in <dir> [--drop] [--source-db <name>] [selection] [--db <name>]
selection:
  --only a,b        just these collections
  --exclude a,b     every collection but these
  --no-secrets      leave out ${SECRET_COLLECTIONS.join(', ')} and the ${SECRET_SETTINGS.join('/')} settings
--db: the database when a URI names none (default MONGODB_DB, else gateway); dump/restore without --from/--to
use the configured store (MONGODB_URI, or the embedded one at DATA_DIR: stop the service first).
--quiet: no progress output.`;

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

const options = {
  from: { type: 'string' },
  to: { type: 'string' },
  out: { type: 'string' },
  in: { type: 'string' },
  db: { type: 'string' },
  'source-db': { type: 'string' },
  only: { type: 'string' },
  exclude: { type: 'string' },
  'no-secrets': { type: 'boolean' },
  drop: { type: 'boolean' },
  resume: { type: 'boolean' },
  gzip: { type: 'boolean' },
  'batch-size': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>['values'];

function parse(): { command: string; values: Values } {
  try {
    const { values, positionals } = parseArgs({ options, allowPositionals: true });
    if (values.help) {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (positionals.length !== 1 || !['copy', 'dump', 'restore'].includes(positionals[0]!))
      usage('give one command: copy, dump or restore');
    return { command: positionals[0]!, values };
  } catch (err) {
    usage((err as Error).message);
  }
}

function storeConfig(): Config['store'] {
  try {
    return loadConfig().store;
  } catch (err) {
    if (err instanceof ConfigError) usage(err.message);
    throw err;
  }
}

const selection = (v: Values): SelectionOptions => ({
  only: splitList(v.only),
  exclude: splitList(v.exclude),
  noSecrets: v['no-secrets'],
});

function batchSize(v: Values): number {
  const n = Number(v['batch-size'] ?? 1000);
  if (!Number.isInteger(n) || n < 1 || n > 100_000) usage('--batch-size must be an integer from 1 to 100000');
  return n;
}

const rate = (n: number, seconds: number): string =>
  `${n} documents in ${seconds.toFixed(1)} s (${Math.round(n / Math.max(seconds, 0.001))}/s)`;

function checkTable(rows: Array<{ name: string; count: number; expected: number; same: boolean }>): string {
  return rows
    .map(
      (r) =>
        `  ${r.same ? 'same' : 'DIFFERS'}  ${r.name.padEnd(26)} ${r.count}${r.count === r.expected ? '' : ` (expected ${r.expected})`}`,
    )
    .join('\n');
}

async function run(command: string, v: Values): Promise<boolean> {
  const config = storeConfig();
  const dbName = v.db ?? config.dbName;
  const progress = v.quiet ? noProgress : progressFor();
  const opened: Endpoint[] = [];
  const open = async (where: string, mustHoldData: boolean): Promise<Endpoint> => {
    const e = await openEndpoint(where, { dbName, mustHoldData });
    opened.push(e);
    return e;
  };
  try {
    if (command === 'copy') {
      if (!v.from || !v.to) usage('copy needs --from and --to');
      const from = await open(v.from, true);
      const to = await open(v.to, false);
      const report = await copyStore(from, to, {
        ...selection(v),
        drop: v.drop,
        resume: v.resume,
        batchSize: batchSize(v),
        progress,
      });
      const ok = report.collections.every((c: CollectionCheck) => c.same);
      process.stdout.write(
        `copied ${from.label} -> ${to.label}: ${rate(report.documents, report.seconds)}, of which ${report.checkSeconds.toFixed(1)} s comparing both sides\n` +
          `${checkTable(report.collections.map((c) => ({ name: c.name, count: c.target.count, expected: c.source.count, same: c.same })))}\n` +
          (ok
            ? `every collection has the same count and digest on both sides (${report.collections.length} collections)\n`
            : 'some collections DIFFER between source and target: see above (a source written to during the copy, or documents the target changes on write)\n'),
      );
      return ok;
    }
    if (command === 'dump') {
      if (!v.out) usage('dump needs --out');
      const from = await open(v.from ?? configuredStore(config), true);
      const report = await dumpStore(from.db, v.out, { ...selection(v), gzip: v.gzip, progress });
      const total = report.collections.reduce((n, c) => n + c.documents, 0);
      process.stdout.write(
        `dumped ${from.label} into ${report.directory}: ${rate(total, report.seconds)}\n${report.collections.map((c) => `  ${c.name.padEnd(26)} ${c.documents}`).join('\n')}\n`,
      );
      return true;
    }
    if (!v.in) usage('restore needs --in');
    const to = await open(v.to ?? configuredStore(config), false);
    const report = await restoreStore(v.in, to, {
      ...selection(v),
      drop: v.drop,
      sourceDb: v['source-db'],
      batchSize: batchSize(v),
      progress,
    });
    const ok = report.collections.every((c) => c.same);
    const total = report.collections.reduce((n, c) => n + c.restored.count, 0);
    process.stdout.write(
      `restored ${report.directory} into ${to.label}: ${rate(total, report.seconds)}\n` +
        `${checkTable(report.collections.map((c) => ({ name: c.name, count: c.restored.count, expected: c.expected.count, same: c.same })))}\n` +
        (report.skipped.length ? `skipped: ${report.skipped.join(', ')}\n` : '') +
        (ok
          ? 'every collection holds exactly the documents of the dump (count and digest)\n'
          : 'some collections DIFFER from the dump: see above\n'),
    );
    return ok;
  } finally {
    for (const e of opened.reverse()) await e.close().catch(() => undefined);
  }
}

const { command, values } = parse();
run(command, values).then(
  (ok) => process.exit(ok ? 0 : 1),
  (err: unknown) => {
    process.stderr.write(
      `store ${command} failed: ${err instanceof ToolError ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
