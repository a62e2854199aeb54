// Structural validation of a raw BSON document, as mongod validates every document of an OP_MSG before
// running the command (its `Validated<BSONObj>`): lengths inside their bounds, terminators where they
// belong, known element types, booleans 0 or 1, string, binary, DBPointer and code-with-scope sizes that
// agree with their contents, valid UTF-8 in keys and strings, and a bounded nesting depth. Inserted
// documents are stored as the bytes they arrived in (often without decoding them: storage/bsonio.ts
// leadingId), so this is the only check such bytes get before they are stored and served to every reader.
// Written by hand because the bson package has no validate-only entry point: its deserialize builds every
// value, which the insert path avoids.
import { isUtf8 } from 'node:buffer';

/** mongod's limit for documents on the wire (its `maxBSONDepth`, 200); stored documents it limits to 180. */
const MAX_DEPTH = 200;

export class InvalidBson extends Error {}

function int32(b: Uint8Array, at: number): number {
  return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
}

function fail(what: string): never {
  throw new InvalidBson(what);
}

/**
 * End of the UTF-8 cstring starting at `at` (the position of its zero byte), which must lie before `end`.
 * Keys are short and nearly always ASCII: scanned here, and only a key with a high byte goes to isUtf8.
 */
function cstringEnd(b: Uint8Array, at: number, end: number): number {
  let high = false;
  for (let i = at; i < end; i++) {
    const c = b[i]!;
    if (c === 0) {
      if (high) utf8(b, at, i);
      return i;
    }
    if (c > 0x7f) high = true;
  }
  return fail('unterminated cstring');
}

function utf8(b: Uint8Array, from: number, to: number): void {
  if (to - from < 24) {
    let i = from;
    while (i < to && b[i]! < 0x80) i++;
    if (i === to) return;
  }
  if (!isUtf8(b.subarray(from, to))) fail('invalid UTF-8');
}

/** A length-prefixed string (string, code, symbol, DBPointer's namespace) at `at`; returns its end. */
function string(b: Uint8Array, at: number, end: number): number {
  if (at + 4 > end) fail('truncated string length');
  const len = int32(b, at);
  if (len < 1 || at + 4 + len > end) fail('bad string length');
  const stop = at + 4 + len;
  if (b[stop - 1] !== 0) fail('string not terminated');
  utf8(b, at + 4, stop - 1);
  return stop;
}

/** The document (or array) at `at`, which must end by `end`; returns its end. */
function document(b: Uint8Array, at: number, end: number, depth: number): number {
  if (depth > MAX_DEPTH) fail('nested too deeply');
  if (at + 5 > end) fail('truncated document');
  const len = int32(b, at);
  if (len < 5 || at + len > end) fail('bad document length');
  const stop = at + len - 1; // the terminating zero
  if (b[stop] !== 0) fail('document not terminated');
  let p = at + 4;
  while (p < stop) {
    const type = b[p++]!;
    const keyEnd = cstringEnd(b, p, stop);
    p = element(b, type, keyEnd + 1, stop, depth);
  }
  if (p !== stop) fail('element runs past the document');
  return at + len;
}

function fixed(at: number, size: number, end: number): number {
  if (at + size > end) fail('truncated value');
  return at + size;
}

/** The value of an element of `type` at `at`, inside a document whose terminator is at `end`; returns its end. */
function element(b: Uint8Array, type: number, at: number, end: number, depth: number): number {
  switch (type) {
    case 0x01: // double
    case 0x09: // date
    case 0x11: // timestamp
    case 0x12: // int64
      return fixed(at, 8, end);
    case 0x02: // string
    case 0x0d: // JavaScript code
    case 0x0e: // symbol
      return string(b, at, end);
    case 0x03: // document
    case 0x04: // array
      return document(b, at, end, depth + 1);
    case 0x05: {
      // binary: int32 length, subtype, bytes; subtype 2 (old binary) holds its own int32 length too
      if (at + 5 > end) fail('truncated binary');
      const len = int32(b, at);
      if (len < 0) fail('negative binary length');
      const stop = fixed(at + 5, len, end);
      if (b[at + 4] === 0x02 && (len < 4 || int32(b, at + 5) !== len - 4)) fail('bad subtype 0x02 binary length');
      return stop;
    }
    case 0x06: // undefined
    case 0x0a: // null
    case 0x7f: // MaxKey
    case 0xff: // MinKey
      return at;
    case 0x07: // ObjectId
      return fixed(at, 12, end);
    case 0x08: {
      // boolean
      const stop = fixed(at, 1, end);
      if (b[at]! > 1) fail('boolean not 0 or 1');
      return stop;
    }
    case 0x0b: {
      // regular expression: pattern and options cstrings
      const p = cstringEnd(b, at, end);
      return cstringEnd(b, p + 1, end) + 1;
    }
    case 0x0c: // DBPointer: namespace string and ObjectId
      return fixed(string(b, at, end), 12, end);
    case 0x0f: {
      // code with scope: int32 total, code string, scope document
      if (at + 4 > end) fail('truncated code with scope');
      const total = int32(b, at);
      if (total < 4 + 5 + 5 || at + total > end) fail('bad code with scope length');
      const codeEnd = string(b, at + 4, at + total);
      if (document(b, codeEnd, at + total, depth + 1) !== at + total)
        fail('code with scope length disagrees with its parts');
      return at + total;
    }
    case 0x10: // int32
      return fixed(at, 4, end);
    case 0x13: // decimal128
      return fixed(at, 16, end);
    default:
      return fail(`unknown BSON type 0x${type.toString(16)}`);
  }
}

/** Throws InvalidBson unless `b` is exactly one valid BSON document. */
export function validateBson(b: Uint8Array): void {
  if (document(b, 0, b.length, 0) !== b.length) fail('bytes after the document');
}
