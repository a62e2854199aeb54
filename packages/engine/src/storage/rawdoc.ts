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
 * Values of the usual scalar types, and arrays of them, are read here (short ASCII strings through
 * `strings`); a document holding any other kept value is decoded by the bson package.
 */
export function decodeFields(bytes: Uint8Array, names: NameSet): Document | undefined {
  const ranges: number[] = [];
  let out: Document | undefined = {};
  const ok = walk(bytes, (type, nameAt, nameEnd, end) => {
    const i = names.indexOf(bytes, nameAt, nameEnd);
    if (i < 0) return true;
    addRange(ranges, nameAt - 1, end);
    if (out) {
      const name = names.list[i]!;
      const v = name === '__proto__' ? SLOW : readValue(bytes, type, nameEnd + 1, end);
      if (v === SLOW) out = undefined;
      else out[name] = v;
    }
    return true;
  });
  if (!ok) return undefined;
  return out ?? decode(assemble(bytes, ranges));
}

/** What readValue answers for a value it leaves to the bson package. */
const SLOW = Symbol('slow');

/** The value at [at, end) of a BSON element of `type`, as bson's deserialize gives it, or SLOW. */
function readValue(bytes: Uint8Array, type: number, at: number, end: number): unknown {
  switch (type) {
    case 0x02: // string: int32 length (with its trailing zero), the bytes, a zero
      return bytes[end - 1] === 0 ? asciiString(bytes, at + 4, end - 1) : SLOW;
    case 0x01: // double
      return view(bytes).getFloat64(at, true);
    case 0x10: // int32
      return view(bytes).getInt32(at, true);
    case 0x08: // bool
      return bytes[at] === 1 ? true : bytes[at] === 0 ? false : SLOW;
    case 0x0a: // null
      return null;
    case 0x09: {
      // date: int64 milliseconds; outside ±2^53 bson's conversion through Long is not exact here
      const dv = view(bytes);
      const high = dv.getInt32(at + 4, true);
      if (high >= 0x200000 || high < -0x200000) return SLOW;
      return new Date(high * 0x1_0000_0000 + dv.getUint32(at, true));
    }
    case 0x04: {
      // array: its elements in stored order (bson ignores their names), each of the types above
      const stop = end - 1;
      const out: unknown[] = [];
      let p = at + 4;
      while (p < stop) {
        const t = bytes[p]!;
        const nameEnd = indexOfZero(bytes, p + 1);
        if (nameEnd < 0 || t === 0x04 || t === 0x03) return SLOW;
        const size = valueSize(bytes, t, nameEnd + 1);
        if (size < 0 || nameEnd + 1 + size > stop) return SLOW;
        const v = readValue(bytes, t, nameEnd + 1, nameEnd + 1 + size);
        if (v === SLOW) return SLOW;
        out.push(v);
        p = nameEnd + 1 + size;
      }
      return p === stop ? out : SLOW;
    }
    default:
      return SLOW;
  }
}

let lastView: DataView | undefined;
/** A DataView over the whole of `bytes`' memory (one per buffer in a row, reads take absolute offsets). */
function view(bytes: Uint8Array): DataView {
  const v = lastView;
  if (v && v.buffer === bytes.buffer && v.byteOffset === bytes.byteOffset && v.byteLength === bytes.byteLength)
    return v;
  return (lastView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

/** Strings up to this many bytes are kept and shared: ids, names, codes repeat across documents. */
const SHARED_STRING_BYTES = 64;
/** Shared strings by a hash of their bytes; emptied when it reaches this size. */
const SHARED_STRINGS_MAX = 65_536;
const sharedStrings = new Map<number, string>();

/**
 * The ASCII string in bytes[at, end), or SLOW when a byte is not ASCII (bson checks UTF-8). Short ones come
 * from sharedStrings, so a value repeated across documents is one string (and a Map keyed by it hashes it once).
 * The table is keyed by the length and the first and last four bytes; a hit is compared in full, and a string
 * equal to a kept one is ASCII as that one is.
 */
function asciiString(bytes: Uint8Array, at: number, end: number): string | typeof SLOW {
  const len = end - at;
  if (len < 0) return SLOW;
  if (len > SHARED_STRING_BYTES) return ascii(bytes, at, end) ? latin1(bytes, at, end) : SLOW;
  let h = len;
  for (let i = at, stop = Math.min(end, at + 4); i < stop; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  for (let i = Math.max(at + 4, end - 4); i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  const hit = sharedStrings.get(h);
  if (hit !== undefined && hit.length === len) {
    let i = 0;
    while (i < len && hit.charCodeAt(i) === bytes[at + i]) i++;
    if (i === len) return hit;
  }
  if (!ascii(bytes, at, end)) return SLOW;
  const s = latin1(bytes, at, end);
  if (sharedStrings.size >= SHARED_STRINGS_MAX) sharedStrings.clear();
  sharedStrings.set(h, s);
  return s;
}

function ascii(bytes: Uint8Array, at: number, end: number): boolean {
  for (let i = at; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

const latin1 = (bytes: Uint8Array, at: number, end: number): string =>
  (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString(
    'latin1',
    at,
    end,
  );

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
