// Raw BSON documents written straight out as JSON bytes, for REST lists of tens of megabytes: no JavaScript
// object per stored field, no intermediate JSON string. The bytes are exactly what `JSON.stringify` gives for
// the object the driver would have deserialized (same keys in the same order, same number and string forms);
// anything whose JSON form depends on more than the bytes (an integer-like, duplicate, `$`-prefixed or
// `__proto__` key, a type other than string / number / boolean / null / document / array, invalid UTF-8)
// throws `Unusual`, and the caller renders the answer through the ordinary mapper instead.
// Reading the bytes (elements, key checks) is bson-elements.ts; the output buffer is json-out.ts.
import { isUtf8 } from 'node:buffer';
import {
  at,
  checkKey,
  checkUnique,
  cstringEnd,
  element,
  isDocument,
  isNullish,
  numberAt,
  seenKeys,
  typeOf,
  Unusual,
  valueEnd,
  T_ARRAY,
  T_BOOLEAN,
  T_DOCUMENT,
  T_DOUBLE,
  T_INT32,
  T_INT64,
  T_NULL,
  T_STRING,
  type Element,
} from './bson-elements.js';
import type { JsonOut } from './json-out.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

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
export function writeDocument(
  out: JsonOut,
  buf: Buffer,
  e: Element,
  replace?: (keyStart: number, keyEnd: number, value: Element) => boolean,
): void {
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
