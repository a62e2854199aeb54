// A large insert runs as several write transactions, each holding the event loop for a few milliseconds at
// most; lmdb's write thread commits them (one commit for the transactions queued together, concurrent
// inserts' included) while the loop answers other connections, so reads are answered while it proceeds
// instead of waiting for one transaction of the whole batch: a seed or an import must not stall readers.
// A transaction takes slices of SLICE documents (each slice is the insert command over those documents)
// until TURN_MS have passed; the slices' replies are merged (n summed, write error indexes shifted back), an
// ordered insert stops at its first error as it would in one piece, and the command is acknowledged once
// every transaction has committed (should one commit fail, the command fails; transactions queued after it
// may have committed, so an unacknowledged insert can keep a part of the batch). Documents were never
// inserted atomically as a group (an ordered insert failing at document 5 keeps 0–4), so readers seeing a
// prefix of the batch, or a crash keeping a prefix of an unacknowledged one, is what MongoDB allows too.
import type { Document } from 'bson';
import type { ReplyBody } from '../wire/codec.js';
import type { Invocation } from './context.js';

/** Documents per slice; inserts of at most this many run as one transaction. */
const SLICE = 32;
/** Time after which a transaction of a large insert commits and lets the event loop turn. */
const TURN_MS = 4;

/**
 * When the transactions of the current commit began running. lmdb runs the transactions queued for one commit
 * back to back on the event loop (no turn between them), then commits on its write thread: concurrent large
 * inserts share the one TURN_MS budget of the commit rather than taking TURN_MS each, so what reads wait for
 * stays about TURN_MS whatever the number of inserts in flight (each still takes at least one slice).
 */
let turnStarted: number | undefined;
function turnStart(): number {
  if (turnStarted === undefined) {
    turnStarted = performance.now();
    queueMicrotask(() => (turnStarted = undefined));
  }
  return turnStarted;
}

/** The number of documents of an insert command, when it is large enough to split. */
export function chunkedInsertSize(name: string, inv: Invocation): number | undefined {
  if (name !== 'insert') return undefined;
  const n =
    inv.sequences.get('documents')?.length ?? (Array.isArray(inv.body.documents) ? inv.body.documents.length : 0);
  return n > SLICE ? n : undefined;
}

/** The same insert over documents [from, to). */
function slice(inv: Invocation, from: number, to: number): Invocation {
  const seq = inv.sequences.get('documents');
  if (seq) return { ...inv, sequences: new Map([...inv.sequences, ['documents', seq.slice(from, to)]]) };
  return { ...inv, body: { ...inv.body, documents: (inv.body.documents as unknown[]).slice(from, to) } };
}

/**
 * Runs the insert transaction by transaction: `write` runs a function in one write transaction, `runSlice`
 * executes the insert over some of the documents (its reply is the command's reply for those).
 */
export async function insertInChunks(
  inv: Invocation,
  total: number,
  write: <T>(fn: () => T, ran: () => void) => Promise<T>,
  runSlice: (part: Invocation) => ReplyBody,
): Promise<ReplyBody> {
  const ordered = inv.body.ordered !== false;
  let n = 0;
  const writeErrors: Document[] = [];
  let from = 0;
  /** A command-level error (ok: 0, e.g. a bad namespace) is the same for every slice: the first says it. */
  let failed: ReplyBody | undefined;
  const commits: Array<Promise<void>> = [];
  while (from < total && !failed) {
    // The next transaction is queued as soon as this one has run (not committed): it joins lmdb's next commit,
    // so the insert takes part in every commit while the event loop serves reads between them.
    let ran!: () => void;
    const hasRun = new Promise<void>((resolve) => (ran = resolve));
    const committed = write(() => {
      const started = turnStart();
      do {
        const to = Math.min(total, from + SLICE);
        const reply = runSlice(slice(inv, from, to));
        if (Buffer.isBuffer(reply) || reply.ok !== 1) {
          failed = reply;
          return;
        }
        n += Number(reply.n ?? 0);
        for (const e of (reply.writeErrors as Document[] | undefined) ?? [])
          writeErrors.push({ ...e, index: Number(e.index) + from });
        from = to;
        if (ordered && writeErrors.length) from = total;
      } while (from < total && performance.now() - started < TURN_MS);
    }, ran);
    committed.catch(() => undefined); // observed below, by Promise.all
    commits.push(committed);
    await Promise.race([hasRun, committed]);
  }
  // Acknowledged once every transaction has committed; a failed commit fails the command.
  await Promise.all(commits);
  if (failed) return failed;
  const merged: Document = { n };
  if (writeErrors.length) merged.writeErrors = writeErrors;
  merged.ok = 1;
  return merged;
}
