// Reading raw BSON without deserializing it: a document's fields found by their name bytes, values read where
// they lie, and the checks that tell when the bytes alone cannot say what the deserialized object would hold
// (`Unusual`: the caller takes the ordinary deserialize-and-map path). bson-json.ts writes what this finds as JSON.
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

export const T_DOUBLE = 0x01;
export const T_STRING = 0x02;
export const T_DOCUMENT = 0x03;
export const T_ARRAY = 0x04;
export const T_BOOLEAN = 0x08;
export const T_NULL = 0x0a;
export const T_INT32 = 0x10;
export const T_INT64 = 0x12;

/** A value's offset and BSON type in one number; 0 when the field is absent. */
export type Element = number;
export const element = (type: number, at: number): Element => {
  if (at >= 1 << 23) throw new Unusual('a document over 8 MiB');
  return (at << 8) | type;
};
export const typeOf = (e: Element): number => e & 0xff;
export const at = (e: Element): number => e >>> 8;

/** Past the end of a value of `type` starting at `from` (types this module copies; others are Unusual). */
export function valueEnd(buf: Buffer, type: number, from: number): number {
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
export function cstringEnd(buf: Buffer, from: number): number {
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
export function checkKey(buf: Buffer, start: number, end: number): void {
  const first = buf[start]!;
  if (first >= 0x30 && first <= 0x39) throw new Unusual('an integer-like key');
  if (first === 0x24) throw new Unusual('a $-prefixed key');
  if (sameBytes(buf, start, end, PROTO)) throw new Unusual('a __proto__ key');
}

/**
 * Key offsets of the documents being walked, innermost last, as [start, end] pairs: one array for every walk
 * (a walk remembers where its keys begin and cuts the array back when done), so checking keys allocates nothing.
 */
export const seenKeys: number[] = [];

/** Throws on a key seen before in the same document (its keys so far are `seenKeys` from `base` on). */
export function checkUnique(buf: Buffer, start: number, end: number, base: number): void {
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
    if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER))
      throw new Unusual('an int64 beyond 2^53');
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
