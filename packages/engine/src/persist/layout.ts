// Data directories written by an earlier LMDB layout (storage/catalog.ts FORMAT: 1 and 2 keyed documents by
// (collection id, insertion slot) and pointed index entries at slots): detection, and the one-shot migration
// to the current layout (`--migrate <dir>` on the CLI). The earlier environment is only read: every collection
// is created again in a fresh environment in `<dir>/.migrating` with the same name, options, uuid and index
// specs, its documents are inserted in their former (insertion) order in transactions of MIGRATE_BATCH
// documents (index entries are rebuilt from the documents, so the former index layout does not matter), the
// counts are checked against the former catalog, and the former change history (oplog records and position,
// epoch included) is copied as it was, so change-stream resume tokens stay valid. Only when everything is in
// are the new files moved into place and the former ones to `<dir>/pre-format3/` (delete that folder once
// satisfied). A migration that fails leaves the directory as it was.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database } from 'lmdb';
import { EJSON, type Binary, type Document } from 'bson';
import { decode } from '../storage/bsonio.js';
import { Catalog, FORMAT, FORMAT_KEY } from '../storage/catalog.js';
import { DATA_FILE, StorageEnv } from '../storage/env.js';
import { prefixEnd, u32 } from '../storage/key-ranges.js';
import { KeyTooLongError } from '../errors.js';
import { type IndexSpec } from '../storage/index-keys.js';

const STAGING = '.migrating';
export const LAYOUT_BACKUP_DIR = 'pre-format3';
const COLL_PREFIX = 'catalog:';
const OPLOG_META = 'oplog';
/** Documents per write transaction while migrating. */
const MIGRATE_BATCH = 1000;
/** Documents with keys too long for the current layout named in the error (all of them are counted). */
const TOO_LONG_SHOWN = 20;

/** The layout version of an LMDB data directory (without opening it as the engine would), or undefined when
 *  the directory holds no LMDB data. */
async function layoutVersion(dir: string): Promise<number | undefined> {
  if (!StorageEnv.exists(dir)) return undefined;
  const root = open<Buffer, string>({ path: join(dir, DATA_FILE), maxDbs: 8, encoding: 'binary', readOnly: true });
  try {
    const meta = root.openDB<Buffer, string>('meta', { encoding: 'binary' });
    const stored = meta.getBinary(FORMAT_KEY);
    if (stored) return Number(decode(stored).version);
    for (const _ of meta.getKeys({ start: COLL_PREFIX, end: COLL_PREFIX + '\uffff', limit: 1 })) return 1;
    return FORMAT;
  } finally {
    await root.close();
  }
}

export interface LayoutMigrated {
  from: number;
  collections: number;
  documents: number;
  indexes: number;
  ms: number;
}

/** Converts a data directory of an earlier LMDB layout to the current one, in place (see the header comment). */
export async function migrateLayout(
  dir: string,
  log: (msg: string, f?: Record<string, unknown>) => void = () => undefined,
): Promise<LayoutMigrated> {
  const from = await layoutVersion(dir);
  if (from === undefined) throw new Error(`${dir} holds no LMDB data (${DATA_FILE})`);
  if (from >= FORMAT)
    throw new Error(`${dir} already holds LMDB data in the current layout (format ${from}); nothing to migrate`);
  if (existsSync(join(dir, 'engine.lock')))
    throw new Error(`${dir} is in use by an engine (engine.lock); stop it before migrating`);
  const started = Date.now();
  const staging = join(dir, STAGING);
  rmSync(staging, { recursive: true, force: true });
  const old = open<Buffer, string>({ path: join(dir, DATA_FILE), maxDbs: 8, encoding: 'binary', readOnly: true });
  const oldDocs = old.openDB<Buffer, Buffer>('docs', { keyEncoding: 'binary', encoding: 'binary' });
  const oldMeta = old.openDB<Buffer, string>('meta', { encoding: 'binary' });
  const oldOplog = old.openDB<Buffer, Buffer>('oplog', { keyEncoding: 'binary', encoding: 'binary' });
  const env = StorageEnv.open({ dir: staging });
  // The migration's own inserts are no history anyone could resume: keep none of them (the former history is
  // copied at the end).
  const catalog = new Catalog(env, { maxChanges: 1 });
  const res: LayoutMigrated = { from, collections: 0, documents: 0, indexes: 0, ms: 0 };
  // The current layout holds keys to tighter limits than the earlier ones (a clustered `_id` at most 1,024 bytes,
  // a secondary key at most 1,974 bytes with the `_id` appended): every document that does not fit is listed in
  // one pass, and nothing is migrated.
  const tooLong: string[] = [];
  let tooLongCount = 0;
  try {
    for (const { value } of oldMeta.getRange({ start: COLL_PREFIX, end: COLL_PREFIX + '\uffff' })) {
      const d = decode(value as Buffer);
      const db = d.db as string;
      const name = d.name as string;
      const specs = (d.indexes as Document[]).map((i) => i.spec as IndexSpec).filter((s) => s.name !== '_id_');
      const coll = env.write(() => {
        const c = catalog.ensure(db, name, (d.options as Document) ?? {});
        c.meta.uuid = d.uuid as Binary;
        for (const spec of specs) c.addIndex(spec, true);
        return c;
      });
      // In former slot order, i.e. insertion order (a capped collection keeps it).
      const start = u32(Number(d.id));
      let batch: Buffer[] = [];
      const flush = (): void => {
        const docs = batch;
        batch = [];
        env.write(() => {
          for (const bytes of docs) {
            try {
              coll.putTrusted(bytes); // changes nothing when it throws
            } catch (e) {
              if (!(e instanceof KeyTooLongError)) throw e;
              if (++tooLongCount <= TOO_LONG_SHOWN) tooLong.push(`  ${db}.${name} _id ${idText(bytes)}: ${e.message}`);
            }
          }
        });
      };
      for (const { value: bytes } of oldDocs.getRange({ start, end: prefixEnd(start) })) {
        batch.push(Buffer.from(bytes as Buffer));
        if (batch.length >= MIGRATE_BATCH) flush();
      }
      if (batch.length) flush();
      const expected = Number(d.count);
      if (tooLongCount > 0) continue; // not migrating: go on only to list every such document
      if (coll.size !== expected)
        throw new Error(
          `${db}.${name}: ${coll.size} documents migrated, the former catalog counts ${expected}; not migrating`,
        );
      res.collections++;
      res.documents += coll.size;
      res.indexes += specs.length + 1;
      log('migrated collection', { ns: `${db}.${name}`, documents: coll.size, indexes: specs.length + 1 });
    }
    if (tooLongCount > 0) {
      throw new Error(
        `${tooLongCount} document(s) have a key longer than this version of the engine stores; nothing was migrated and ` +
          `${dir} is unchanged (format ${from}, which the previous version opens). Shorten or remove them there (or move ` +
          `the data to MongoDB), then migrate again:\n${tooLong.join('\n')}${tooLongCount > TOO_LONG_SHOWN ? `\n  … and ${tooLongCount - TOO_LONG_SHOWN} more` : ''}`,
      );
    }
    copyHistory(env, oldOplog, oldMeta.getBinary(OPLOG_META));
    await env.flushed();
  } catch (e) {
    await env.close();
    await old.close();
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  await env.close();
  await old.close();
  const backup = join(dir, LAYOUT_BACKUP_DIR);
  mkdirSync(backup, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith(DATA_FILE)) renameSync(join(dir, f), join(backup, f));
  for (const f of readdirSync(staging)) renameSync(join(staging, f), join(dir, f));
  rmSync(staging, { recursive: true, force: true });
  res.ms = Date.now() - started;
  log('migrated', { dir, ...res });
  return res;
}

/** A document's `_id` for a message: extended JSON, cut short. */
function idText(bytes: Uint8Array): string {
  const text = EJSON.stringify(decode(bytes)._id, { relaxed: false });
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Replaces the new environment's change history with the former one (records and position, as stored). */
function copyHistory(env: StorageEnv, oldOplog: Database<Buffer, Buffer>, position: Buffer | undefined): void {
  env.write(() => {
    for (const k of [...env.oplog.getKeys()]) env.oplog.removeSync(k as Buffer);
  });
  let batch: Array<[Buffer, Buffer]> = [];
  const flush = (): void => {
    const entries = batch;
    batch = [];
    env.write(() => {
      for (const [k, v] of entries) env.oplog.putSync(k, v);
    });
  };
  for (const { key, value } of oldOplog.getRange({})) {
    batch.push([Buffer.from(key as Buffer), Buffer.from(value as Buffer)]);
    if (batch.length >= MIGRATE_BATCH) flush();
  }
  if (batch.length) flush();
  if (position) env.write(() => env.meta.putSync(OPLOG_META, position));
}
