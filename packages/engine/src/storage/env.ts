// The engine's LMDB environment (the `lmdb` package: memory-mapped copy-on-write B+trees, ACID, readers
// that never block). One environment per data directory, with four databases:
//   docs   collection id (u32) | record id        -> the document's BSON bytes   see collection.ts
//   keys   index id (u32) | order-preserving key  -> (empty)   see indexes.ts / order.ts
//   meta   'catalog:<id>', 'ids', 'oplog'         -> BSON: the catalog, id counters, oplog position
//   oplog  ts (u64)                               -> BSON change record      see changes.ts
// Every change happens inside a write transaction. While serving, writeAsync(): the command's function runs
// on the event loop inside lmdb's asynchronous write transaction, and lmdb's write thread commits it and
// flushes it to the disk (overlappingSync, lmdb's default on Linux), so the event loop never waits for
// `fdatasync`; the promise resolves once the transaction has committed (its pages are in the data file, kept
// through a crash of the process), and `flushed()` once it is on the disk. Commands queued in the same turn
// share one commit and one flush. write() (synchronous, the flush on the calling thread) is for opening and
// migrating, before any asynchronous write. Reads outside a transaction use lmdb's shared read transaction,
// renewed every event-loop turn and after each commit, so a command sees one consistent state.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open, type Database, type RootDatabase, type Transaction } from 'lmdb';

export const DATA_FILE = 'engine.mdb';

/** `meta` record naming the last write transaction of this run that committed (see snapshot()). */
const TICKET_KEY = 'ticket';

/** A read transaction held across event-loop turns (a count walked in chunks reads one consistent state). */
export interface Snapshot {
  /** lmdb's transaction: pass it as `transaction` to reads. */
  readonly txn: Transaction;
  /** The highest write transaction number of this run whose changes the snapshot holds (0: none of them);
   *  every transaction with a higher number is missing from it. */
  readonly ticket: number;
  /** Releases the transaction (call once). */
  done(): void;
}

/**
 * The stamp the last committed write transaction left in `meta` (undefined before any), as the read transaction
 * `txn` sees it: two read transactions seeing the same stamp see the same state. A range read, not a get: lmdb's
 * get reads an open write transaction's changes before the given one.
 */
export function readStamp(meta: Database<Buffer, string>, txn: Transaction): Buffer | undefined {
  for (const { key, value } of meta.getRange({ start: TICKET_KEY, limit: 1, transaction: txn }))
    if (key === TICKET_KEY) return Buffer.from(value as Buffer);
  return undefined;
}

/** Documents read from storage since start (lets tests check that a path reads none). */
export const readStats = { documents: 0, indexCounts: 0 };

export interface EnvOptions {
  /** Directory of the data (created if missing); undefined = a temporary directory deleted on close. */
  dir?: string;
}

export class StorageEnv {
  readonly root: RootDatabase<Buffer, string>;
  readonly docs: Database<Buffer, Buffer>;
  readonly keys: Database<Buffer, Buffer>;
  readonly meta: Database<Buffer, string>;
  readonly oplog: Database<Buffer, Buffer>;
  private writing = false;
  /** Write transactions are numbered as they run; `committed` is the highest whose commit has completed
   *  (committed or abandoned). Lets in-heap caches of stored state tell a change still waiting for its commit
   *  (reads do not see it yet) from one that readers see. */
  private ticketSeq = 0;
  private runningTicket = 0;
  private committedTicket = 0;
  private readonly commitHooks: Array<() => void> = [];
  private readonly afterCommitHooks: Array<() => void> = [];
  private readonly abortHooks: Array<(aborted: number | undefined) => void> = [];
  /** Names this run in the TICKET_KEY record: a record written by an earlier run says nothing of this run's
   *  transaction numbers. */
  private readonly run = randomBytes(8);
  private settleWaiters: Array<{ ticket: number; resolve: () => void }> = [];
  private readonly snapshots = new Set<Snapshot>();
  private readonly closeHooks: Array<() => Promise<void>> = [];
  private closed = false;

  private constructor(
    readonly dir: string,
    readonly temporary: boolean,
  ) {
    this.root = open<Buffer, string>({
      path: join(dir, DATA_FILE),
      maxDbs: 8,
      encoding: 'binary',
      // Temporary (STORE=memory, tests) environments need no durability: no fsync at all.
      noSync: temporary,
      // Documents and index pages are rewritten anyway; zeroing freshly allocated pages is wasted work.
      noMemInit: true,
    });
    this.docs = this.root.openDB<Buffer, Buffer>('docs', { keyEncoding: 'binary', encoding: 'binary' });
    this.keys = this.root.openDB<Buffer, Buffer>('keys', { keyEncoding: 'binary', encoding: 'binary' });
    this.meta = this.root.openDB<Buffer, string>('meta', { encoding: 'binary' });
    this.oplog = this.root.openDB<Buffer, Buffer>('oplog', { keyEncoding: 'binary', encoding: 'binary' });
  }

  static open(opts: EnvOptions = {}): StorageEnv {
    if (opts.dir === undefined) return new StorageEnv(mkdtempSync(join(tmpdir(), 'engine-mem-')), true);
    mkdirSync(opts.dir, { recursive: true });
    return new StorageEnv(opts.dir, false);
  }

  static prepareDir(dir: string): void {
    mkdirSync(dir, { recursive: true });
  }

  static exists(dir: string): boolean {
    return existsSync(join(dir, DATA_FILE));
  }

  get inWrite(): boolean {
    return this.writing;
  }

  /** The number of the last write transaction begun (running, waiting for its commit, or done). */
  get lastTicket(): number {
    return this.ticketSeq;
  }

  /** The number of the write transaction running now (call inside one). */
  get writeTicket(): number {
    return this.runningTicket;
  }

  /** Whether the write transaction numbered `ticket` has finished its commit, so readers see its changes. */
  isCommitted(ticket: number): boolean {
    return ticket <= this.committedTicket;
  }

  private settled(ticket: number): void {
    if (ticket > this.committedTicket) this.committedTicket = ticket;
    if (this.settleWaiters.length === 0) return;
    const due = this.settleWaiters.filter((w) => w.ticket <= this.committedTicket);
    this.settleWaiters = this.settleWaiters.filter((w) => w.ticket > this.committedTicket);
    for (const w of due) w.resolve();
  }

  /** Resolves once the write transaction numbered `ticket` has finished its commit (see isCommitted). */
  whenCommitted(ticket: number): Promise<void> {
    if (this.isCommitted(ticket)) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push({ ticket, resolve }));
  }

  /** Stamps the running write transaction's number into its own changes (last thing before it commits). */
  private stamp(ticket: number): void {
    const b = Buffer.allocUnsafe(16);
    this.run.copy(b, 0);
    b.writeDoubleBE(ticket, 8);
    this.meta.putSync(TICKET_KEY, b);
  }

  /**
   * A read transaction kept open until `done()`, and the number of the newest write transaction of this run it
   * holds (read from the stamp each write transaction leaves in `meta`, so it is exact whatever the commits on
   * lmdb's write thread are doing). Write transactions commit in number order, so the snapshot holds every
   * one up to that number and none after. Any transaction whose commit completed (isCommitted) before the
   * snapshot was taken is in it: lmdb renews its read transaction at each commit.
   */
  snapshot(): Snapshot {
    const txn = this.root.useReadTransaction();
    let ticket = 0;
    try {
      const stamp = readStamp(this.meta, txn);
      if (stamp?.length === 16 && this.run.equals(stamp.subarray(0, 8))) ticket = stamp.readDoubleBE(8);
    } catch (e) {
      txn.done();
      throw e;
    }
    const snap: Snapshot = {
      txn,
      ticket,
      done: () => {
        if (this.snapshots.delete(snap)) txn.done();
      },
    };
    this.snapshots.add(snap);
    return snap;
  }

  /** The stamp of the state reads see now (readStamp), for a reader on another thread to check it sees the same. */
  currentStamp(): Buffer | undefined {
    const txn = this.root.useReadTransaction();
    try {
      return readStamp(this.meta, txn);
    } finally {
      txn.done();
    }
  }

  /** Runs `fn` when the environment closes, before lmdb's (to stop another thread's use of it first). */
  onClose(fn: () => Promise<void>): void {
    this.closeHooks.push(fn);
  }

  /** Whether close() has begun (a walk under way stops). */
  get closing(): boolean {
    return this.closed;
  }

  /** Hooks run inside each write transaction just before it commits (flushing catalog metadata, oplog). */
  onBeforeCommit(fn: () => void): void {
    this.commitHooks.push(fn);
  }

  /** Hooks run after each committed write transaction (change listeners). */
  onAfterCommit(fn: () => void): void {
    this.afterCommitHooks.push(fn);
  }

  /** Hooks run when a write transaction aborts (the in-heap catalog reloads from `meta`), with its number, or
   *  undefined when a whole commit failed (every transaction in it is lost). */
  onAbort(fn: (aborted: number | undefined) => void): void {
    this.abortHooks.push(fn);
  }

  /**
   * Runs `fn` in one synchronous write transaction (or in the enclosing one). An exception aborts the
   * transaction: nothing of it is stored, and the abort hooks restore the in-heap catalog. The commit flushes
   * to the disk on the calling thread: for opening, upgrading and migrating a data directory, before the engine
   * serves (once lmdb's write thread exists, a synchronous transaction has to borrow its transaction).
   */
  write<T>(fn: () => T): T {
    if (this.writing) return fn();
    let result!: T;
    const ticket = ++this.ticketSeq;
    try {
      this.root.transactionSync(() => {
        this.writing = true;
        this.runningTicket = ticket;
        try {
          result = fn();
          for (const h of this.commitHooks) h();
          this.stamp(ticket);
        } finally {
          this.writing = false;
        }
      });
    } catch (e) {
      this.settled(ticket);
      for (const h of this.abortHooks) h(ticket);
      throw e;
    }
    this.settled(ticket);
    for (const h of this.afterCommitHooks) h();
    return result;
  }

  /**
   * Runs `fn` in a write transaction that lmdb's write thread commits and flushes: `fn` itself runs on the event
   * loop (in a later turn, when the write thread has opened the transaction), in a nested transaction of its
   * own, so an exception discards exactly its writes (the abort hooks then restore the in-heap catalog from the
   * state that will commit) and rejects the promise. Resolves with `fn`'s result once committed; functions
   * queued in the same turn run one after the other, in order, and commit together. `ran` (optional) is called
   * as soon as `fn` has run, before the commit.
   */
  writeAsync<T>(fn: () => T, ran?: () => void): Promise<T> {
    let outcome: Promise<{ value: T } | { error: unknown }>;
    const ticket = ++this.ticketSeq;
    try {
      outcome = this.queueAsync(fn, ticket, ran);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e))); // e.g. the environment is closed
    }
    // Promise.resolve: a promise of this realm (lmdb's may come from another, e.g. under a test runner's VM).
    return Promise.resolve(outcome).then(
      (r) => {
        this.settled(ticket);
        for (const h of this.afterCommitHooks) h();
        if ('error' in r) throw r.error;
        return r.value;
      },
      (e: unknown) => {
        // The commit itself failed (disk full, I/O error): nothing of the batch is stored; the in-heap state
        // follows the storage again.
        this.settled(ticket);
        for (const h of this.abortHooks) h(undefined);
        throw e;
      },
    );
  }

  /** Queues `fn` for lmdb's next asynchronous commit; its outcome says whether it ran to the end. */
  private queueAsync<T>(fn: () => T, ticket: number, ran?: () => void): Promise<{ value: T } | { error: unknown }> {
    return this.root.transaction((): { value: T } | { error: unknown } => {
      this.writing = true;
      this.runningTicket = ticket;
      try {
        // Inside lmdb's batch transaction, transactionSync opens a nested transaction (committed into the batch).
        const value = this.root.transactionSync(() => {
          const v = fn();
          for (const h of this.commitHooks) h();
          this.stamp(ticket);
          return v;
        });
        return { value };
      } catch (error) {
        for (const h of this.abortHooks) h(ticket);
        return { error };
      } finally {
        this.writing = false;
        ran?.();
      }
    });
  }

  /** Resolves once every committed transaction is on disk (immediately for a temporary environment). */
  async flushed(): Promise<void> {
    if (!this.temporary) await this.root.flushed;
  }

  async close(): Promise<void> {
    this.closed = true;
    // Read transactions held across turns are released first (lmdb closes the environment under none).
    for (const snap of [...this.snapshots]) snap.done();
    await Promise.all(this.closeHooks.map((fn) => fn()));
    await this.root.close();
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Throws unless called inside StorageEnv.write (a programming error: every change is transactional). */
export function assertWriting(env: StorageEnv): void {
  if (!env.inWrite) throw new Error('storage change outside a write transaction');
}
