// Reads of many documents, decoded once. With command monitoring on (the store_command_duration_seconds
// histogram, metrics/store-metrics.ts), the driver decodes every reply whole for its CommandSucceededEvent and
// then decodes each document of the batch again for the cursor. Asked for raw documents, it keeps the batch as
// bytes in the event's copy and hands the cursor's documents over as bytes, which are decoded here with the
// driver's own BSON and its default options: the same objects, one decode instead of two.
import { BSON, type AggregateOptions, type Collection, type Document, type Filter, type FindOptions } from 'mongodb';

/** Raw documents (`raw: true`) decoded with the driver's BSON and its default options. */
export function decoded<T>(raw: unknown[]): T[] {
  return (raw as Uint8Array[]).map((bytes) => BSON.deserialize(bytes) as T);
}

export async function findAll<T extends Document>(
  collection: Collection<T>,
  filter: Filter<T>,
  options: FindOptions,
): Promise<T[]> {
  return decoded<T>(await collection.find(filter, { ...options, raw: true }).toArray());
}

export async function aggregateAll<R extends Document>(
  collection: Collection<Document>,
  pipeline: Document[],
  options: AggregateOptions,
): Promise<R[]> {
  return decoded<R>(await collection.aggregate(pipeline, { ...options, raw: true }).toArray());
}
