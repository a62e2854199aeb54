// Order-preserving index keys. A key is one string per index entry: each field's component followed by
// '\0', then the document's record id (indexes.ts: its `_id` component and '\0', or a capped collection's slot). Stored in LMDB as UTF-8 (after the index id), whose byte order is
// the strings' code-point order; components never hold surrogates, so that is also the order of plain
// string comparison (`<`, used by the planner for bounds). Keys therefore order entries by the fields in
// BSON comparison order and ties by record id (= natural order).
//
// Only the types whose BSON order is easy to encode get a component: MinKey, null/missing, numbers, strings
// without surrogates (so code-unit order is code-point order is MongoDB's UTF-8 byte order), ObjectId,
// booleans, dates and MaxKey (Int32, Long and Decimal128 values too, when a double equals them: numbers compare by
// value across types). Anything else (embedded documents, arrays, binary, a Long or Decimal128 no double equals,
// NaN…) gets '~' followed by its equality encoding (keys.ts), which serves equality lookups but sits at an
// arbitrary position; the planner does not walk a field holding such values (see Index.usable).

import { doubleOf, encodeKey } from './keys.js';

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer); // little-endian: u32[1] holds sign and exponent

/** 16 hex digits ordering like the number (IEEE 754 bits with the sign flipped, negatives inverted). */
function numberKey(n: number): string {
  f64[0] = n === 0 ? 0 : n; // -0 equals 0
  let hi = u32[1]!;
  let lo = u32[0]!;
  if (hi & 0x80000000) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
  } else hi = (hi | 0x80000000) >>> 0;
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

const SURROGATE = /[\uD800-\uDFFF]/;
// '\0' ends a component (SEP) and '\x01' escapes, so a string holding either is escaped ('\0' -> '\x01\x01',
// '\x01' -> '\x01\x02'): matching these control characters is the point.
// eslint-disable-next-line no-control-regex
const ESCAPE = /[\0\x01]/;
// eslint-disable-next-line no-control-regex
const ESCAPES = /[\0\x01]/g;

/** Type tags in BSON comparison order (MinKey < null < numbers < strings < … < ObjectId < bool < date < MaxKey). */
const TAG = {
  minKey: '1',
  null: '2',
  number: '3',
  string: '4',
  objectId: '8',
  boolean: '9',
  date: 'A',
  maxKey: 'Z',
} as const;

/** Component of one value, or undefined when the type cannot be placed in order. */
export function orderComponent(v: unknown): string | undefined {
  if (v === null || v === undefined) return TAG.null;
  switch (typeof v) {
    case 'number':
      return Number.isNaN(v) ? undefined : TAG.number + numberKey(v);
    case 'string':
      // '\0' separates components: escape it (and the escape character) so a prefix sorts first.
      if (SURROGATE.test(v)) return undefined;
      return TAG.string + (ESCAPE.test(v) ? v.replace(ESCAPES, (c) => (c === '\0' ? '\x01\x01' : '\x01\x02')) : v);
    case 'boolean':
      return TAG.boolean + (v ? '1' : '0');
    case 'object':
      break;
    default:
      return undefined;
  }
  if (v instanceof Date) {
    const t = v.getTime();
    return Number.isNaN(t) ? undefined : TAG.date + numberKey(t);
  }
  switch ((v as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
      return TAG.objectId + (v as { toHexString(): string }).toHexString();
    case 'MinKey':
      return TAG.minKey;
    case 'MaxKey':
      return TAG.maxKey;
    case 'Int32':
    case 'Double':
    case 'Long':
    case 'Decimal128': {
      // Placed with the numbers when a double equals it (MongoDB compares numbers by value across types).
      const n = doubleOf(v as Parameters<typeof doubleOf>[0]);
      return n === undefined || Number.isNaN(n) ? undefined : TAG.number + numberKey(n);
    }
    default:
      return undefined;
  }
}

const UNORDERED = '~';
export const SEP = '\0';
/** Greater than any component character (components never hold surrogates or U+FFFF escapes). */
export const TOP = '\uffff';

/** First component string of `comp`'s type and the first string past it (type bracketing of $lt/$gt). */
export function typeRange(comp: string): [string, string] {
  return [comp[0]!, String.fromCharCode(comp.charCodeAt(0) + 1)];
}

export function slotSuffix(slot: number): string {
  return slot.toString(16).padStart(12, '0');
}

/** The record id at the end of an index key string of `n` components (whatever follows the n-th separator). */
export function ridOf(key: string, n: number): string {
  let at = -1;
  for (let i = 0; i < n; i++) at = key.indexOf(SEP, at + 1);
  return key.slice(at + 1);
}

/** The part of a key covering its first `n` components (separators included). */
export function leadingComponents(key: string, n: number): string {
  let at = -1;
  for (let i = 0; i < n; i++) at = key.indexOf(SEP, at + 1);
  return key.slice(0, at + 1);
}

// The same escaping as ESCAPES, for the component of a value with no order component.
// eslint-disable-next-line no-control-regex
const UNORDERED_ESCAPES = /[\0\x01]/g;

/**
 * The key component of one index value: its order component, or for values without one '~' and their
 * equality encoding. `ordered` tells which (index statistics count the unordered ones per field).
 */
export function keyComponent(v: unknown): { c: string; ordered: boolean } {
  const c = orderComponent(v);
  if (c !== undefined) return { c, ordered: true };
  const e = encodeKey(v);
  return {
    c: UNORDERED + (ESCAPE.test(e) ? e.replace(UNORDERED_ESCAPES, (x) => (x === '\0' ? '\x01\x01' : '\x01\x02')) : e),
    ordered: false,
  };
}

/**
 * Natural order of record ids: their stored byte order (UTF-8), i.e. code-point order. Plain string comparison
 * (code units) differs from it only between a surrogate and a character from U+E000, which only the equality
 * encodings of two unordered components ('~…', order.ts) can hold at the same position.
 */
export function naturalOrder(a: string, b: string): number {
  if (a.charCodeAt(0) === 0x7e && b.charCodeAt(0) === 0x7e)
    return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
  return a < b ? -1 : a > b ? 1 : 0;
}
