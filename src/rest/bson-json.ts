// Raw BSON documents written straight out as JSON bytes, for REST lists of tens of megabytes: no JavaScript
// object per stored field, no intermediate JSON string. The bytes are exactly what `JSON.stringify` gives for
// the object the driver would have deserialized (same keys in the same order, same number and string forms);
// anything whose JSON form depends on more than the bytes (an integer-like, duplicate, `$`-prefixed or
// `__proto__` key, a type other than string / number / boolean / null / document / array, invalid UTF-8)
// throws `Unusual`, and the caller renders the answer through the ordinary mapper instead.
//
// An element is one number, its value's offset and its BSON type packed together (0: absent), so indexing a
// document allocates one small array and no object per field.
import { isUtf8 } from 'node:buffer';

/** This answer needs the ordinary deserialize-and-map path. */
export class Unusual extends Error {
  constructor(what: string) {
    super(`BSON value needs the ordinary path: ${what}`);
  }
}

const T_DOUBLE = 0x01;
const T_STRING = 0x02;
const T_DOCUMENT = 0x03;
const T_ARRAY = 0x04;
const T_BOOLEAN = 0x08;
const T_NULL = 0x0a;
const T_INT32 = 0x10;
const T_INT64 = 0x12;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

/** A value's offset and BSON type in one number; 0 when the field is absent. */
export type Element = number;
const element = (type: number, at: number): Element => {
  if (at >= 1 << 23) throw new Unusual('a document over 8 MiB');
  return (at << 8) | type;
};
const typeOf = (e: Element): number => e & 0xff;
const at = (e: Element): number => e >>> 8;

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

/** Past the end of a value of `type` starting at `from` (types this module copies; others are Unusual). */
function valueEnd(buf: Buffer, type: number, from: number): number {
  switch (type) {
    case T_DOUBLE:
    case T_INT64:
      return from + 8;
    case T_STRING:
      return from + 4 + buf.readInt32LE(from);
    case T_DOCUMENT:
    case T_ARRAY:
      return from + buf.readInt32LE(from);
    case T_BOOLEAN:
      return from + 1;
    case T_NULL:
      return from;
    case T_INT32:
      return from + 4;
    default:
      throw new Unusual(`type 0x${type.toString(16)}`);
  }
}

/** End of the cstring starting at `from` (the offset of its NUL). */
function cstringEnd(buf: Buffer, from: number): number {
  let i = from;
  while (buf[i] !== 0) i++;
  return i;
}

const sameBytes = (buf: Buffer, start: number, end: number, key: Buffer): boolean => {
  if (end - start !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (buf[start + i] !== key[i]) return false;
  return true;
};

const PROTO = Buffer.from('__proto__');

/** Keys whose place or meaning in the deserialized object differs from their place in the bytes. */
function checkKey(buf: Buffer, start: number, end: number): void {
  const first = buf[start]!;
  if (first >= 0x30 && first <= 0x39) throw new Unusual('an integer-like key');
  if (first === 0x24) throw new Unusual('a $-prefixed key');
  if (sameBytes(buf, start, end, PROTO)) throw new Unusual('a __proto__ key');
}

/**
 * Key offsets of the documents being walked, innermost last, as [start, end] pairs: one array for every walk
 * (a walk remembers where its keys begin and cuts the array back when done), so checking keys allocates nothing.
 */
const seenKeys: number[] = [];

/** Throws on a key seen before in the same document (its keys so far are `seenKeys` from `base` on). */
function checkUnique(buf: Buffer, start: number, end: number, base: number): void {
  const len = end - start;
  for (let j = base; j < seenKeys.length; j += 2) {
    const s = seenKeys[j]!;
    if (seenKeys[j + 1]! - s !== len) continue;
    let same = true;
    for (let i = 0; i < len; i++) {
      if (buf[s + i] !== buf[start + i]) {
        same = false;
        break;
      }
    }
    if (same) throw new Unusual('a duplicate key');
  }
  seenKeys.push(start, end);
}

/** The top-level fields a writer reads, by slot: their names as bytes, looked up without decoding keys. */
export class FieldSet<K extends string> {
  readonly slot: Record<K, number>;
  private readonly names: Buffer[];

  constructor(names: readonly K[]) {
    this.names = names.map((n) => Buffer.from(n));
    this.slot = Object.fromEntries(names.map((n, i) => [n, i])) as Record<K, number>;
  }

  get size(): number {
    return this.names.length;
  }

  /** The elements of the document's fields in this set, by slot (0 for absent); a field seen twice is Unusual. */
  index(buf: Buffer): Element[] {
    const into = new Array<number>(this.names.length).fill(0);
    const end = buf.readInt32LE(0) - 1;
    let i = 4;
    let guess = 0;
    while (i < end) {
      const type = buf[i]!;
      const k = i + 1;
      const ke = cstringEnd(buf, k);
      const value = ke + 1;
      i = valueEnd(buf, type, value);
      // Stored documents mostly keep one field order: try the slot after the last one found first.
      let slot = -1;
      if (guess < this.names.length && sameBytes(buf, k, ke, this.names[guess]!)) slot = guess;
      else for (let s = 0; s < this.names.length && slot < 0; s++) if (sameBytes(buf, k, ke, this.names[s]!)) slot = s;
      if (slot < 0) continue;
      if (into[slot]) throw new Unusual('a duplicate key');
      into[slot] = element(type, value);
      guess = slot + 1;
    }
    return into;
  }
}

const FIRST_BATCH = Buffer.from('firstBatch');
const NEXT_BATCH = Buffer.from('nextBatch');
const CURSOR_ID = Buffer.from('id');

/**
 * The documents of a raw `find` / `getMore` reply's cursor (`{ firstBatch | nextBatch, id, ns }`), appended to
 * `docs` each as its own buffer (sharing the reply's memory); returns the cursor id, 0n once exhausted.
 */
export function cursorBatch(cursor: Buffer, docs: Buffer[]): bigint {
  const end = cursor.readInt32LE(0) - 1;
  let i = 4;
  let id = 0n;
  while (i < end) {
    const type = cursor[i]!;
    const k = i + 1;
    const ke = cstringEnd(cursor, k);
    const value = ke + 1;
    if (type === T_ARRAY && (sameBytes(cursor, k, ke, FIRST_BATCH) || sameBytes(cursor, k, ke, NEXT_BATCH))) {
      const listEnd = value + cursor.readInt32LE(value) - 1;
      let j = value + 4;
      while (j < listEnd) {
        if (cursor[j] !== T_DOCUMENT) throw new Error('a cursor batch entry that is not a document');
        const doc = cstringEnd(cursor, j + 1) + 1;
        const docEnd = doc + cursor.readInt32LE(doc);
        docs.push(cursor.subarray(doc, docEnd));
        j = docEnd;
      }
    } else if (type === T_INT64 && sameBytes(cursor, k, ke, CURSOR_ID)) {
      id = cursor.readBigInt64LE(value);
    }
    i = valueEnd(cursor, type, value);
  }
  return id;
}

/** A string value's JavaScript string (for small values: ids, currency codes, languages). */
export function stringAt(buf: Buffer, e: Element): string | undefined {
  if (typeOf(e) !== T_STRING) return undefined;
  const from = at(e);
  return buf.toString('utf8', from + 4, from + 3 + buf.readInt32LE(from));
}

/** A number value (double, int32, safe int64) as the driver promotes it; undefined for other types. */
export function numberAt(buf: Buffer, e: Element): number | undefined {
  const type = typeOf(e);
  if (type === T_DOUBLE) return buf.readDoubleLE(at(e));
  if (type === T_INT32) return buf.readInt32LE(at(e));
  if (type === T_INT64) {
    const n = buf.readBigInt64LE(at(e));
    if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER)) throw new Unusual('an int64 beyond 2^53');
    return Number(n);
  }
  return undefined;
}

export const isAbsent = (e: Element): boolean => e === 0;
export const isNullish = (e: Element): boolean => e === 0 || typeOf(e) === T_NULL;
export const isDocument = (e: Element): boolean => e !== 0 && typeOf(e) === T_DOCUMENT;
export const isArray = (e: Element): boolean => e !== 0 && typeOf(e) === T_ARRAY;
export const isString = (e: Element): boolean => e !== 0 && typeOf(e) === T_STRING;
/** A string value that is not empty. */
export const isNonEmptyString = (buf: Buffer, e: Element): boolean => isString(e) && buf.readInt32LE(at(e)) > 1;

/** A string value as JSON: copied byte for byte when nothing needs escaping, else through JSON.stringify. */
function writeString(out: JsonOut, buf: Buffer, from: number): void {
  const start = from + 4;
  const end = start + buf.readInt32LE(from) - 1;
  let plain = true;
  let high = false;
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b < 0x20 || b === QUOTE || b === BACKSLASH) {
      plain = false;
      break;
    }
    if (b >= 0x80) high = true;
  }
  if (high && !isUtf8(buf.subarray(start, end))) throw new Unusual('a string that is not UTF-8');
  if (!plain) return out.text(JSON.stringify(buf.toString('utf8', start, end)));
  out.ensure(end - start + 2);
  const dst = out.buf;
  let p = out.pos;
  dst[p++] = QUOTE;
  if (end - start < 48) for (let i = start; i < end; i++) dst[p++] = buf[i]!;
  else p += buf.copy(dst, p, start, end);
  dst[p++] = QUOTE;
  out.pos = p;
}

/** A cstring key as a JSON string and a colon. */
function writeKey(out: JsonOut, buf: Buffer, start: number, end: number): void {
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b < 0x20 || b === QUOTE || b === BACKSLASH || b >= 0x80) {
      if (!isUtf8(buf.subarray(start, end))) throw new Unusual('a key that is not UTF-8');
      return out.text(`${JSON.stringify(buf.toString('utf8', start, end))}:`);
    }
  }
  out.ensure(end - start + 3);
  const dst = out.buf;
  let p = out.pos;
  dst[p++] = QUOTE;
  for (let i = start; i < end; i++) dst[p++] = buf[i]!;
  dst[p++] = QUOTE;
  dst[p++] = COLON;
  out.pos = p;
}

/**
 * A document's members as JSON, `{"k":v,...}` in stored order; `replace(keyStart, keyEnd, element)` may write
 * a member's value itself (returning true), as `{ ...doc, k: f(doc.k) }` keeps the key's place.
 */
export function writeDocument(out: JsonOut, buf: Buffer, e: Element, replace?: (keyStart: number, keyEnd: number, value: Element) => boolean): void {
  const from = at(e);
  const end = from + buf.readInt32LE(from) - 1;
  let i = from + 4;
  out.byte(0x7b);
  const base = seenKeys.length;
  try {
    while (i < end) {
      const type = buf[i]!;
      const k = i + 1;
      const ke = cstringEnd(buf, k);
      checkKey(buf, k, ke);
      if (seenKeys.length > base) out.byte(COMMA);
      checkUnique(buf, k, ke, base);
      writeKey(out, buf, k, ke);
      const value = ke + 1;
      if (!replace?.(k, ke, element(type, value))) writeValueOf(out, buf, type, value);
      i = valueEnd(buf, type, value);
    }
  } finally {
    seenKeys.length = base;
  }
  out.byte(0x7d);
}

function writeArray(out: JsonOut, buf: Buffer, from: number): void {
  const end = from + buf.readInt32LE(from) - 1;
  let i = from + 4;
  out.byte(0x5b);
  let first = true;
  while (i < end) {
    const type = buf[i]!;
    const value = cstringEnd(buf, i + 1) + 1;
    if (!first) out.byte(COMMA);
    first = false;
    writeValueOf(out, buf, type, value);
    i = valueEnd(buf, type, value);
  }
  out.byte(0x5d);
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

function writeValueOf(out: JsonOut, buf: Buffer, type: number, from: number): void {
  switch (type) {
    case T_STRING:
      return writeString(out, buf, from);
    case T_DOCUMENT:
      return writeDocument(out, buf, element(type, from));
    case T_ARRAY:
      return writeArray(out, buf, from);
    case T_BOOLEAN:
      return out.bytes(buf[from] ? TRUE : FALSE);
    case T_NULL:
      return out.bytes(NULL);
    case T_INT32:
      return out.text(String(buf.readInt32LE(from)));
    case T_DOUBLE:
    case T_INT64:
      return out.json(numberAt(buf, element(type, from)));
    default:
      throw new Unusual(`type 0x${type.toString(16)}`);
  }
}

/** An element's value as JSON, as `JSON.stringify` writes the deserialized value. */
export function writeValue(out: JsonOut, buf: Buffer, e: Element): void {
  writeValueOf(out, buf, typeOf(e), at(e));
}

/** `{ ...value }` of an element: a document's members; `{}` for absent or null (spreading undefined or null). */
export function writeSpread(out: JsonOut, buf: Buffer, e: Element): void {
  if (isNullish(e)) return out.text('{}');
  if (!isDocument(e)) throw new Unusual('a spread of a non-document');
  writeDocument(out, buf, e);
}

/** `doc[key]` of a document element (0 when absent); a key stored twice is Unusual (the object keeps the last). */
export function memberOf(buf: Buffer, doc: Element, key: Buffer): Element {
  const from = at(doc);
  const end = from + buf.readInt32LE(from) - 1;
  let i = from + 4;
  let found = 0;
  while (i < end) {
    const type = buf[i]!;
    const k = i + 1;
    const ke = cstringEnd(buf, k);
    const value = ke + 1;
    if (sameBytes(buf, k, ke, key)) {
      if (found) throw new Unusual('a duplicate key');
      found = element(type, value);
    }
    i = valueEnd(buf, type, value);
  }
  return found;
}

/** Each member of a document element, in stored order, with its key decoded (small documents: translations). */
export function eachMember(buf: Buffer, doc: Element, each: (key: string, member: Element) => void): void {
  const from = at(doc);
  const end = from + buf.readInt32LE(from) - 1;
  let i = from + 4;
  const base = seenKeys.length;
  try {
    while (i < end) {
      const type = buf[i]!;
      const k = i + 1;
      const ke = cstringEnd(buf, k);
      checkKey(buf, k, ke);
      checkUnique(buf, k, ke, base);
      if (!isUtf8(buf.subarray(k, ke))) throw new Unusual('a key that is not UTF-8');
      const value = ke + 1;
      each(buf.toString('utf8', k, ke), element(type, value));
      i = valueEnd(buf, type, value);
    }
  } finally {
    seenKeys.length = base;
  }
}

/** Each element of an array element, in order. */
export function eachItem(buf: Buffer, list: Element, each: (item: Element, index: number) => void): void {
  const from = at(list);
  const end = from + buf.readInt32LE(from) - 1;
  let i = from + 4;
  let n = 0;
  while (i < end) {
    const type = buf[i]!;
    const value = cstringEnd(buf, i + 1) + 1;
    each(element(type, value), n++);
    i = valueEnd(buf, type, value);
  }
}

/** Whether the key bytes at [start, end) are `key`. */
export const keyIs = sameBytes;
