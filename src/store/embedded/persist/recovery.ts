// Start-up recovery: load the snapshot, then replay operation-log generations it does not contain.
// Replay bypasses unique checks: the log only holds writes that succeeded, and entries are idempotent.
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from 'bson';
import { decode } from '../storage/bsonio.js';
import type { Catalog } from '../storage/catalog.js';
import type { IndexSpec } from '../storage/indexes.js';
import { EntryKind } from '../storage/journal.js';
import { decodeEntries, readRecords, type Entry } from './records.js';
import { END_KIND, HEADER_KIND, SNAPSHOT_FILE } from './snapshot.js';

export const logName = (gen: number): string => `oplog.${String(gen).padStart(8, '0')}.log`;
const LOG_RE = /^oplog\.(\d+)\.log$/;

export function applyEntry(catalog: Catalog, e: Entry): void {
  switch (e.kind) {
    case EntryKind.Put:
      catalog.ensure(e.db, e.coll).putTrusted(e.body);
      return;
    case EntryKind.Delete: {
      const coll = catalog.get(e.db, e.coll);
      const slot = coll?.slotById(decode(e.body)._id);
      if (slot !== undefined) coll!.remove(slot);
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

export interface Recovered {
  /** Generation for the new log file. */
  nextGen: number;
  /** Log bytes replayed on top of the snapshot (not yet covered by one). */
  logBytes: number;
  documents: number;
}

export function recover(dir: string, catalog: Catalog, log: (msg: string, f?: Record<string, unknown>) => void): Recovered {
  let firstGen = 1;
  const snap = join(dir, SNAPSHOT_FILE);
  if (existsSync(snap)) {
    let ended = false;
    const res = readRecords(snap, (payload) => {
      for (const e of decodeEntries(payload)) {
        if (e.kind === HEADER_KIND) firstGen = Number(decode(e.body).logGen);
        else if (e.kind === END_KIND) ended = true;
        else applyEntry(catalog, e);
      }
    });
    if (!ended || res.torn) throw new Error(`snapshot ${snap} is incomplete or corrupt; refusing to start`);
  }
  const gens = readdirSync(dir)
    .map((f) => LOG_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  let logBytes = 0;
  let last = firstGen - 1;
  for (const gen of gens) {
    const path = join(dir, logName(gen));
    if (gen < firstGen) {
      unlinkSync(path); // left over from a compaction interrupted after its snapshot was in place
      continue;
    }
    const res = readRecords(path, (payload) => {
      for (const e of decodeEntries(payload)) applyEntry(catalog, e);
    });
    logBytes += res.validBytes;
    if (res.torn) {
      const size = statSync(path).size;
      log('ignored torn tail of operation log', { file: path, validBytes: res.validBytes, size, lastGeneration: gen === gens[gens.length - 1] });
    }
    last = gen;
  }
  let documents = 0;
  for (const c of catalog.all()) documents += c.docs.size;
  return { nextGen: Math.max(firstGen, last + 1), logBytes, documents };
}
