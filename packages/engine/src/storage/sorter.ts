// The external sorter of index builds (index-build.ts): a build's scan hands it every entry of every document,
// in the collection's order; it gives them back in key order, for a load that appends each index page once.
// Entries are byte strings (an LMDB key: index id, components, record id), compared as LMDB compares them.
//
// Input is packed into runs of RUN_BYTES; each run is sorted and written to a file of its own under the data
// directory's `_tmp/`; the runs are then merged into batches of sorted entries. On a thread of its own
// (sort-worker.ts) the sorting, the files and the merge take none of the engine's event loop: the scan only
// packs bytes, the load only reads batches. From TypeScript sources (the tests' transform runs no thread
// entry) the same work runs inline.
//
// Why by hand: the npm packages that sort larger-than-memory input sort lines of text through streams, one
// process; an index key can hold any byte, and the work has to leave the engine's event loop. At `large` a
// text index has about 30 million entries (1 GB of keys): stored in scan order, each one landed on a different
// page of a tree of that size, and the build took 577 s; appended in order, each page is written once.
import { closeSync, mkdirSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Messages to and from the sorting thread (sort-worker.ts). */
export type ToSorter =
  { kind: 'run'; buf: ArrayBuffer; length: number } | { kind: 'merge'; ahead: number } | { kind: 'more' };
export type FromSorter =
  | { kind: 'spilled' }
  | { kind: 'batch'; buf: ArrayBuffer; length: number }
  | { kind: 'end' }
  | { kind: 'failed'; message: string };

/** Runs handed to the sorting thread and not yet written: the scan waits beyond this. */
const RUNS_IN_FLIGHT = 2;
/** Bytes of sorted entries per batch handed back. */
const BATCH_BYTES = 256 << 10;
/** Batches the sorting thread sends ahead of the load. */
const BATCHES_AHEAD = 8;
/** Entries sorted in the event loop, in memory, when they are all the build has: a few milliseconds of sorting. */
const IN_LOOP_BYTES = 128 << 10;
/** Bytes read from a run file at a time while merging. */
const READ_BYTES = 1 << 20;

/** Sorts and spills runs, and merges them: the sorting work, on the sorting thread or inline. */
export class RunFiles {
  private runs = 0;

  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Sorts the entries packed in `packed` (each a 2-byte little-endian length then its bytes) into a run file. */
  spill(packed: Buffer): void {
    const entries = unpack(packed).sort();
    const fd = openSync(join(this.dir, `run-${this.runs++}`), 'w');
    try {
      const out = Buffer.allocUnsafe(READ_BYTES);
      let used = 0;
      for (const e of entries) {
        if (used + 2 + e.length > out.length) {
          writeAll(fd, out, used);
          used = 0;
        }
        out.writeUInt16LE(e.length, used);
        used += 2 + out.write(e, used + 2, 'latin1');
      }
      writeAll(fd, out, used);
    } finally {
      closeSync(fd);
    }
  }

  /** The runs merged, in batches of about `batchBytes` packed as the input was (each batch its own memory). */
  *merged(batchBytes = BATCH_BYTES): Generator<Buffer> {
    const readers: RunReader[] = [];
    try {
      for (let i = 0; i < this.runs; i++) readers.push(new RunReader(join(this.dir, `run-${i}`)));
      const heap = new ReaderHeap(readers.filter((r) => r.next()));
      let out = Buffer.allocUnsafeSlow(batchBytes);
      let used = 0;
      for (let r = heap.least(); r; r = heap.least()) {
        const e = r.current;
        if (used + 2 + e.length > out.length) {
          yield out.subarray(0, used);
          out = Buffer.allocUnsafeSlow(batchBytes);
          used = 0;
        }
        out.writeUInt16LE(e.length, used);
        used += 2 + out.write(e, used + 2, 'latin1');
        heap.advance();
      }
      if (used > 0) yield out.subarray(0, used);
    } finally {
      for (const r of readers) r.close();
      // Deleted where the merge ran (the sorting thread): a gigabyte of runs takes the kernel a few hundred
      // milliseconds to let go of, which the engine's event loop would otherwise wait for.
      this.remove();
    }
  }

  /** Deletes the run files. */
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function writeAll(fd: number, buf: Buffer, length: number): void {
  for (let at = 0; at < length;) at += writeSync(fd, buf, at, length - at);
}

/** Reads a run file's entries in order. */
class RunReader {
  current = '';
  private readonly fd: number;
  private readonly buf = Buffer.allocUnsafe(READ_BYTES);
  private start = 0;
  private end = 0;
  private eof = false;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  /** Moves to the next entry; false at the end of the run. */
  next(): boolean {
    if (!this.have(2)) return false;
    const len = this.buf.readUInt16LE(this.start);
    if (!this.have(2 + len)) throw new Error('a run file of an index build ends inside an entry');
    this.current = this.buf.toString('latin1', this.start + 2, this.start + 2 + len);
    this.start += 2 + len;
    return true;
  }

  private have(n: number): boolean {
    while (this.end - this.start < n) {
      if (this.eof) return false;
      this.buf.copy(this.buf, 0, this.start, this.end);
      this.end -= this.start;
      this.start = 0;
      const read = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, null);
      if (read === 0) this.eof = true;
      this.end += read;
    }
    return true;
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** A binary heap of run readers by their current entry. */
class ReaderHeap {
  constructor(private readonly heap: RunReader[]) {
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  /** The reader whose current entry is the least, if any is left. */
  least(): RunReader | undefined {
    return this.heap[0];
  }

  /** Moves the least reader to its next entry (dropping it at its end). */
  advance(): void {
    const heap = this.heap;
    if (!heap[0]!.next()) {
      const last = heap.pop()!;
      if (heap.length === 0) return;
      heap[0] = last;
    }
    this.down(0);
  }

  private down(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const least = r < n && heap[r]!.current < heap[l]!.current ? r : l;
      if (heap[i]!.current <= heap[least]!.current) return;
      [heap[i], heap[least]] = [heap[least]!, heap[i]!];
      i = least;
    }
  }
}

/** The sorting thread runs from the built JavaScript only (see the file's head). */
const threadAvailable = import.meta.url.endsWith('.js');

/**
 * One build's sorter, as the build sees it: `add` entries while `accepting`, then `end()`, then `take()` them in
 * order; `whenReady()` resolves once it can do more of either. `close()` stops it and deletes its files. A few
 * entries (IN_LOOP_BYTES) are sorted in memory, in `end()`, with no file and no thread; more start the sorting
 * thread, with the first full run or at the end.
 */
export class ExternalSorter {
  private packed: Buffer;
  private used = 0;
  private inFlight = 0;
  private ended = false;
  private finished = false;
  private readonly batches: Buffer[] = [];
  private at = 0;
  private failure?: Error;
  private waiters: Array<() => void> = [];
  private worker?: Worker;
  private files?: RunFiles;
  private merge?: Generator<Buffer>;
  /** Entries added. */
  count = 0;

  /** `runBytes`: bytes of entries sorted at a time (a run holds about twice that in memory while sorted). */
  constructor(
    private readonly dir: string,
    private readonly runBytes: number,
  ) {
    this.packed = Buffer.allocUnsafeSlow(runBytes);
  }

  private startThread(): Worker {
    const worker = new Worker(new URL('./sort-worker.js', import.meta.url), { workerData: { sortDir: this.dir } });
    worker.unref();
    worker.on('message', (m: FromSorter) => {
      if (m.kind === 'spilled') this.inFlight--;
      else if (m.kind === 'batch') this.batches.push(Buffer.from(m.buf, 0, m.length));
      else if (m.kind === 'end') this.finished = true;
      else this.failure = new Error(`index build sorter: ${m.message}`);
      this.wake();
    });
    worker.on('error', (e) => ((this.failure = e), this.wake()));
    worker.on('exit', () => {
      if (!this.finished) this.failure ??= new Error('index build sorter: its thread stopped');
      this.wake();
    });
    return worker;
  }

  private post(m: ToSorter, transfer?: ArrayBuffer[]): void {
    this.worker!.postMessage(m, transfer);
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  /** Whether `add` may be called now (the sorting thread keeps up with the scan). */
  get accepting(): boolean {
    this.check();
    return this.inFlight < RUNS_IN_FLIGHT;
  }

  /** Adds an entry: the LMDB key `prefix` then `a` and `b` in UTF-8 (an index's id, an entry's components, the
   *  record id). */
  add(prefix: Buffer, a: string, b: string): void {
    // Each UTF-16 unit is at most 3 bytes of UTF-8; only a key that may not fit is measured.
    const most = 2 + prefix.length + 3 * (a.length + b.length);
    if (this.used + most > this.packed.length) {
      const exact = 2 + prefix.length + Buffer.byteLength(a) + Buffer.byteLength(b);
      if (this.used + exact > this.packed.length) this.spill();
    }
    const packed = this.packed;
    let at = this.used + 2;
    at += prefix.copy(packed, at);
    at += packed.write(a, at, 'utf8');
    at += packed.write(b, at, 'utf8');
    packed.writeUInt16LE(at - this.used - 2, this.used);
    this.used = at;
    this.count++;
  }

  /** Hands the full run to the sorting thread (or sorts and writes it here, from TypeScript sources). */
  private spill(): void {
    if (threadAvailable) {
      this.worker ??= this.startThread();
      this.inFlight++;
      const buf = this.packed.buffer as ArrayBuffer;
      this.post({ kind: 'run', buf, length: this.used }, [buf]);
      this.packed = Buffer.allocUnsafeSlow(this.runBytes);
    } else {
      this.files ??= new RunFiles(this.dir);
      this.files.spill(this.packed.subarray(0, this.used));
    }
    this.used = 0;
  }

  /** No more input: the merge begins. */
  end(): void {
    this.ended = true;
    if (this.worker || this.files || this.used > IN_LOOP_BYTES) {
      if (this.used > 0) this.spill();
      if (this.worker) this.post({ kind: 'merge', ahead: BATCHES_AHEAD });
      else this.merge = this.files!.merged();
    } else this.merge = sortedInMemory(this.packed.subarray(0, this.used));
    this.packed = Buffer.alloc(0);
  }

  /** The next entry in order (a view valid until the next call); undefined when none is ready yet (see
   *  whenReady), null after the last. */
  take(): Buffer | undefined | null {
    this.check();
    for (;;) {
      const batch = this.batches[0];
      if (batch !== undefined && this.at < batch.length) {
        const len = batch.readUInt16LE(this.at);
        const key = batch.subarray(this.at + 2, this.at + 2 + len);
        this.at += 2 + len;
        return key;
      }
      if (batch !== undefined) {
        this.batches.shift();
        this.at = 0;
        if (this.worker) this.post({ kind: 'more' });
        continue;
      }
      if (!this.merge) return this.finished ? null : undefined;
      const next = this.merge.next();
      if (next.done) {
        this.merge = undefined;
        this.finished = true;
        return null;
      }
      this.batches.push(next.value);
    }
  }

  /** Resolves once the sorter can take input (before `end`) or give an entry (after), or has failed. */
  whenReady(): Promise<void> {
    const ready =
      this.failure !== undefined ||
      (this.ended ? this.batches.length > 0 || this.finished || this.merge !== undefined : this.accepting);
    if (ready) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Stops the sorting and deletes its files. */
  async close(): Promise<void> {
    this.failure ??= new Error('index build sorter: closed');
    this.merge?.return(undefined);
    this.wake();
    // The files first (off the event loop): a stopping engine may not wait for the thread's end. A run the thread
    // is still writing fails to open in the deleted directory, which is what is asked of it.
    await rm(this.dir, { recursive: true, force: true });
    if (this.worker) await this.worker.terminate();
  }
}

/** One run's entries sorted in memory, in one batch packed as the input was. */
function* sortedInMemory(packed: Buffer): Generator<Buffer> {
  const entries = unpack(packed).sort();
  const out = Buffer.allocUnsafe(packed.length);
  let used = 0;
  for (const e of entries) {
    out.writeUInt16LE(e.length, used);
    used += 2 + out.write(e, used + 2, 'latin1');
  }
  if (used > 0) yield out;
}

/** The entries packed in `packed` (each a 2-byte little-endian length then its bytes), as latin1 strings: one
 *  UTF-16 unit per byte, so JavaScript's string order is the bytes' order (LMDB's). */
function unpack(packed: Buffer): string[] {
  const entries: string[] = [];
  for (let at = 0; at < packed.length;) {
    const len = packed.readUInt16LE(at);
    entries.push(packed.toString('latin1', at + 2, at + 2 + len));
    at += 2 + len;
  }
  return entries;
}
