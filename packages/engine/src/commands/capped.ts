// Capped collections (create with capped/size/max): a size- and count-bounded collection in insertion
// order. After each insert the oldest documents are deleted until the collection is within its cap, as
// mongod does. A capped collection keeps its documents in insertion (slot) order (storage/collection.ts), so the
// oldest are the first of a scan.
import type { Document } from 'bson';
import type { Collection } from '../storage/collection.js';
import { CommandError } from '../errors.js';

/** MongoDB's effective cap: at least 4096 bytes, otherwise raised to a multiple of 256. */
export function cappedMaxSize(size: number): number {
  return size <= 4096 ? 4096 : Math.ceil(size / 256) * 256;
}

/** Checks create's capped options; returns the options to store (none for an uncapped collection). */
export function cappedOptions(body: Document): Document {
  if (body.capped !== true) return {};
  const size = Number(body.size);
  if (body.size === undefined || !Number.isFinite(size) || size <= 0)
    throw new CommandError('InvalidOptions', "the 'size' field is required when 'capped' is true");
  const out: Document = { capped: true, size: body.size };
  if (body.max !== undefined && Number(body.max) > 0) out.max = body.max;
  return out;
}

export function isCapped(coll: Collection): boolean {
  return coll.options.capped === true;
}

/** Refuses a document larger than the whole cap (it could never be kept). */
export function checkCappedFits(coll: Collection, bytes: Buffer): void {
  if (!isCapped(coll)) return;
  const max = cappedMaxSize(Number(coll.options.size));
  if (bytes.length > max) throw new CommandError('BadValue', `object to insert exceeds cappedMaxSize ${max}`);
}

/** Deletes the oldest documents until the collection is within its size and count caps. */
export function trimCapped(coll: Collection): void {
  if (!isCapped(coll)) return;
  const maxSize = cappedMaxSize(Number(coll.options.size));
  const maxDocs = coll.options.max === undefined ? Infinity : Number(coll.options.max);
  while (coll.size > 1 && (coll.dataSize > maxSize || coll.size > maxDocs)) {
    const oldest = coll.scan().next();
    if (oldest.done) return;
    coll.remove(oldest.value[0]);
  }
}
