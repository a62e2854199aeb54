// The ordered table of changes (an oplog) in the engine's LMDB environment, for change streams.
// One record per document change or DDL, written in the same write transaction as the change itself, so
// the table and the data never disagree. Records are keyed by `ts`, a counter that grows by one per record
// across the whole engine and survives restarts (the last value is kept in `meta` even when retention has
// pruned every record). Retention: the newest `maxChanges` records are kept (default 100,000); older ones
// are deleted by the transaction that pushes them out.
//
// API (also documented in docs/engine.md, "Oplog"):
//   readChanges(fromTs, limit)  records with ts >= fromTs, oldest first, at most `limit`
//   oldestChangeTs()           ts of the oldest record still kept (undefined when none)
//   latestChangeTs()           ts of the newest record (0 when nothing was ever written)
//   onChanges(listener)        called after each committed write transaction with the records it appended;
//                              returns an unsubscribe function
import { Long, serialize } from 'bson';
import type { Document } from 'bson';
import { decode } from './bsonio.js';
import type { StorageEnv } from './env.js';

export type ChangeOp = 'i' | 'u' | 'd' | 'c';

export interface ChangeRecord {
  /** Engine-wide, strictly increasing by one per record. */
  ts: number;
  /** Commit time of the transaction. */
  wall: Date;
  /** 'db.collection' (for op 'c': 'db.$cmd'). */
  ns: string;
  /** i insert, u update or replace (post-image in `doc`), d delete, c command (DDL, in `o`). */
  op: ChangeOp;
  /** { _id } of the changed document (not for 'c'). */
  documentKey?: Document;
  /** Raw BSON of the document after the change (i and u). */
  doc?: Buffer;
  /** The command for 'c': { create }, { drop }, { dropDatabase: 1 }, { createIndexes, spec }, { dropIndexes, index }. */
  o?: Document;
}

export type ChangeInput = Omit<ChangeRecord, 'ts' | 'wall' | 'doc'> & { doc?: Uint8Array };
export type ChangeListener = (records: readonly ChangeRecord[]) => void;

export const DEFAULT_MAX_CHANGES = 100_000;
const META_KEY = 'oplog';

function tsKey(ts: number): Buffer {
  const k = Buffer.allocUnsafe(8);
  k.writeBigUInt64BE(BigInt(ts), 0);
  return k;
}

/** A stored record: the head (BSON) and, for inserts and updates, the post-image's bytes right after it. */
function recordValue(head: Uint8Array, doc: Uint8Array | undefined): Buffer {
  const out = Buffer.allocUnsafe(head.length + (doc?.length ?? 0));
  out.set(head, 0);
  if (doc) out.set(doc, head.length);
  return out;
}

export class Oplog {
  private pending: ChangeInput[] = [];
  private sealed: ChangeRecord[] = [];
  private readonly listeners = new Set<ChangeListener>();
  private last = 0;
  private oldest: number | undefined;

  constructor(
    private readonly env: StorageEnv,
    private readonly maxChanges = DEFAULT_MAX_CHANGES,
  ) {
    this.load();
    env.onBeforeCommit(() => this.seal());
    env.onAfterCommit(() => this.notify());
    env.onAbort(() => {
      this.pending = [];
      this.sealed = [];
      this.load();
    });
  }

  private load(): void {
    const m = this.env.meta.getBinary(META_KEY);
    const fromMeta = m ? Number(decode(m).last) : 0;
    const lastKey = [...this.env.oplog.getKeys({ reverse: true, limit: 1 })][0] as Buffer | undefined;
    const firstKey = [...this.env.oplog.getKeys({ limit: 1 })][0] as Buffer | undefined;
    this.last = Math.max(fromMeta, lastKey ? Number(lastKey.readBigUInt64BE(0)) : 0);
    this.oldest = firstKey ? Number(firstKey.readBigUInt64BE(0)) : undefined;
  }

  /** Storage reports a change (inside the write transaction). */
  record(change: ChangeInput): void {
    this.pending.push(change);
  }

  /** Writes the transaction's records and prunes past the retention (inside the transaction). */
  private seal(): void {
    if (this.pending.length === 0) return;
    const wall = new Date();
    for (const c of this.pending) {
      const ts = ++this.last;
      const head: Document = { ts: Long.fromNumber(ts), wall, ns: c.ns, op: c.op };
      if (c.documentKey) head.documentKey = c.documentKey;
      if (c.o) head.o = c.o;
      this.env.oplog.putSync(tsKey(ts), recordValue(serialize(head), c.doc));
      const rec: ChangeRecord = { ts, wall, ns: c.ns, op: c.op };
      if (c.documentKey) rec.documentKey = c.documentKey;
      if (c.doc) rec.doc = Buffer.from(c.doc);
      if (c.o) rec.o = c.o;
      this.sealed.push(rec);
    }
    this.pending = [];
    this.oldest ??= this.sealed[0]!.ts;
    const keepFrom = this.last - this.maxChanges + 1;
    while (this.oldest !== undefined && this.oldest < keepFrom) {
      this.env.oplog.removeSync(tsKey(this.oldest));
      this.oldest++;
    }
    this.env.meta.putSync(META_KEY, Buffer.from(serialize({ last: this.last })));
  }

  private notify(): void {
    if (this.sealed.length === 0) return;
    const records = this.sealed;
    this.sealed = [];
    for (const l of this.listeners) {
      try {
        l(records);
      } catch {
        // A listener's failure must not affect the write that has already committed.
      }
    }
  }

  /** Records with ts >= fromTs, oldest first, at most `limit`. */
  readChanges(fromTs: number, limit = 1000): ChangeRecord[] {
    const out: ChangeRecord[] = [];
    for (const { value } of this.env.oplog.getRange({ start: tsKey(Math.max(0, fromTs)), limit })) {
      const bytes = value as Buffer;
      const headLength = bytes.readInt32LE(0);
      const d = decode(bytes.subarray(0, headLength));
      const rec: ChangeRecord = { ts: Number(d.ts), wall: d.wall as Date, ns: d.ns as string, op: d.op as ChangeOp };
      if (d.documentKey) rec.documentKey = d.documentKey as Document;
      if (d.o) rec.o = d.o as Document;
      if (bytes.length > headLength) rec.doc = bytes.subarray(headLength);
      out.push(rec);
    }
    return out;
  }

  oldestChangeTs(): number | undefined {
    return this.oldest;
  }

  latestChangeTs(): number {
    return this.last;
  }

  onChanges(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
