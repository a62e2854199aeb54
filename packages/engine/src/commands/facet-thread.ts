// A search's facets counted on two threads. Counting the facets of 94,000 matches takes about half a second on the
// engine's thread, nearly all of it reading each match's stored document (LMDB's read, then walking its fields),
// while the machine's other core waits. A second reader thread (facet-worker.ts) opens the same LMDB environment
// (lmdb shares one environment between a process's threads) and counts the second half of the candidates while
// this thread counts the first; the counts are then added, the first half's groups first, so the groups keep
// the first-seen order one pass would give them.
//
// Both halves must read one state. LMDB's read transactions are snapshots; every write transaction leaves a stamp
// in `meta` (env.ts), so the reader thread reads the stamp in the same transaction as the documents and the count
// is used only when it is the stamp this thread read. Otherwise (a commit came in between, rarely), or when the
// other half met a value a count does not key, or the thread failed, the command runs again the ordinary way.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { encode } from '../storage/bsonio.js';
import type { Collection } from '../storage/collection.js';
import type { StorageEnv } from '../storage/env.js';
import { DATA_FILE } from '../storage/env.js';
import type { Rid } from '../storage/index-keys.js';
import { naturalOrder } from '../storage/order.js';
import { textCandidates, type TextFilter } from '../query/text.js';
import type { QueryExtras } from '../query/options.js';
import type { Tallied } from './aggregate-counts.js';
import type { EngineState } from './context.js';
import { facetTallies, type FacetJob } from './facet-pass.js';
import { join } from 'node:path';

/** Messages to and from the reader thread. */
export interface ToReader {
  kind: 'count';
  id: number;
  coll: number;
  rids: Rid[];
  /** The FacetJob, BSON (its filter may hold values a structured clone does not keep). */
  job: Uint8Array;
  /** The stamp of the state the engine's thread read (env.ts readStamp). */
  stamp: Uint8Array | null;
}
export type FromReader =
  | { kind: 'ready' }
  | { kind: 'counted'; id: number; tallies: Tallied[] | null }
  | { kind: 'stale'; id: number }
  | { kind: 'failed'; id: number; message: string };

/** Candidates from which a search's facets are counted on two threads when the engine is not told otherwise. */
const PARALLEL_FROM = 2_048;

/** Threads run the built JavaScript: from the TypeScript sources (the tests' transform) the engine counts alone,
 *  as it does on one core (where the threads would only take turns). */
const threadsAvailable = import.meta.url.endsWith('.js') && availableParallelism() > 1;

/** Searches' facets counted on two threads since start, and those counted again on the engine's thread alone (the
 *  reader thread read another state, met a value a count does not key, or failed): serverStatus reports them. */
export const facetThreadStats = { twoThreads: 0, again: 0 };

/** The reader thread of one environment: started at the first search large enough, kept until the environment closes. */
class FacetReader {
  private readonly worker: Worker;
  private ready = false;
  private failed = false;
  private next = 0;
  private readonly waiting = new Map<number, (tallies: Tallied[] | undefined) => void>();

  constructor(env: StorageEnv, log: Log) {
    this.worker = new Worker(new URL('./facet-worker.js', import.meta.url), {
      workerData: { facetReader: { file: join(env.dir, DATA_FILE) } },
    });
    this.worker.unref();
    this.worker.on('message', (m: FromReader) => {
      if (m.kind === 'ready') this.ready = true;
      else this.answer(m.id, m.kind === 'counted' ? (m.tallies ?? undefined) : undefined);
    });
    const stop = (error?: Error): void => {
      if (!this.failed) log('facet reader thread stopped; facets are counted on the engine thread alone', { error });
      this.failed = true;
      for (const id of [...this.waiting.keys()]) this.answer(id, undefined);
    };
    this.worker.on('error', (e) => stop(e));
    this.worker.on('exit', () => stop());
    env.onClose(() => this.close());
  }

  /** Whether it takes work now (not while it starts, nor once it failed). */
  get usable(): boolean {
    return this.ready && !this.failed;
  }

  /** The other half's counts, or undefined (read from another state, a value not keyed, a failure). */
  count(coll: number, rids: Rid[], job: Buffer, stamp: Buffer | undefined): Promise<Tallied[] | undefined> {
    const id = ++this.next;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      const m: ToReader = { kind: 'count', id, coll, rids, job, stamp: stamp ?? null };
      this.worker.postMessage(m);
    });
  }

  private answer(id: number, tallies: Tallied[] | undefined): void {
    const resolve = this.waiting.get(id);
    this.waiting.delete(id);
    resolve?.(tallies);
  }

  private async close(): Promise<void> {
    this.failed = true;
    await this.worker.terminate();
  }
}

const readers = new WeakMap<StorageEnv, FacetReader>();

type Log = EngineState['log'];

/** The environment's reader thread when it takes work now; started (for later searches) at the first call. */
function readerOf(env: StorageEnv, log: Log): FacetReader | undefined {
  let reader = readers.get(env);
  if (!reader) readers.set(env, (reader = new FacetReader(env, log)));
  return reader.usable ? reader : undefined;
}

function* stored(coll: Collection, rids: Rid[]): Generator<Buffer | undefined> {
  for (const rid of rids) yield coll.peek(rid);
}

/**
 * The counts of a search's facets (FacetJob) in two parts, this thread's half and the reader thread's, for the
 * caller to add in that order; or undefined when this thread counts alone: too few candidates, no reader thread
 * ready, or a value a count does not key in this half. The promise resolves to undefined when the command is to
 * run again the ordinary way.
 */
export function countInHalves(
  coll: Collection,
  env: StorageEnv,
  tf: TextFilter,
  extras: QueryExtras,
  shape: Omit<FacetJob, 'test'>,
  from: number | undefined,
  log: Log,
): Promise<Tallied[][] | undefined> | undefined {
  from ??= PARALLEL_FROM;
  if (!threadsAvailable || from <= 0) return undefined;
  const { scores, test } = textCandidates(coll, tf, extras);
  if (scores.size < from) return undefined;
  const reader = readerOf(env, log);
  if (!reader) return undefined;
  const rids = [...scores.keys()].sort(naturalOrder);
  const half = rids.length >> 1;
  const job: FacetJob = { test, ...shape };
  const theirs = reader.count(
    coll.id,
    rids.slice(half),
    encode(job as unknown as Record<string, unknown>),
    env.currentStamp(),
  );
  const ours = facetTallies(job, stored(coll, rids.slice(0, half)), extras);
  if (!ours) return undefined;
  return theirs.then((t) => {
    if (t) facetThreadStats.twoThreads++;
    else facetThreadStats.again++;
    return t && [ours, t];
  });
}
