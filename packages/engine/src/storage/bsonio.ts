// BSON encode/decode helpers shared by storage, queries and commands, so every layer uses the same
// promotion rules (numbers as JS numbers, Longs beyond 2^53 kept as Long) when it needs live objects.
import { deserialize, serialize } from 'bson';
import type { Document } from 'bson';

export function decode(bytes: Uint8Array, index = 0): Document {
  return deserialize(bytes, { index, allowObjectSmallerThanBufferSize: index > 0 || undefined });
}

/** Serialises a document into an exactly sized Buffer that storage may keep. */
export function encode(doc: Document): Buffer {
  const u8 = serialize(doc);
  return Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
}

/** Little-endian int32 length prefix of the BSON document at `offset`. */
export function docLength(bytes: Uint8Array, offset = 0): number {
  return (bytes[offset]! | (bytes[offset + 1]! << 8) | (bytes[offset + 2]! << 16) | (bytes[offset + 3]! << 24)) >>> 0;
}

/** True if the first field of the raw document is `_id` (MongoDB stores _id first). */
export function idIsFirst(bytes: Uint8Array): boolean {
  return bytes.length > 8 && bytes[5] === 0x5f && bytes[6] === 0x69 && bytes[7] === 0x64 && bytes[8] === 0;
}

/** A copy of the document with _id moved to the front (the server's canonical field order). */
export function withIdFirst(doc: Document): Document {
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

/** Byte size of the value of a BSON element of `type` starting at `at`, or -1 for an unknown type. */
export function valueSize(bytes: Uint8Array, type: number, at: number): number {
  switch (type) {
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // MaxKey
    case 0xff: // MinKey
      return 0;
    case 0x08:
      return 1; // bool
    case 0x10:
      return 4; // int32
    case 0x01:
    case 0x09:
    case 0x11:
    case 0x12:
      return 8; // double, date, timestamp, int64
    case 0x07:
      return 12; // ObjectId
    case 0x13:
      return 16; // decimal128
    case 0x02:
    case 0x0d:
    case 0x0e:
      return 4 + docLength(bytes, at); // string, code, symbol
    case 0x03:
    case 0x04:
    case 0x0f:
      return docLength(bytes, at); // document, array, code with scope
    case 0x05:
      return 5 + docLength(bytes, at); // binary
    case 0x0c:
      return 4 + docLength(bytes, at) + 12; // DBPointer
    case 0x0b: {
      // regex: pattern and options cstrings
      const p = indexOfZero(bytes, at);
      const o = p < 0 ? -1 : indexOfZero(bytes, p + 1);
      return o < 0 ? -1 : o + 1 - at;
    }
    default:
      return -1;
  }
}

/** Position of the next zero byte (the end of a cstring) from `from`, or -1. */
export function indexOfZero(bytes: Uint8Array, from: number): number {
  for (let i = from; i < bytes.length; i++) if (bytes[i] === 0) return i;
  return -1;
}

/**
 * The _id of a raw document whose first field is _id, decoding only that element (inserting into a
 * collection with no secondary index needs nothing else). Returns undefined when it cannot.
 */
export function leadingId(bytes: Uint8Array): { _id: unknown } | undefined {
  if (!idIsFirst(bytes)) return undefined;
  const type = bytes[4]!;
  const size = valueSize(bytes, type, 9);
  if (size < 0 || 9 + size > bytes.length) return undefined;
  const mini = Buffer.allocUnsafe(4 + 1 + 4 + size + 1);
  mini.writeInt32LE(mini.length, 0);
  mini.set(bytes.subarray(4, 9 + size), 4);
  mini[mini.length - 1] = 0;
  return decode(mini) as { _id: unknown };
}
