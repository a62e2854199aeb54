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
