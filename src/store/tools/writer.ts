// Writes documents into a collection in unordered batches, one batch in flight while the next is gathered.
// `replace` makes a re-run converge (the upsert-by-_id of a resumed copy) as delete-by-_id then insertMany,
// not as replaceOne: the embedded engine re-encodes documents that arrive inside a command's body (update,
// replaceOne, insertOne) from JavaScript values, which turns a whole double (1.0) into an int32, while the
// documents insertMany sends as an OP_MSG document sequence keep their bytes.
import type { Db, Document } from 'mongodb';
import { ToolError } from './errors.js';

export type WriteMode = 'insert' | 'replace';

/** Writes `docs` into `name`; `written(n)` after each batch. Returns how many were written. */
export async function writeAll(
  db: Db,
  name: string,
  docs: AsyncIterable<Document>,
  opts: { batchSize: number; mode: WriteMode; written: (n: number) => void },
): Promise<number> {
  const coll = db.collection(name);
  let total = 0;
  let inFlight: Promise<void> | undefined;
  const write = async (batch: Document[]): Promise<void> => {
    if (opts.mode === 'replace') {
      const ids = batch.filter((d) => d._id !== undefined).map((d) => d._id as unknown);
      await coll.deleteMany({ _id: { $in: ids } } as Document);
    }
    await coll.insertMany(batch, { ordered: false });
  };
  const flush = async (batch: Document[]): Promise<void> => {
    await inFlight;
    inFlight = write(batch).then(
      () => {
        total += batch.length;
        opts.written(batch.length);
      },
      (err: unknown) => {
        throw new ToolError(`writing to "${name}" failed after ${total} documents: ${(err as Error).message}`);
      },
    );
    // A failure surfaces at the next flush at the latest; meanwhile it is no unhandled rejection.
    inFlight.catch(() => undefined);
  };
  let batch: Document[] = [];
  try {
    for await (const doc of docs) {
      batch.push(doc);
      if (batch.length >= opts.batchSize) {
        await flush(batch);
        batch = [];
      }
    }
  } catch (err) {
    // The source failed: let the batch in flight land before the caller cleans up after it.
    await inFlight?.catch(() => undefined);
    throw err;
  }
  if (batch.length) await flush(batch);
  await inFlight;
  return total;
}
