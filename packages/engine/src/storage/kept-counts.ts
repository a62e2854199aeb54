// Entry counts per key prefix of one index, kept exact by the writes: counted over the index once (in one go,
// or walked in chunks that let other work run), then each write transaction's changes are folded in once it
// has committed. A count of a million keys walks the index for hundreds of milliseconds (seconds from a cold
// page cache), and the same totals are asked for again and again while writes go on. Inside a write
// transaction (which sees its own changes) a count is always taken afresh.
import type { Database } from 'lmdb';
import { readStats, type StorageEnv } from './env.js';
import { SEP } from './order.js';

/** Kept prefix counts per index. */
const MAX_CACHED_COUNTS = 256;
/** Entry changes journaled per write transaction and index (more: a count walk begun before it commits takes its
 *  snapshot once it has). */
const MAX_JOURNAL = 4096;

/** A kept count: `n` holds the write transactions up to `asOf` (read from a snapshot) and the later ones that
 *  have committed; `ready` once its walk is done (until then `n` gathers only the later changes). */
interface KeptCount {
  n: number;
  asOf: number;
  ready: boolean;
  /** The index was cleared or the count evicted: a walk under way is not kept. */
  dropped: boolean;
  walk?: Promise<void>;
}

/** How walkCount cuts a walk: chunks of keys sized to take about `chunkMs` each (tests make them small). */
export const countWalk = { firstChunk: 1024, minChunk: 64, maxChunk: 65_536, chunkMs: 4 };

const ZERO = Buffer.from([0]);

export class KeptCounts {
  /** Entry counts per key prefix asked for, as committed: kept exact by the writes (each change's delta is
   *  folded in once its transaction has committed), so a write does not send the next count over the index. */
  private readonly counts = new Map<string, KeptCount>();
  /** Deltas of kept counts made by write transactions whose commit has not completed, in transaction order. */
  private pending: Array<{ ticket: number; deltas: Map<string, number> }> = [];
  /** The entries changed by write transactions whose commit has not completed, in transaction order (undefined:
   *  too many to keep): a count read from a snapshot that lacks such a transaction adds its changes once it
   *  commits, though the count was not kept when the transaction ran. */
  private journal: Array<{ ticket: number; changes: Array<[string, number]> | undefined }> = [];
  /** Write transactions up to this one may have changed the entries without a journal here (an index made
   *  afresh, e.g. a catalog reloaded after a failed commit): a count from a snapshot older than that is not kept. */
  private blindTo: number;

  /** `bounds`: the index's key range under a prefix; `fields`: how many fields its keys have. */
  constructor(
    private readonly env: StorageEnv,
    private readonly table: Database<Buffer, Buffer>,
    private readonly fields: number,
    private readonly bounds: (prefix: string) => [Buffer, Buffer],
  ) {
    this.blindTo = env.inWrite ? env.writeTicket - 1 : env.lastTicket;
  }

  /** Forgets every count: the entries are all deleted by the running write transaction. */
  clear(): void {
    for (const entry of this.counts.values()) entry.dropped = true;
    this.counts.clear();
    this.pending = [];
    this.journal = [];
    this.blindTo = this.env.writeTicket; // counts from snapshots before this transaction are not of these entries
  }

  /**
   * Records an entry's change by the running write transaction: in its journal, and against every kept count
   * whose prefix (whole leading components) it falls under.
   */
  record(key: string, delta: 1 | -1): void {
    const ticket = this.env.writeTicket;
    let j = this.journal[this.journal.length - 1];
    if (j?.ticket !== ticket) {
      this.settle();
      j = { ticket, changes: [] };
      this.journal.push(j);
    }
    if (j.changes && j.changes.length >= MAX_JOURNAL) j.changes = undefined;
    j.changes?.push([key, delta]);
    if (this.counts.size === 0) return;
    let at = -1;
    for (let i = 0; i <= this.fields; i++) {
      const prefix = key.slice(0, at + 1); // '' (every entry), then one component more each time
      if (this.counts.has(prefix))
        this.pendingDeltas(ticket).set(prefix, (this.pendingDeltas(ticket).get(prefix) ?? 0) + delta);
      at = key.indexOf(SEP, at + 1);
      if (at < 0) break;
    }
  }

  /** Stops keeping the count under `prefix` (with the deltas waiting for it: a count kept again later takes
   *  them from the journal). */
  private forget(prefix: string): void {
    const c = this.counts.get(prefix);
    if (c) c.dropped = true;
    this.counts.delete(prefix);
    for (const p of this.pending) p.deltas.delete(prefix);
  }

  /** The kept-count deltas of write transaction `ticket` (created in transaction order). */
  private pendingDeltas(ticket: number): Map<string, number> {
    let i = this.pending.length;
    while (i > 0 && this.pending[i - 1]!.ticket > ticket) i--;
    const at = this.pending[i - 1];
    if (at?.ticket === ticket) return at.deltas;
    const entry = { ticket, deltas: new Map<string, number>() };
    this.pending.splice(i, 0, entry);
    return entry.deltas;
  }

  /** The kept counts, as committed; undefined while a change of the index waits for its commit. */
  committed(): Array<[string, number]> | undefined {
    this.settle();
    if (this.pending.length > 0 || this.journal.length > 0) return undefined;
    return [...this.counts].filter(([, c]) => c.ready).map(([prefix, c]) => [prefix, c.n]);
  }

  /** Takes counts kept by an earlier run over the same entries (Catalog.saveKeptCounts says when they are). */
  restore(entries: ReadonlyArray<readonly [string, number]>): void {
    for (const [prefix, n] of entries) {
      if (this.counts.size >= MAX_CACHED_COUNTS) return;
      if (typeof prefix === 'string' && Number.isInteger(n) && n >= 0)
        this.counts.set(prefix, { n, asOf: this.env.lastTicket, ready: true, dropped: false });
    }
  }

  /** Made afresh for the same index after the write transaction `aborted` was discarded: keeps `was`'s counts
   *  (walks under way included) and the changes still waiting for their commit, but not the discarded
   *  transaction's. */
  adopt(was: KeptCounts, aborted: number): void {
    for (const [prefix, c] of was.counts) this.counts.set(prefix, c);
    this.pending = was.pending.filter((e) => e.ticket !== aborted);
    this.journal = was.journal.filter((e) => e.ticket !== aborted);
    this.blindTo = was.blindTo;
  }

  /** Folds the deltas of committed transactions into the kept counts (those not read after the transaction). */
  private settle(): void {
    while (this.journal.length > 0 && this.env.isCommitted(this.journal[0]!.ticket)) this.journal.shift();
    while (this.pending.length > 0 && this.env.isCommitted(this.pending[0]!.ticket)) {
      const { ticket, deltas } = this.pending.shift()!;
      for (const [prefix, d] of deltas) {
        const c = this.counts.get(prefix);
        if (c && ticket > c.asOf) c.n += d;
      }
    }
  }

  /** The committed count under `prefix`, when it is kept (undefined inside a write transaction, which sees its
   *  own changes). */
  kept(prefix: string): number | undefined {
    if (this.env.inWrite) return undefined;
    this.settle();
    const c = this.counts.get(prefix);
    return c?.ready ? c.n : undefined;
  }

  /**
   * Starts keeping the count under `prefix`, read from a snapshot holding the write transactions up to `asOf`:
   * the changes of later ones (their journals, then what they record) are folded in as they commit. Undefined
   * when it cannot be kept exactly (a later transaction's journal overflowed, or the snapshot is older than
   * what this index can account for).
   */
  private keep(prefix: string, asOf: number, n: number, ready: boolean): KeptCount | undefined {
    this.settle();
    // A walk of the prefix under way keeps it already.
    if (asOf < this.blindTo || this.counts.has(prefix)) return undefined;
    const later = this.journal.filter((j) => j.ticket > asOf);
    if (later.some((j) => !j.changes)) return undefined;
    if (this.counts.size >= MAX_CACHED_COUNTS) {
      for (const [p, c] of this.counts) if (c.ready) this.forget(p);
    }
    const entry: KeptCount = { n, asOf, ready, dropped: false };
    this.counts.set(prefix, entry);
    for (const j of later) {
      let d = 0;
      for (const [key, delta] of j.changes!) if (key.startsWith(prefix)) d += delta;
      if (d !== 0) {
        const deltas = this.pendingDeltas(j.ticket);
        deltas.set(prefix, (deltas.get(prefix) ?? 0) + d);
      }
    }
    return entry;
  }

  /**
   * Number of entries under a key prefix (whole components); a document counts once per distinct entry.
   * Counted over the index once, then kept exact by the writes: a count of a million keys walks the index for
   * hundreds of milliseconds (seconds from a cold page cache), and the same totals are asked for again and
   * again while writes go on. Inside a write transaction (which sees its own changes) always counted afresh.
   * This walk is synchronous; walkCount walks in chunks that let other work run.
   */
  count(prefix: string): number {
    const kept = this.kept(prefix);
    if (kept !== undefined) return kept;
    const [start, end] = this.bounds(prefix);
    readStats.indexCounts++;
    if (this.env.inWrite) return this.table.getKeysCount({ start, end });
    const snap = this.env.snapshot();
    try {
      const n = this.table.getKeysCount({ start, end, transaction: snap.txn });
      this.keep(prefix, snap.ticket, n, true);
      return n;
    } finally {
      snap.done();
    }
  }

  /** The count under `prefix` when it is kept or has at most `small` entries (then walked and kept), else
   *  undefined (a walk for walkCount). */
  countIfSmall(prefix: string, small: number): number | undefined {
    const kept = this.kept(prefix);
    if (kept !== undefined || this.env.inWrite) return kept;
    const [start, end] = this.bounds(prefix);
    const snap = this.env.snapshot();
    try {
      for (const _ of this.table.getKeys({ start, end, offset: small, limit: 1, transaction: snap.txn }))
        return undefined;
      const n = this.table.getKeysCount({ start, end, transaction: snap.txn });
      readStats.indexCounts++;
      this.keep(prefix, snap.ticket, n, true);
      return n;
    } finally {
      snap.done();
    }
  }

  /**
   * Walks the entries under `prefix` and keeps their count, in chunks between which the event loop runs
   * (a million keys from a cold page cache take seconds). The chunks read one snapshot; the changes committed
   * after it, before or during the walk, are folded in as for any kept count. Walks of the same prefix share
   * one. Resolves once the count is kept, or when it cannot be (the index dropped meanwhile, a change too
   * large to account for).
   */
  walkCount(prefix: string): Promise<void> {
    if (this.kept(prefix) !== undefined) return Promise.resolve();
    const c = this.counts.get(prefix);
    if (c?.walk && !c.dropped) return c.walk;
    return this.walkChunks(prefix);
  }

  private walkChunks(prefix: string): Promise<void> {
    const begun = this.beginWalk(prefix);
    if (!begun) return Promise.resolve();
    const [entry, waitFor] = begun;
    let finish!: () => void;
    entry.walk = new Promise<void>((resolve) => (finish = resolve));
    // A storage error ends the walk unkept (the command asking for it runs again and counts on its own).
    void this.walkFrom(prefix, entry, waitFor)
      .catch(() => undefined)
      .finally(() => {
        entry.walk = undefined;
        // A walk that stopped before the end (the engine closing, the index dropped, a storage error) leaves no
        // half-made count behind: one left unready would keep every later count of this prefix from being kept
        // or walked again.
        if (!entry.ready && this.counts.get(prefix) === entry) this.forget(prefix);
        finish();
      });
    return entry.walk;
  }

  /**
   * Starts keeping the count under `prefix` before its snapshot is taken: from now on every write transaction
   * that runs records its changes under the prefix against it (record), whatever their number. The transactions
   * that ran before and have not committed are accounted for from their journals; those whose journal
   * overflowed (and a reloaded index's blind ones) cannot be, so the snapshot is taken once they have committed:
   * the returned ticket. Until then the count is read as of no snapshot (asOf: Infinity), so the deltas of the
   * transactions committing meanwhile, which the snapshot will hold, are not folded in.
   */
  private beginWalk(prefix: string): [KeptCount, number] | undefined {
    this.settle();
    if (this.counts.has(prefix)) return undefined;
    if (this.counts.size >= MAX_CACHED_COUNTS) {
      for (const [p, c] of this.counts) if (c.ready) this.forget(p);
    }
    const entry: KeptCount = { n: 0, asOf: Infinity, ready: false, dropped: false };
    this.counts.set(prefix, entry);
    let waitFor = this.blindTo;
    for (const j of this.journal) {
      if (!j.changes) {
        waitFor = Math.max(waitFor, j.ticket);
        continue;
      }
      let d = 0;
      for (const [key, delta] of j.changes) if (key.startsWith(prefix)) d += delta;
      if (d !== 0) {
        const deltas = this.pendingDeltas(j.ticket);
        deltas.set(prefix, (deltas.get(prefix) ?? 0) + d);
      }
    }
    return [entry, waitFor];
  }

  private async walkFrom(prefix: string, entry: KeptCount, waitFor: number): Promise<void> {
    await this.env.whenCommitted(waitFor);
    if (entry.dropped || this.env.closing) return;
    const snap = this.env.snapshot();
    try {
      // Transactions up to `waitFor` have committed, so the snapshot holds them (and perhaps later ones); one
      // older than a reloaded index's blind transactions (a commit that failed) cannot be accounted for.
      if (snap.ticket < this.blindTo) return;
      entry.asOf = snap.ticket;
      readStats.indexCounts++;
      const [start, end] = this.bounds(prefix);
      const txn = snap.txn;
      let from = start;
      let n = 0;
      let chunk = countWalk.firstChunk;
      for (;;) {
        const began = performance.now();
        let last: Buffer | undefined;
        for (const k of this.table.getKeys({ start: from, end, offset: chunk - 1, limit: 1, transaction: txn }))
          last = k;
        if (!last) {
          n += this.table.getKeysCount({ start: from, end, transaction: txn });
          break;
        }
        n += chunk;
        from = Buffer.concat([last, ZERO]);
        const took = performance.now() - began;
        if (took < countWalk.chunkMs / 4) chunk = Math.min(chunk * 2, countWalk.maxChunk);
        else if (took > countWalk.chunkMs) chunk = Math.max(Math.floor(chunk / 2), countWalk.minChunk);
        await new Promise((resolve) => setImmediate(resolve));
        if (entry.dropped || this.env.closing) return;
      }
      if (!entry.dropped) {
        entry.n += n;
        entry.ready = true;
      }
    } finally {
      snap.done();
    }
  }
}
