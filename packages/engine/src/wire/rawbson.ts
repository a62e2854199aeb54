// Hand-built BSON for cursor replies so stored documents are copied into the reply as-is,
// without deserialising and re-serialising them:
//   { cursor: { <firstBatch|nextBatch>: [ ...raw docs ], id: Long, ns: string }, ok: 1.0 }
// Large replies are built in buffers the wire layer hands back once the socket has written them (replyBuffers),
// so a stream of large answers does not allocate (and make the collector chase) a new buffer per answer.

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
  return framable.has(reply)
    ? Buffer.from(reply.buffer, reply.byteOffset - FRAME_BYTES, FRAME_BYTES + reply.length)
    : undefined;
}

/** Replies below this size come from Node's allocator (small ones from its shared pool); at or above it, from replyBuffers. */
const POOLED_FROM = 16 * 1024;
const POOLED_UP_TO = 32 * 1024 * 1024;
/** Free buffers kept per size class (enough for the answers of a few connections in flight), and idle bytes at most. */
const FREE_PER_CLASS = 8;
const MAX_IDLE_BYTES = 32 * 1024 * 1024;

/**
 * Reusable reply memory in power-of-two size classes. A buffer is lent by take() and comes back only through
 * release(), which the wire server calls from the socket write's completion callback (wire/server.ts): a buffer
 * is never rewritten while a write that references it is pending. A buffer never released (a reply that was not
 * sent, a failed write) is simply collected: the lent set holds its memory weakly.
 */
class ReplyBuffers {
  private readonly free = new Map<number, ArrayBufferLike[]>();
  private readonly lent = new WeakSet<ArrayBufferLike>();
  private idle = 0;

  take(bytes: number): Buffer {
    if (bytes < POOLED_FROM || bytes > POOLED_UP_TO) return Buffer.allocUnsafe(bytes);
    const size = 2 ** Math.ceil(Math.log2(bytes));
    const reused = this.free.get(size)?.pop();
    if (reused) this.idle -= size;
    const memory = reused ?? Buffer.allocUnsafeSlow(size).buffer;
    this.lent.add(memory);
    return Buffer.from(memory, 0, size);
  }

  /** Whether `buf` is a view of memory lent by take() and not yet released. */
  lends(buf: Buffer): boolean {
    return this.lent.has(buf.buffer);
  }

  /** Gives the memory under `buf` back; call only when nothing will read `buf` (or another view of it) again. */
  release(buf: Buffer): void {
    const memory = buf.buffer;
    if (!this.lent.has(memory)) return;
    this.lent.delete(memory);
    let list = this.free.get(memory.byteLength);
    if (!list) this.free.set(memory.byteLength, (list = []));
    if (list.length >= FREE_PER_CLASS || this.idle + memory.byteLength > MAX_IDLE_BYTES) return;
    list.push(memory);
    this.idle += memory.byteLength;
  }
}

export const replyBuffers = new ReplyBuffers();

const bytesOf = (...parts: Array<number | string>): Buffer =>
  Buffer.concat(parts.map((x) => (typeof x === 'number' ? Buffer.from([x]) : Buffer.from(x, 'latin1'))));
// The reply's fixed parts, written with one set() each rather than a string encode per name.
const CURSOR_NAME = bytesOf(0x03, 'cursor', 0);
const BATCH_NAME = { firstBatch: bytesOf(0x04, 'firstBatch', 0), nextBatch: bytesOf(0x04, 'nextBatch', 0) };
const ID_NAME = bytesOf(0x12, 'id', 0);
const NS_NAME = bytesOf(0x02, 'ns', 0);
const ONE = Buffer.alloc(8);
ONE.writeDoubleLE(1);
const OK_TAIL = Buffer.concat([bytesOf(0, 0x01, 'ok', 0), ONE, bytesOf(0)]); // end of cursor, ok: 1.0, end of reply
/** Namespaces as BSON string bytes (utf8 and a terminating 0); a few dozen in practice. */
const nsBytes = new Map<string, Buffer>();
function nsCString(ns: string): Buffer {
  let b = nsBytes.get(ns);
  if (!b) {
    if (nsBytes.size >= 1024) nsBytes.clear();
    nsBytes.set(ns, (b = Buffer.from(`${ns}\0`, 'utf8')));
  }
  return b;
}

/**
 * Writes a cursor reply document in place: the documents appended one by one (copied straight from wherever
 * they are, e.g. lmdb's reused read buffer), then finish() fills in the lengths and the tail.
 */
export class CursorReplyWriter {
  private out: Buffer;
  private p: number;
  private count = 0;
  private readonly arrayAt: number;
  private readonly ns: Buffer;

  /** `expected`: the documents' batchEntryBytes, when known, so the buffer is taken at its final size. */
  constructor(
    ns: string,
    private readonly batchKey: 'firstBatch' | 'nextBatch',
    expected = 0,
  ) {
    this.ns = nsCString(ns);
    const head = FRAME_BYTES + 4 + CURSOR_NAME.length + 4 + BATCH_NAME[batchKey].length;
    this.out = replyBuffers.take(head + 4 + expected + 1 + this.tailBytes());
    this.arrayAt = head;
    this.p = head + 4;
  }

  /** Bytes of the documents appended so far, as batchEntryBytes counts them. */
  get batchBytes(): number {
    return this.p - this.arrayAt - 4;
  }

  add(doc: Buffer): void {
    const i = this.count++;
    const digits = i < 10 ? 1 : i < 100 ? 2 : String(i).length;
    const need = this.p + 2 + digits + doc.length + 1 + this.tailBytes();
    if (need > this.out.length) {
      const bigger = replyBuffers.take(Math.max(need, this.out.length * 2));
      this.out.copy(bigger, 0, 0, this.p);
      replyBuffers.release(this.out);
      this.out = bigger;
    }
    const out = this.out;
    let p = this.p;
    out[p++] = 0x03;
    for (let d = digits - 1, n = i; d >= 0; d--, n = Math.floor(n / 10)) out[p + d] = 0x30 + (n % 10);
    p += digits;
    out[p++] = 0;
    out.set(doc, p);
    this.p = p + doc.length;
  }

  /** Gives the memory back without building a reply. */
  discard(): void {
    replyBuffers.release(this.out);
  }

  finish(id: bigint): Buffer {
    const { out, ns, batchKey } = this;
    const total = this.p + 1 + this.tailBytes() - FRAME_BYTES;
    let p = FRAME_BYTES;
    out.writeInt32LE(total, p);
    out.set(CURSOR_NAME, (p += 4));
    p += CURSOR_NAME.length;
    out.writeInt32LE(total - (p - FRAME_BYTES) - (OK_TAIL.length - 1), p);
    out.set(BATCH_NAME[batchKey], (p += 4));
    p += BATCH_NAME[batchKey].length;
    out.writeInt32LE(this.p + 1 - this.arrayAt, p);
    p = this.p;
    out[p++] = 0; // end of the array
    out.set(ID_NAME, p);
    out.writeBigInt64LE(id, (p += ID_NAME.length));
    out.set(NS_NAME, (p += 8));
    out.writeInt32LE(ns.length, (p += NS_NAME.length));
    out.set(ns, (p += 4));
    out.set(OK_TAIL, (p += ns.length));
    p += OK_TAIL.length;
    if (p - FRAME_BYTES !== total) throw new Error(`cursor reply size mismatch ${p - FRAME_BYTES} != ${total}`);
    const reply = out.subarray(FRAME_BYTES, p);
    framable.add(reply);
    return reply;
  }

  /** Bytes after the array: its id and ns elements, the end of the cursor document, the ok element, the end. */
  private tailBytes(): number {
    return ID_NAME.length + 8 + NS_NAME.length + 4 + this.ns.length + OK_TAIL.length;
  }
}

// The parts of a one-document first batch around the document and the namespace (see idReply).
const FIRST_ELEMENT = bytesOf(0x03, '0', 0);
const ZERO_ID_NS = Buffer.concat([bytesOf(0), ID_NAME, Buffer.alloc(8), NS_NAME]); // end of the array, id: 0, ns's name

/**
 * The whole reply message to a find of at most one document (a find by `_id`), FRAME_BYTES of free space
 * then `cursorReply(ns, 0n, 'firstBatch', doc ? [doc] : [])`'s bytes, in one buffer from Node's pool: the same
 * reply written without a writer. `ns`: the namespace's bytes and terminating 0.
 */
export function idReply(ns: Buffer, doc: Buffer | undefined): Buffer {
  const docBytes = doc ? FIRST_ELEMENT.length + doc.length : 0;
  const array = 4 + docBytes + 1;
  const cursor = 4 + BATCH_NAME.firstBatch.length + array + ZERO_ID_NS.length - 1 + 4 + ns.length + 1;
  const total = 4 + CURSOR_NAME.length + cursor + OK_TAIL.length - 1;
  const out = Buffer.allocUnsafe(FRAME_BYTES + total);
  let p = FRAME_BYTES;
  out.writeInt32LE(total, p);
  out.set(CURSOR_NAME, (p += 4));
  out.writeInt32LE(cursor, (p += CURSOR_NAME.length));
  out.set(BATCH_NAME.firstBatch, (p += 4));
  out.writeInt32LE(array, (p += BATCH_NAME.firstBatch.length));
  p += 4;
  if (doc) {
    out.set(FIRST_ELEMENT, p);
    out.set(doc, (p += FIRST_ELEMENT.length));
    p += doc.length;
  }
  out.set(ZERO_ID_NS, p);
  out.writeInt32LE(ns.length, (p += ZERO_ID_NS.length));
  out.set(ns, (p += 4));
  out.set(OK_TAIL, (p += ns.length));
  return out;
}

export function cursorReply(ns: string, id: bigint, batchKey: 'firstBatch' | 'nextBatch', docs: Buffer[]): Buffer {
  let bytes = 0;
  for (let i = 0; i < docs.length; i++) bytes += batchEntryBytes(i, docs[i]!);
  const writer = new CursorReplyWriter(ns, batchKey, bytes);
  for (const doc of docs) writer.add(doc);
  return writer.finish(id);
}
