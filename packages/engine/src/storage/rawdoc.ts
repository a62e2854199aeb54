// Reading stored BSON documents element by element instead of deserialising them whole. Walking the
// top-level elements only reads a type byte, a name and a length, so a filter can decode just the fields
// it references and a top-level inclusion projection can copy the kept elements' bytes as they are.
import type { Document } from 'bson';
import { decode, docLength, indexOfZero, valueSize } from './bsonio.js';

/** Field names as UTF-8 bytes, matched against stored element names without building strings. */
export class NameSet {
  private readonly names: Buffer[];
  /** The names, as given (each once). */
  readonly list: string[];

  constructor(names: Iterable<string>) {
    this.list = [...new Set(names)];
    this.names = this.list.map((n) => Buffer.from(n, 'utf8'));
  }

  get size(): number {
    return this.names.length;
  }

  /** Index of the name stored at bytes[at, end), or -1. */
  indexOf(bytes: Uint8Array, at: number, end: number): number {
    const len = end - at;
    outer: for (let i = 0; i < this.names.length; i++) {
      const n = this.names[i]!;
      if (n.length !== len) continue;
      for (let j = 0; j < len; j++) if (n[j] !== bytes[at + j]) continue outer;
      return i;
    }
    return -1;
  }
}

/**
 * Calls `visit(type, nameAt, valueAt, end)` for each top-level element of the document, where the element
 * spans [nameAt - 1, end). Returns false if the bytes are not a well-formed document (the caller falls back).
 */
function walk(
  bytes: Uint8Array,
  visit: (type: number, nameAt: number, nameEnd: number, end: number) => boolean,
): boolean {
  const stop = docLength(bytes, 0) - 1;
  if (stop < 4 || stop >= bytes.length) return false;
  let p = 4;
  while (p < stop) {
    const type = bytes[p]!;
    const nameEnd = indexOfZero(bytes, p + 1);
    if (nameEnd < 0) return false;
    const size = valueSize(bytes, type, nameEnd + 1);
    const end = nameEnd + 1 + size;
    if (size < 0 || end > stop) return false;
    if (!visit(type, p + 1, nameEnd, end)) return false;
    p = end;
  }
  return p === stop;
}

/** A document made of the given element ranges [start, end) of `bytes`, in order. */
function assemble(bytes: Uint8Array, ranges: number[]): Buffer {
  let len = 5;
  for (let i = 0; i < ranges.length; i += 2) len += ranges[i + 1]! - ranges[i]!;
  const out = Buffer.allocUnsafe(len);
  out.writeInt32LE(len, 0);
  let p = 4;
  for (let i = 0; i < ranges.length; i += 2) {
    out.set(bytes.subarray(ranges[i]!, ranges[i + 1]!), p);
    p += ranges[i + 1]! - ranges[i]!;
  }
  out[p] = 0;
  return out;
}

/** Appends [start, end) to the ranges, merging it with the previous range when they touch. */
function addRange(ranges: number[], start: number, end: number): void {
  if (ranges.length && ranges[ranges.length - 1] === start) ranges[ranges.length - 1] = end;
  else ranges.push(start, end);
}

/**
 * The top-level fields of a stored document named in `names`, decoded (every occurrence, in stored order,
 * so a repeated name resolves as a full decode would). undefined when the bytes cannot be walked.
 */
export function decodeFields(bytes: Uint8Array, names: NameSet): Document | undefined {
  const ranges: number[] = [];
  const ok = walk(bytes, (_type, nameAt, nameEnd, end) => {
    if (names.indexOf(bytes, nameAt, nameEnd) >= 0) addRange(ranges, nameAt - 1, end);
    return true;
  });
  return ok ? decode(assemble(bytes, ranges)) : undefined;
}

/** stable() for every element of the document or array starting at `start`. */
function nestedStable(bytes: Buffer, start: number, isArray: boolean): boolean {
  const stop = start + docLength(bytes, start) - 1;
  let p = start + 4;
  while (p < stop) {
    const type = bytes[p]!;
    const nameEnd = indexOfZero(bytes, p + 1);
    if (nameEnd < 0 || nameEnd >= stop) return false;
    // Decoded into a JS object, integer-like keys move first and $-keys may become DBRefs.
    if (!isArray) {
      const c = bytes[p + 1]!;
      if ((c >= 0x30 && c <= 0x39) || c === 0x24) return false;
    }
    const at = nameEnd + 1;
    const size = valueSize(bytes, type, at);
    if (size < 0 || at + size > stop || !stable(bytes, type, at)) return false;
    p = at + size;
  }
  return p === stop;
}

/**
 * True if the value at `at` comes back as the same bytes after decode() and encode(), which is what the
 * projection fallback does. Not so for: integral doubles in int32 range (re-encoded as int32), NaN, int64
 * (promoted to a number), undefined (written as null), symbols (strings), DBPointers and regexes
 * (converted), code with scope, old binary (subtype 2), dates outside the JS range, and documents whose key order a JS object would change.
 */
function stable(bytes: Buffer, type: number, at: number): boolean {
  switch (type) {
    case 0x01: {
      const d = bytes.readDoubleLE(at);
      if (d !== d) return false;
      return !(Number.isInteger(d) && !Object.is(d, -0) && d <= 2147483647 && d >= -2147483648);
    }
    case 0x09: {
      // Outside the JS Date range (about ±8.64e15 ms) a decoded date is invalid.
      const high = bytes.readInt32LE(at + 4);
      return high < 2_000_000 && high > -2_000_000;
    }
    case 0x02:
    case 0x07:
    case 0x08:
    case 0x0a:
    case 0x0d:
    case 0x10:
    case 0x11:
    case 0x13:
    case 0x7f:
    case 0xff:
      return true;
    case 0x03:
      return nestedStable(bytes, at, false);
    case 0x04:
      return nestedStable(bytes, at, true);
    case 0x05:
      return bytes[at + 4] !== 0x02;
    default:
      return false;
  }
}

/**
 * A top-level inclusion projection by copying the kept elements' bytes, in stored order (the order
 * MongoDB returns them in). undefined when this document needs the decoding path: a kept name occurring
 * twice, or a kept value that path would re-encode differently (see stable()).
 */
export function projectFields(bytes: Buffer, keep: NameSet): Buffer | undefined {
  const ranges: number[] = [];
  const seen = new Uint8Array(keep.size);
  const ok = walk(bytes, (type, nameAt, nameEnd, end) => {
    const i = keep.indexOf(bytes, nameAt, nameEnd);
    if (i < 0) return true;
    if (seen[i] || !stable(bytes, type, nameEnd + 1)) return false;
    seen[i] = 1;
    addRange(ranges, nameAt - 1, end);
    return true;
  });
  return ok ? assemble(bytes, ranges) : undefined;
}
