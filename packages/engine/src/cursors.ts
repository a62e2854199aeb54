// Cursor registry: open cursors (lazy result sources) keyed by a random positive int64 id, batching by
// document count and reply byte size, and an idle reaper (MongoDB times cursors out after 10 minutes).
import { randomBytes } from 'node:crypto';
import { batchEntryBytes } from './wire/rawbson.js';

/** Leave headroom under the 16 MiB reply limit for the envelope around the batch. */
export const MAX_BATCH_BYTES = 16 * 1024 * 1024 - 64 * 1024;
export const DEFAULT_FIRST_BATCH = 101;

export interface OpenCursor {
  id: bigint;
  ns: string;
  source: Iterator<Buffer>;
  /** A document pulled from the source to test for exhaustion but not yet returned. */
  peeked?: Buffer;
  lastUsed: number;
}

export interface Batch {
  docs: Buffer[];
  /** Cursor id to report: 0n when exhausted (and then it is no longer registered). */
  id: bigint;
}

export class CursorRegistry {
  private readonly open = new Map<bigint, OpenCursor>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly idleMs = 10 * 60 * 1000) {
    this.timer = setInterval(() => this.reap(), Math.min(60_000, idleMs)).unref();
  }

  /** Takes the first batch from `source`; registers a cursor only if more results remain. */
  first(ns: string, source: Iterator<Buffer>, batchSize: number | undefined, singleBatch = false): Batch {
    const cur: OpenCursor = { id: 0n, ns, source, lastUsed: Date.now() };
    const docs = this.fill(cur, batchSize ?? DEFAULT_FIRST_BATCH);
    const more = this.hasMore(cur);
    if (!more || singleBatch) return { docs, id: 0n };
    cur.id = this.newId();
    this.open.set(cur.id, cur);
    return { docs, id: cur.id };
  }

  get(id: bigint): OpenCursor | undefined {
    return this.open.get(id);
  }

  /** The next batch of an open cursor; batchSize 0/undefined = as many as fit in a reply. */
  next(cur: OpenCursor, batchSize: number | undefined): Batch {
    cur.lastUsed = Date.now();
    const docs = this.fill(cur, batchSize || Infinity);
    if (this.hasMore(cur)) return { docs, id: cur.id };
    this.open.delete(cur.id);
    return { docs, id: 0n };
  }

  kill(id: bigint): boolean {
    const cur = this.open.get(id);
    if (!cur) return false;
    this.open.delete(id);
    cur.source.return?.();
    return true;
  }

  close(): void {
    clearInterval(this.timer);
    for (const id of [...this.open.keys()]) this.kill(id);
  }

  private fill(cur: OpenCursor, max: number): Buffer[] {
    const docs: Buffer[] = [];
    let bytes = 0;
    while (docs.length < max) {
      const doc = cur.peeked ?? this.pull(cur);
      cur.peeked = undefined;
      if (!doc) break;
      const size = batchEntryBytes(docs.length, doc);
      if (docs.length > 0 && bytes + size > MAX_BATCH_BYTES) {
        cur.peeked = doc;
        break;
      }
      bytes += size;
      docs.push(doc);
    }
    return docs;
  }

  private hasMore(cur: OpenCursor): boolean {
    if (!cur.peeked) cur.peeked = this.pull(cur);
    return cur.peeked !== undefined;
  }

  private pull(cur: OpenCursor): Buffer | undefined {
    const r = cur.source.next();
    return r.done ? undefined : r.value;
  }

  private newId(): bigint {
    for (;;) {
      const id = randomBytes(8).readBigInt64LE(0) & 0x7fffffffffffffffn;
      if (id !== 0n && !this.open.has(id)) return id;
    }
  }

  private reap(): void {
    const cutoff = Date.now() - this.idleMs;
    for (const cur of [...this.open.values()]) if (cur.lastUsed < cutoff) this.kill(cur.id);
  }
}
