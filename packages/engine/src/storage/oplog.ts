// The ordered table of changes (an oplog) in the engine's LMDB environment, for change streams.
// One record per document change or DDL, written in the same write transaction as the change itself, so
// the table and the data never disagree. Records are keyed by `ts`, a counter that grows by one per record
// across the whole engine and survives restarts (the last value is kept in `meta` even when retention has
// pruned every record). Retention: the newest `maxChanges` records are kept (default 100,000); older ones
// are deleted by the transaction that pushes them out. Each record also has a cluster time (seconds << 32 |
// increment, strictly increasing, what change streams use as positions), and the table has an epoch (random,
// chosen when the table is first written, kept in `meta`) naming this history across restarts.
//
// API (also documented in the package README, "Oplog"):
//   readChanges(fromTs, limit)  records with ts >= fromTs, oldest first, at most `limit`
//   oldestChangeTs()           ts of the oldest record still kept (undefined when none)
//   latestChangeTs()           ts of the newest record (0 when nothing was ever written)
//   changeAt(ts)               the record with this ts, if kept
//   epoch, historyStart(), latestClusterTime()   the history's name, first and newest cluster time
//   onChanges(listener)        called after each committed write transaction with the records it appended;
//                              returns an unsubscribe function
import { randomInt } from 'node:crypto';
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
  /** seconds << 32 | increment: strictly increasing with ts, seconds never behind the previous record's. */
  clusterTime: bigint;
  /** 'db.collection' (for op 'c': 'db.$cmd'). */
  ns: string;
  /** i insert, u update or replace (post-image in `doc`), d delete, c command (DDL, in `o`). */
  op: ChangeOp;
  /** For 'u': the update was a whole replacement document. */
  replace?: boolean;
  /** { _id } of the changed document (not for 'c'). */
  documentKey?: Document;
  /** Raw BSON of the document after the change (i and u). */
  doc?: Buffer;
  /** Raw BSON of the document before the change (u and d). */
  before?: Buffer;
  /** The command for 'c': { create }, { drop }, { dropDatabase: 1 }, { createIndexes, spec }, { dropIndexes, index }, { collMod, changes }. */
  o?: Document;
}

export type ChangeInput = Omit<ChangeRecord, 'ts' | 'wall' | 'clusterTime' | 'doc' | 'before'> & {
  doc?: Uint8Array;
  before?: Uint8Array;
};
export type ChangeListener = (records: readonly ChangeRecord[]) => void;

const DEFAULT_MAX_CHANGES = 100_000;
const META_KEY = 'oplog';

function tsKey(ts: number): Buffer {
  const k = Buffer.allocUnsafe(8);
  k.writeBigUInt64BE(BigInt(ts), 0);
  return k;
}

/**
 * A stored record: the head (BSON), then the images' bytes — the post-image (i, u), then the pre-image (u, d).
 * Each image is a BSON document, so its own length prefix delimits it.
 */
function recordValue(head: Uint8Array, doc: Uint8Array | undefined, before: Uint8Array | undefined): Buffer {
  const out = Buffer.allocUnsafe(head.length + (doc?.length ?? 0) + (before?.length ?? 0));
  out.set(head, 0);
  if (doc) out.set(doc, head.length);
  if (before) out.set(before, head.length + (doc?.length ?? 0));
  return out;
}

function parseRecord(bytes: Buffer): ChangeRecord {
  let at = bytes.readInt32LE(0);
  const d = decode(bytes.subarray(0, at));
  const op = d.op as ChangeOp;
  // Records written before cluster times were kept: the commit time's seconds, increment ts (still increasing).
  const clusterTime =
    d.ct !== undefined
      ? BigInt(String(d.ct))
      : (BigInt(Math.floor((d.wall as Date).getTime() / 1000)) << 32n) | (BigInt(Number(d.ts)) & 0xffffffffn);
  const rec: ChangeRecord = { ts: Number(d.ts), wall: d.wall as Date, clusterTime, ns: d.ns as string, op };
  if (d.replace === true) rec.replace = true;
  if (d.documentKey) rec.documentKey = d.documentKey as Document;
  if (d.o) rec.o = d.o as Document;
  const image = (): Buffer | undefined => {
    if (at >= bytes.length) return undefined;
    const end = at + bytes.readInt32LE(at);
    const out = bytes.subarray(at, end);
    at = end;
    return out;
  };
  if (op === 'i' || op === 'u') rec.doc = image();
  if (op === 'u' || op === 'd') rec.before = image();
  if (!rec.doc) delete rec.doc;
  if (!rec.before) delete rec.before;
  return rec;
}

export class Oplog {
  private pending: ChangeInput[] = [];
  private sealed: ChangeRecord[] = [];
  private readonly listeners = new Set<ChangeListener>();
  private last = 0;
  private lastClusterTime = 0n;
  private oldest: number | undefined;
  private epochValue = 0;
  private genesis = 0n;

  constructor(
    private readonly env: StorageEnv,
    private readonly maxChanges = DEFAULT_MAX_CHANGES,
  ) {
    this.load();
    if (this.epochValue === 0) {
      // A new table (or one from before epochs were kept): name its history now, so tokens handed out before the first write stay valid.
      this.epochValue = randomInt(1, 0xffffffff);
      const now = BigInt(Math.floor(Date.now() / 1000)) << 32n;
      this.genesis = this.lastClusterTime = this.lastClusterTime > now ? this.lastClusterTime : now;
      env.write(() => this.saveMeta());
    }
    env.onBeforeCommit(() => this.seal());
    env.onAfterCommit(() => this.notify());
    env.onAbort(() => {
      this.pending = [];
      this.load();
      // Records sealed by transactions that still commit (earlier ones of the same lmdb commit, whose state
      // load() read) are yet to be announced; those of the aborted one are gone.
      this.sealed = this.sealed.filter((r) => r.ts <= this.last);
    });
  }

  private load(): void {
    const m = this.env.meta.getBinary(META_KEY);
    const meta = m ? decode(m) : {};
    const lastKey = [...this.env.oplog.getKeys({ reverse: true, limit: 1 })][0] as Buffer | undefined;
    const firstKey = [...this.env.oplog.getKeys({ limit: 1 })][0] as Buffer | undefined;
    this.last = Math.max(
      meta.last !== undefined ? Number(meta.last) : 0,
      lastKey ? Number(lastKey.readBigUInt64BE(0)) : 0,
    );
    this.oldest = firstKey ? Number(firstKey.readBigUInt64BE(0)) : undefined;
    const newest = lastKey ? this.changeAt(Number(lastKey.readBigUInt64BE(0))) : undefined;
    this.lastClusterTime = newest?.clusterTime ?? (meta.ct !== undefined ? BigInt(String(meta.ct)) : 0n);
    this.epochValue = meta.epoch !== undefined ? Number(meta.epoch) : 0;
    this.genesis = meta.genesis !== undefined ? BigInt(String(meta.genesis)) : 0n;
  }

  private saveMeta(): void {
    this.env.meta.putSync(
      META_KEY,
      Buffer.from(
        serialize({
          last: this.last,
          ct: Long.fromBigInt(this.lastClusterTime),
          epoch: this.epochValue,
          genesis: Long.fromBigInt(this.genesis),
        }),
      ),
    );
  }

  /** Names this table's history: kept across restarts, different for every data directory. */
  get epoch(): number {
    return this.epochValue;
  }

  /** Cluster time at which this history began (every record's is greater). */
  historyStart(): bigint {
    return this.genesis;
  }

  /** Cluster time of the newest record (the history's start when there is none). */
  latestClusterTime(): bigint {
    return this.lastClusterTime;
  }

  /** Storage reports a change (inside the write transaction). */
  record(change: ChangeInput): void {
    this.pending.push(change);
  }

  /** Writes the transaction's records and prunes past the retention (inside the transaction). */
  private seal(): void {
    if (this.pending.length === 0) return;
    const wall = new Date();
    const seconds = BigInt(Math.floor(wall.getTime() / 1000));
    for (const c of this.pending) {
      const ts = ++this.last;
      const clusterTime = seconds > this.lastClusterTime >> 32n ? (seconds << 32n) | 1n : this.lastClusterTime + 1n;
      this.lastClusterTime = clusterTime;
      const head: Document = { ts: Long.fromNumber(ts), ct: Long.fromBigInt(clusterTime), wall, ns: c.ns, op: c.op };
      if (c.replace) head.replace = true;
      if (c.documentKey) head.documentKey = c.documentKey;
      if (c.o) head.o = c.o;
      this.env.oplog.putSync(tsKey(ts), recordValue(serialize(head), c.doc, c.before));
      const rec: ChangeRecord = { ts, wall, clusterTime, ns: c.ns, op: c.op };
      if (c.replace) rec.replace = true;
      if (c.documentKey) rec.documentKey = c.documentKey;
      if (c.doc) rec.doc = Buffer.from(c.doc);
      if (c.before) rec.before = Buffer.from(c.before);
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
    this.saveMeta();
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
    for (const { value } of this.env.oplog.getRange({ start: tsKey(Math.max(0, fromTs)), limit }))
      out.push(parseRecord(value as Buffer));
    return out;
  }

  /** The record with this ts, if kept. */
  changeAt(ts: number): ChangeRecord | undefined {
    const bytes = this.env.oplog.getBinary(tsKey(ts));
    return bytes ? parseRecord(bytes) : undefined;
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
