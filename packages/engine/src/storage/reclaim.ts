// Space given back after a drop, in the background. Dropping an index or a collection takes it out of the catalog
// at once, in the command's transaction, and records the key ranges it held (its index entries, its documents,
// the writes a build kept aside) as ranges to reclaim, in `meta`; their keys are then deleted a step at a time
// (STEP_MS per write transaction, then a pause as long, other commands served meanwhile), as MongoDB's
// drop-pending idents are.
// Ids are never reused (Catalog.newId), so no index or collection made later reads or writes a range still being
// reclaimed. The ranges are persisted with the drop: an engine stopped before it has deleted them all finishes
// at its next start. Dropping the articles' text index at `large` deleted 30 million entries in one transaction
// and held the engine for 29 s.
import { decode, encode } from './bsonio.js';
import type { StorageEnv } from './env.js';

/** A range of one of the environment's databases: the keys from `start` up to, not including, `end`. */
interface Range {
  db: 'docs' | 'keys' | 'meta';
  start: Buffer | string;
  end: Buffer | string;
}

const PREFIX = 'reclaim:';
/** Keys deleted between two looks at the clock. */
const CHUNK = 256;
/** Work per step: what other commands wait for at most while it runs. */
const STEP_MS = 4;

/** Ranges recorded per environment in this run (dropped transactions included): a commit after which this has
 *  not moved added none, and the ranges waiting are not read again. */
const recorded = new WeakMap<StorageEnv, number>();

/** Deletes the ranges waiting, a step per write transaction with as long a pause after it: those left by the last
 *  run at once, and any a commit adds after it. */
export function reclaimInBackground(env: StorageEnv): void {
  let running = false;
  let seen = -1;
  const kick = (): void => {
    const now = recorded.get(env) ?? 0;
    if (running || env.closing || now === seen) return;
    if (!reclaimPending(env)) {
      seen = now;
      return;
    }
    running = true;
    void (async () => {
      try {
        for (;;) {
          const at = recorded.get(env) ?? 0;
          if (env.closing) break;
          if (await env.writeAsync(() => reclaimStep(env, performance.now() + STEP_MS))) {
            seen = at;
            break;
          }
          // Then as long again for everything else: space given back is never urgent, and the writes of a drop
          // are not to slow the commands that follow it more than half.
          await new Promise((resolve) => setTimeout(resolve, STEP_MS));
        }
      } catch {
        // the engine is closing: the rest waits for the next start
      } finally {
        running = false;
      }
      kick();
    })();
  };
  env.onAfterCommit(kick);
  kick();
}

/** Records a range to reclaim (inside the dropping write transaction). */
export function reclaimLater(env: StorageEnv, range: Range): void {
  recorded.set(env, (recorded.get(env) ?? 0) + 1);
  env.meta.putSync(`${PREFIX}${String(nextSeq(env)).padStart(16, '0')}`, encode({ ...range }));
}

function nextSeq(env: StorageEnv): number {
  for (const key of env.meta.getKeys({ start: `${PREFIX}\uffff`, end: PREFIX, reverse: true, limit: 1 }))
    return Number(String(key).slice(PREFIX.length)) + 1;
  return 0;
}

/** Whether a range of `db` starting at `start` waits to be reclaimed. */
export function reclaimWaits(env: StorageEnv, db: Range['db'], start: Buffer | string): boolean {
  for (const { value } of env.meta.getRange({ start: PREFIX, end: `${PREFIX}\uffff` })) {
    const range = stored(decode(value as Buffer));
    if (range.db === db && (typeof start === 'string' ? range.start === start : start.equals(range.start as Buffer)))
      return true;
  }
  return false;
}

/** Whether any range waits to be reclaimed. */
export function reclaimPending(env: StorageEnv): boolean {
  for (const _ of env.meta.getKeys({ start: PREFIX, end: `${PREFIX}\uffff`, limit: 1 })) return true;
  return false;
}

/**
 * Deletes keys of the ranges waiting, the oldest first, until `until` (a performance.now() time) has passed (a
 * chunk at least); returns true once none is left. Runs inside a write transaction.
 */
export function reclaimStep(env: StorageEnv, until: number): boolean {
  for (;;) {
    let record: { key: string; range: Range } | undefined;
    for (const { key, value } of env.meta.getRange({ start: PREFIX, end: `${PREFIX}\uffff`, limit: 1 }))
      record = { key: String(key), range: stored(decode(value as Buffer)) };
    if (!record) return true;
    const { db, start, end } = record.range;
    const table = env[db] as unknown as {
      getKeys(o: { start: unknown; end: unknown; limit: number }): Iterable<unknown>;
      removeSync(k: unknown): boolean;
    };
    let emptied = false;
    do {
      const keys = [...table.getKeys({ start, end, limit: CHUNK })];
      for (const k of keys) table.removeSync(k);
      if (keys.length < CHUNK) emptied = true;
    } while (!emptied && performance.now() < until);
    if (!emptied) return false;
    env.meta.removeSync(record.key);
    if (performance.now() >= until) return !reclaimPending(env);
  }
}

/** A range as stored (BSON gives binary data back as a Binary). */
function stored(d: Record<string, unknown>): Range {
  const bytes = (v: unknown): Buffer | string =>
    typeof v === 'string' ? v : Buffer.from(v instanceof Uint8Array ? v : (v as { buffer: Uint8Array }).buffer);
  return { db: d.db as Range['db'], start: bytes(d.start), end: bytes(d.end) };
}
