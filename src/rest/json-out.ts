// A growable buffer of JSON bytes, the output of the raw BSON writers (bson-json.ts) and of the listings
// built with them.
import { Unusual } from './bson-elements.js';

/** A growable output buffer of JSON bytes. */
export class JsonOut {
  buf: Buffer;
  pos = 0;

  constructor(capacity = 1 << 20) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(b: number): void {
    if (this.pos >= this.buf.length) this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** One byte, then this output (to chain an opening brace with the members after it). */
  opened(b: number): this {
    this.byte(b);
    return this;
  }

  /** Pre-encoded bytes (a literal key, a rendered fragment). */
  bytes(src: Buffer, start = 0, end = src.length): void {
    const n = end - start;
    this.ensure(n);
    const dst = this.buf;
    let p = this.pos;
    if (n < 48) for (let i = start; i < end; i++) dst[p++] = src[i]!;
    else p += src.copy(dst, p, start, end);
    this.pos = p;
  }

  /** Bytes already written to this output, again (a product listed under several categories). */
  repeat(start: number, end: number): void {
    this.ensure(end - start);
    this.pos += this.buf.copy(this.buf, this.pos, start, end);
  }

  /** Any JSON value through `JSON.stringify` (small computed values: money, localised text). */
  json(value: unknown): void {
    const text = JSON.stringify(value);
    if (text === undefined) throw new Unusual('a value JSON leaves out');
    this.text(text);
  }

  /** JSON text held in a JavaScript string. */
  text(text: string): void {
    const n = text.length;
    this.ensure(n * 3);
    const dst = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) {
        this.pos += dst.write(text, this.pos, 'utf8');
        return;
      }
      dst[p++] = c;
    }
    this.pos = p;
  }

  /**
   * The bytes written so far: a view when the buffer is at least four-fifths full, else a copy of just those
   * bytes, so an answer kept by the response cache does not hold on to much more memory than its length says.
   */
  result(): Buffer {
    const view = this.buf.subarray(0, this.pos);
    return this.buf.length - this.pos > this.pos / 4 ? Buffer.from(view) : view;
  }
}

const keyCache = new Map<string, Buffer>();
/** `"key":` as bytes, made once per key (literal keys, and the few distinct languages of translations). */
export function keyBytes(key: string): Buffer {
  let bytes = keyCache.get(key);
  if (!bytes) {
    bytes = Buffer.from(`${JSON.stringify(key)}:`);
    if (keyCache.size < 10_000) keyCache.set(key, bytes);
  }
  return bytes;
}
