// Stored values copied out of lmdb's reused read buffer, for the readers of documents.

/**
 * Stored values copied out of lmdb's reused read buffer (getBinaryFast) into large shared chunks: one copy and
 * no allocation per document, where getBinary allocates a new ArrayBuffer for each (the garbage collector's
 * work for `$in` lists and scans). A returned buffer is a view that keeps its chunk alive; values past a
 * quarter of a chunk get their own buffer.
 */
const CHUNK = 256 * 1024;
let chunk = Buffer.allocUnsafeSlow(CHUNK);
let used = 0;
export function copyOut(src: Buffer): Buffer {
  // lmdb's reused buffer reports the value's size as `length` over a larger array: copy exactly that much.
  const n = src.length;
  const value = new Uint8Array(src.buffer, src.byteOffset, n);
  if (n > CHUNK / 4) return Buffer.from(value);
  if (used + n > CHUNK) {
    chunk = Buffer.allocUnsafeSlow(CHUNK);
    used = 0;
  }
  chunk.set(value, used);
  const out = chunk.subarray(used, used + n);
  used += (n + 7) & ~7;
  return out;
}
