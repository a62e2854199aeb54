// Data directories in the engine's former format (snapshot.bin + oplog.<gen>.log, the whole data set read
// into the heap at start): detection, and the one-shot migration into LMDB (`--migrate <dir>` on the CLI).
// Migration replays the snapshot and then the log generations it does not cover, exactly as the old
// recovery did (a torn log tail is ignored), one LMDB transaction per old record, into a fresh environment
// in `<dir>/.migrating`; only when everything is in does it move the new files into place and the old ones
// to `<dir>/pre-lmdb/` (delete that folder once satisfied).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from 'bson';
import { decode } from '../storage/bsonio.js';
import { Catalog } from '../storage/catalog.js';
import { DATA_FILE, StorageEnv } from '../storage/env.js';
import type { IndexSpec } from '../storage/index-keys.js';
import { decodeEntries, END_KIND, EntryKind, HEADER_KIND, readRecords, SNAPSHOT_FILE, type Entry } from './records.js';

const LOG_RE = /^oplog\.(\d+)\.log$/;
const OLD_LOCK = 'engine.lock';
const STAGING = '.migrating';
export const BACKUP_DIR = 'pre-lmdb';

/** True when `dir` holds data in the former format and no LMDB data yet. */
export function isLegacyDir(dir: string): boolean {
  if (!existsSync(dir) || StorageEnv.exists(dir)) return false;
  return readdirSync(dir).some((f) => f === SNAPSHOT_FILE || LOG_RE.test(f));
}

export class LegacyFormatError extends Error {
  constructor(dir: string) {
    super(
      `the data directory ${dir} is in the engine's former format (snapshot.bin + oplog.*.log), which this version ` +
        `no longer reads; convert it once with: npm run engine -- --migrate ${dir}`,
    );
  }
}

function applyEntry(catalog: Catalog, e: Entry): void {
  switch (e.kind) {
    case EntryKind.Put:
      catalog.ensure(e.db, e.coll).putTrusted(e.body);
      return;
    case EntryKind.Delete: {
      const coll = catalog.get(e.db, e.coll);
      const rid = coll?.ridById(decode(e.body)._id);
      if (rid !== undefined) coll!.remove(rid);
      return;
    }
    case EntryKind.CreateCollection:
      catalog.ensure(e.db, e.coll, (decode(e.body).options as Document | undefined) ?? {});
      return;
    case EntryKind.DropCollection:
      catalog.drop(e.db, e.coll);
      return;
    case EntryKind.CreateIndex: {
      const spec = decode(e.body).spec as IndexSpec;
      const coll = catalog.ensure(e.db, e.coll);
      if (!coll.indexes.has(spec.name)) coll.addIndex(spec, true);
      return;
    }
    case EntryKind.DropIndex:
      catalog.get(e.db, e.coll)?.dropIndex(String(decode(e.body).name));
      return;
    case EntryKind.DropDatabase:
      catalog.dropDatabase(e.db);
      return;
    default:
      throw new Error(`unknown log entry kind ${e.kind}`);
  }
}

export interface Migrated {
  collections: number;
  documents: number;
  ms: number;
}

/** Converts a former-format data directory to LMDB in place (see the header comment). */
export async function migrateLegacy(
  dir: string,
  log: (msg: string, f?: Record<string, unknown>) => void = () => undefined,
): Promise<Migrated> {
  if (StorageEnv.exists(dir)) throw new Error(`${dir} already holds LMDB data (${DATA_FILE}); nothing to migrate`);
  if (!isLegacyDir(dir)) throw new Error(`${dir} holds no data in the former format (snapshot.bin or oplog.*.log)`);
  const started = Date.now();
  const staging = join(dir, STAGING);
  rmSync(staging, { recursive: true, force: true });
  const env = StorageEnv.open({ dir: staging });
  // The old history is not a change stream anyone could resume: keep no oplog records for it.
  const catalog = new Catalog(env, { maxChanges: 1 });
  let firstGen = 1;
  try {
    const snap = join(dir, SNAPSHOT_FILE);
    if (existsSync(snap)) {
      let ended = false;
      const res = readRecords(snap, (payload) => {
        env.write(() => {
          for (const e of decodeEntries(payload)) {
            if (e.kind === HEADER_KIND) firstGen = Number(decode(e.body).logGen);
            else if (e.kind === END_KIND) ended = true;
            else applyEntry(catalog, e);
          }
        });
      });
      if (!ended || res.torn) throw new Error(`snapshot ${snap} is incomplete or corrupt; not migrating`);
    }
    const gens = readdirSync(dir)
      .map((f) => LOG_RE.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    for (const gen of gens) {
      if (gen < firstGen) continue;
      const file = join(dir, `oplog.${String(gen).padStart(8, '0')}.log`);
      const res = readRecords(file, (payload) =>
        env.write(() => {
          for (const e of decodeEntries(payload)) applyEntry(catalog, e);
        }),
      );
      if (res.torn) log('ignored torn tail of operation log', { file, validBytes: res.validBytes });
    }
    await env.flushed();
  } catch (e) {
    await env.close();
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  let documents = 0;
  let collections = 0;
  for (const c of catalog.all()) {
    collections++;
    documents += c.size;
  }
  await env.close();
  const backup = join(dir, BACKUP_DIR);
  mkdirSync(backup, { recursive: true });
  for (const f of readdirSync(dir)) {
    if (f === SNAPSHOT_FILE || f === OLD_LOCK || LOG_RE.test(f)) renameSync(join(dir, f), join(backup, f));
  }
  for (const f of readdirSync(staging)) renameSync(join(staging, f), join(dir, f));
  rmSync(staging, { recursive: true, force: true });
  const res = { collections, documents, ms: Date.now() - started };
  log('migrated', { dir, ...res });
  return res;
}
