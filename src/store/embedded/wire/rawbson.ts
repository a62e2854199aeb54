// Hand-built BSON for cursor replies so stored documents are copied into the reply as-is,
// without deserialising and re-serialising them:
//   { cursor: { <firstBatch|nextBatch>: [ ...raw docs ], id: Long, ns: string }, ok: 1.0 }

/** Bytes a batch of documents adds to a reply (element header + doc), for batch size limits. */
export function batchEntryBytes(index: number, doc: Buffer): number {
  return 2 + String(index).length + doc.length;
}

/**
 * Bytes kept free in front of a hand-built reply for the OP_MSG framing (16-byte header, flag bits, section
 * kind), so the wire layer frames it in place (codec.ts encodeReply) instead of copying it into a new buffer.
 */
export const FRAME_BYTES = 21;
const framable = new WeakSet<Buffer>();

/** The reply with its FRAME_BYTES of free space in front (a view of the same memory), if it was built with them. */
export function withFrameSpace(reply: Buffer): Buffer | undefined {
  return framable.has(reply) ? Buffer.from(reply.buffer, reply.byteOffset - FRAME_BYTES, FRAME_BYTES + reply.length) : undefined;
}

export function cursorReply(ns: string, id: bigint, batchKey: 'firstBatch' | 'nextBatch', docs: Buffer[]): Buffer {
  let arrayLen = 5;
  for (let i = 0; i < docs.length; i++) arrayLen += batchEntryBytes(i, docs[i]!);
  const nsLen = Buffer.byteLength(ns);
  const cursorLen = 4 + (2 + batchKey.length + arrayLen) + (1 + 3 + 8) + (1 + 3 + 4 + nsLen + 1) + 1;
  const total = 4 + (1 + 7 + cursorLen) + (1 + 3 + 8) + 1;
  const out = Buffer.allocUnsafe(FRAME_BYTES + total).subarray(FRAME_BYTES);
  framable.add(out);
  let p = 0;
  const name = (type: number, key: string): void => {
    out[p++] = type;
    p += out.write(key, p, 'latin1');
    out[p++] = 0;
  };
  out.writeInt32LE(total, p);
  p += 4;
  name(0x03, 'cursor');
  out.writeInt32LE(cursorLen, p);
  p += 4;
  name(0x04, batchKey);
  out.writeInt32LE(arrayLen, p);
  p += 4;
  for (let i = 0; i < docs.length; i++) {
    name(0x03, String(i));
    p += docs[i]!.copy(out, p);
  }
  out[p++] = 0;
  name(0x12, 'id');
  out.writeBigInt64LE(id, p);
  p += 8;
  name(0x02, 'ns');
  out.writeInt32LE(nsLen + 1, p);
  p += 4;
  p += out.write(ns, p, 'utf8');
  out[p++] = 0;
  out[p++] = 0; // end of cursor
  name(0x01, 'ok');
  out.writeDoubleLE(1, p);
  p += 8;
  out[p++] = 0;
  if (p !== total) throw new Error(`cursor reply size mismatch ${p} != ${total}`);
  return out;
}
