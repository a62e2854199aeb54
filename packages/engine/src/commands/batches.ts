// The first batch of a cursor: a lazy source of encoded documents registered as a cursor, and its reply.
import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import { encode } from '../storage/bsonio.js';
import { cursorReply } from '../wire/rawbson.js';
import type { CommandContext } from './context.js';

/** Runs a lazy result source as a cursor and returns the first-batch reply. */
export function firstBatchReply(
  ctx: CommandContext,
  ns: string,
  source: Iterator<Buffer>,
  batchSize: number | undefined,
  singleBatch: boolean,
): Buffer {
  if (batchSize !== undefined && batchSize < 0)
    throw new CommandError('BadValue', 'BatchSize value must be non-negative');
  const batch = ctx.state.cursors.first(ns, source, batchSize, singleBatch);
  return cursorReply(ns, batch.id, 'firstBatch', batch.docs);
}

/** Documents as their BSON bytes, encoded as the cursor reaches them. */
export function* encoded(docs: Iterable<Document>): Generator<Buffer> {
  for (const d of docs) yield encode(d);
}
