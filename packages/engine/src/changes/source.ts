// The change source: the ordered log of committed changes that change streams read. It is the storage's
// oplog table (storage/oplog.ts), written in the same LMDB write transaction as the changes themselves, so
// the history is exactly as durable as the data, survives engine restarts and is bounded by the oplog's
// retention (`maxChanges`). Nothing proportional to the history is held in the heap: records are read from
// LMDB per read. A record becomes visible to streams only once its transaction is on disk (after the
// flush), so a stream never shows a change the writer could still lose.
import type { StorageEnv } from '../storage/env.js';
import { encode } from '../storage/bsonio.js';
import type { ChangeRecord as OplogRecord, Oplog } from '../storage/oplog.js';
import type { ChangeRecord } from './record.js';

export interface ChangeSource {
  /**
   * Names this history: resume tokens carry it, and a token from another history (another data directory,
   * or a temporary engine's previous run) is history lost. Kept across restarts of the same data directory.
   */
  readonly epoch: number;
  /** Records with a position greater than `after`, oldest first, at most `max`. */
  readAfter(after: bigint, max: number): ChangeRecord[];
  /** Newest position a stream may see (or a starting point when there is no record). */
  latest(): bigint;
  /** Resuming from a position below the floor is history lost: records after it may be gone. */
  floor(): bigint;
  /** Called whenever newer records become visible; returns the unsubscribe function. */
  onAppend(listener: () => void): () => void;
  close(): void;
}

/** A position is a cluster time: seconds << 32 | increment, comparable across engine restarts. */
export const positionOf = (seconds: number, increment: number): bigint => (BigInt(seconds) << 32n) | BigInt(increment);
export const secondsOf = (position: bigint): number => Number(position >> 32n);
export const incrementOf = (position: bigint): number => Number(position & 0xffffffffn);

/** Oplog records read per LMDB range read. */
const SCAN = 256;

/** An oplog record as a change-stream record; undefined for what streams never report. */
function changeOf(r: OplogRecord): ChangeRecord | undefined {
  const dot = r.ns.indexOf('.');
  const db = r.ns.slice(0, dot);
  const coll = r.ns.slice(dot + 1);
  const base = { position: r.clusterTime, wallTime: r.wall, db };
  const key = r.documentKey ? encode(r.documentKey) : undefined;
  switch (r.op) {
    case 'i':
      return { ...base, kind: 'insert', coll, key, after: r.doc };
    case 'u':
      return { ...base, kind: r.replace ? 'replace' : 'update', coll, key, after: r.doc, before: r.before };
    case 'd':
      return { ...base, kind: 'delete', coll, key, before: r.before };
    case 'c':
      if (typeof r.o?.drop === 'string') return { ...base, kind: 'drop', coll: r.o.drop };
      if (r.o?.dropDatabase !== undefined) return { ...base, kind: 'dropDatabase', coll: '' };
      // Expanded events (showExpandedEvents). A dropped index's record keeps only its name.
      if (typeof r.o?.create === 'string') return { ...base, kind: 'create', coll: r.o.create };
      if (typeof r.o?.createIndexes === 'string')
        return { ...base, kind: 'createIndexes', coll: r.o.createIndexes, description: { indexes: [r.o.spec] } };
      if (typeof r.o?.collMod === 'string')
        return { ...base, kind: 'modify', coll: r.o.collMod, description: r.o.changes ?? {} };
      if (typeof r.o?.dropIndexes === 'string')
        return { ...base, kind: 'dropIndexes', coll: r.o.dropIndexes, description: { indexes: [{ name: r.o.index }] } };
      return undefined;
  }
}

export class OplogChangeSource implements ChangeSource {
  /** The newest record on disk: streams read up to here. */
  private visibleTs: number;
  private visible: bigint;
  private readonly listeners = new Set<() => void>();
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(
    private readonly oplog: Oplog,
    env: StorageEnv,
  ) {
    this.visibleTs = oplog.latestChangeTs();
    this.visible = oplog.latestClusterTime();
    // After each commit: once it is flushed, its records become visible.
    this.unsubscribe = oplog.onChanges((records) => {
      const newest = records[records.length - 1]!;
      env.flushed().then(
        () => this.reveal(newest.ts, newest.clusterTime),
        () => undefined, // not on disk: the writer gets the error, streams never see the records
      );
    });
  }

  get epoch(): number {
    return this.oplog.epoch;
  }

  readAfter(after: bigint, max: number): ChangeRecord[] {
    const out: ChangeRecord[] = [];
    if (after >= this.visible) return out;
    let ts = this.firstTsAfter(after);
    while (out.length < max && ts <= this.visibleTs) {
      // No more than asked for: each record read is copied and its header decoded.
      const batch = this.oplog.readChanges(ts, Math.min(SCAN, max - out.length, this.visibleTs - ts + 1));
      if (batch.length === 0) break;
      for (const r of batch) {
        const rec = changeOf(r);
        if (rec) out.push(rec);
        if (out.length >= max) break;
      }
      ts = batch[batch.length - 1]!.ts + 1;
    }
    return out;
  }

  latest(): bigint {
    return this.visible;
  }

  floor(): bigint {
    const oldest = this.oplog.oldestChangeTs();
    // Nothing was ever pruned: the whole history is there, since it began.
    if (oldest === undefined || oldest <= 1) return this.oplog.historyStart();
    // Otherwise a token is good while its own record is kept (as in MongoDB): the oldest kept record is the floor.
    return this.oplog.changeAt(oldest)?.clusterTime ?? this.visible;
  }

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    this.unsubscribe();
    this.listeners.clear();
  }

  private reveal(ts: number, position: bigint): void {
    if (this.closed || ts <= this.visibleTs) return;
    this.visibleTs = ts;
    this.visible = position;
    for (const listener of [...this.listeners]) listener();
  }

  /** The ts of the first kept record with a position after `after` (binary search: positions grow with ts). */
  private firstTsAfter(after: bigint): number {
    let lo = this.oplog.oldestChangeTs() ?? this.visibleTs + 1;
    let hi = this.visibleTs + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      const rec = this.oplog.changeAt(mid);
      if (!rec || rec.clusterTime <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
