// Numeric BSON types across an update. Queries and updates work on decoded JavaScript values, where
// int32, int64 and double are all `number`; re-encoding would store every integral value as int32. A
// rewritten document takes each number's type from the stored original at the same path: a Long stays a
// Long, a Double a Double (also after $inc/$mul), an Int32 that outgrows 32 bits becomes a Long, as in
// MongoDB. Values new to the document keep the encoder's choice.
import { Double, Long, deserialize, type Document } from 'bson';

function isPlain(v: unknown): v is Document {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function bsonType(v: unknown): string | undefined {
  return v !== null && typeof v === 'object' ? (v as { _bsontype?: string })._bsontype : undefined;
}

function retype(value: unknown, orig: unknown): unknown {
  if (typeof value === 'number') {
    switch (bsonType(orig)) {
      case 'Double':
        return new Double(value);
      case 'Long':
        return Number.isInteger(value) ? Long.fromNumber(value) : value;
      case 'Int32':
        return Number.isInteger(value) && (value > 0x7fffffff || value < -0x80000000) ? Long.fromNumber(value) : value;
      default:
        return value;
    }
  }
  if (Array.isArray(value)) return Array.isArray(orig) ? value.map((v, i) => retype(v, orig[i])) : value;
  if (isPlain(value) && isPlain(orig)) {
    const out: Document = {};
    for (const [k, v] of Object.entries(value)) out[k] = retype(v, orig[k]);
    return out;
  }
  return value;
}

/** `next` (the updated document) with the numeric types of the stored document `storedBytes`. */
export function withStoredTypes(next: Document, storedBytes: Uint8Array): Document {
  const typed = deserialize(storedBytes, { promoteValues: false, promoteBuffers: false });
  return retype(next, typed) as Document;
}
