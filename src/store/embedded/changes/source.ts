// The change source: an ordered log of committed changes that change streams read. This is the small
// interface the engine's write paths feed (through the recorder) and streams read from; the in-memory
// implementation keeps a bounded window. A durable implementation (over the storage's own operation log)
// only has to provide the same five members.
import { randomInt } from 'node:crypto';
import type { ChangeRecord } from './record.js';

export interface ChangeSource {
  /**
   * Names this history: resume tokens carry it, and a token from another history (an in-memory source
   * before an engine restart) is history lost. A durable source keeps its epoch across restarts.
   */
  readonly epoch: number;
  /** Appends committed records in order, giving each the next position (its cluster time). */
  append(records: ReadonlyArray<Omit<ChangeRecord, 'position'>>): void;
  /** Records with a position greater than `after`, oldest first, at most `max`. */
  readAfter(after: bigint, max: number): ChangeRecord[];
  /** Newest position handed out (or the floor when nothing was appended yet). */
  latest(): bigint;
  /** Positions at or before the floor may have had records that are gone: resuming from older is history lost. */
  floor(): bigint;
  /** Called after every append; returns the unsubscribe function. */
  onAppend(listener: () => void): () => void;
}

/** A position is a cluster time: seconds << 32 | increment, comparable across engine restarts. */
export const positionOf = (seconds: number, increment: number): bigint => (BigInt(seconds) << 32n) | BigInt(increment);
export const secondsOf = (position: bigint): number => Number(position >> 32n);
export const incrementOf = (position: bigint): number => Number(position & 0xffffffffn);

export interface MemoryRetention {
  /** Most records kept (default 50,000). */
  maxRecords: number;
  /** Most bytes of stored documents kept (default 64 MiB). */
  maxBytes: number;
}

export class MemoryChangeSource implements ChangeSource {
  readonly epoch = randomInt(1, 0xffffffff);
  private readonly records: ChangeRecord[] = [];
  private head = 0;
  private bytes = 0;
  private last: bigint;
  private lowest: bigint;
  private readonly listeners = new Set<() => void>();
  private readonly retention: MemoryRetention;

  constructor(retention: Partial<MemoryRetention> = {}, now = Date.now()) {
    this.retention = { maxRecords: 50_000, maxBytes: 64 * 1024 * 1024, ...retention };
    // Everything before this engine started is unknown to it.
    this.last = this.lowest = positionOf(Math.floor(now / 1000), 0);
  }

  append(drafts: ReadonlyArray<Omit<ChangeRecord, 'position'>>): void {
    if (drafts.length === 0) return;
    for (const draft of drafts) {
      const seconds = Math.max(Math.floor(draft.wallTime.getTime() / 1000), secondsOf(this.last));
      const position = seconds === secondsOf(this.last) ? this.last + 1n : positionOf(seconds, 1);
      this.last = position;
      this.records.push({ ...draft, position });
      this.bytes += draft.size;
    }
    this.evict();
    for (const listener of [...this.listeners]) listener();
  }

  readAfter(after: bigint, max: number): ChangeRecord[] {
    // Binary search over the live part of the array (positions are increasing).
    let lo = this.head;
    let hi = this.records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.records[mid]!.position <= after) lo = mid + 1;
      else hi = mid;
    }
    return this.records.slice(lo, Math.min(this.records.length, lo + max));
  }

  latest(): bigint {
    return this.last;
  }

  floor(): bigint {
    return this.lowest;
  }

  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private evict(): void {
    const { maxRecords, maxBytes } = this.retention;
    while (this.records.length - this.head > maxRecords || (this.bytes > maxBytes && this.records.length - this.head > 1)) {
      const gone = this.records[this.head]!;
      this.records[this.head] = undefined as never;
      this.head++;
      this.bytes -= gone.size;
      this.lowest = gone.position;
    }
    // Compact the array once the dead prefix is large.
    if (this.head > 1024 && this.head * 2 > this.records.length) {
      this.records.splice(0, this.head);
      this.head = 0;
    }
  }
}
