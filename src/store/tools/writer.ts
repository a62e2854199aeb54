// Writes documents into a collection in batches of unordered replace-by-_id upserts, so a re-run converges
// on the same contents instead of failing on duplicates. One batch is in flight while the next is gathered.
import type { AnyBulkWriteOperation, Db, Document } from 'mongodb';
import { ToolError } from './errors.js';

const asOperation = (doc: Document): AnyBulkWriteOperation =>
  doc._id === undefined
    ? { insertOne: { document: doc } }
    : { replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } };

/** Writes `docs` into `name`; `written(n)` after each batch. Returns how many were written. */
export async function upsertAll(db: Db, name: string, docs: AsyncIterable<Document>, batchSize: number, written: (n: number) => void): Promise<number> {
  const coll = db.collection(name);
  let total = 0;
  let inFlight: Promise<void> | undefined;
  const flush = async (batch: AnyBulkWriteOperation[]): Promise<void> => {
    await inFlight;
    inFlight = coll.bulkWrite(batch, { ordered: false }).then(
      () => {
        total += batch.length;
        written(batch.length);
      },
      (err: unknown) => {
        throw new ToolError(`writing to "${name}" failed after ${total} documents: ${(err as Error).message}`);
      },
    );
    // Surface a failure at the next flush at the latest; keep it from being an unhandled rejection meanwhile.
    inFlight.catch(() => undefined);
  };
  let batch: AnyBulkWriteOperation[] = [];
  for await (const doc of docs) {
    batch.push(asOperation(doc));
    if (batch.length >= batchSize) {
      await flush(batch);
      batch = [];
    }
  }
  if (batch.length) await flush(batch);
  await inFlight;
  return total;
}
