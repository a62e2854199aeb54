// Index key encoding: turns BSON values (as deserialised by `bson`) into strings such that two values
// MongoDB considers equal for matching purposes map to the same string, and unequal ones never collide.
// Only equality is needed (indexes serve equality and $in lookups), so the encoding need not preserve order.

type Bsonish = { _bsontype?: string; toString(): string; valueOf(): unknown; toHexString?: () => string };

/** Length-prefixes a component so concatenations are unambiguous. */
function comp(s: string): string {
  return `${s.length}:${s}`;
}

function encodeNumber(n: number): string {
  // int32, int64 (promoted) and double are all JS numbers here; -0 equals 0 in MongoDB.
  return 'd' + (Object.is(n, -0) ? '0' : String(n));
}

// MongoDB compares numbers by value across Int32, Long, Double and Decimal128: 5, Long(5) and Decimal128('5.0')
// are one `_id`, Long(2^53+4) and Long(2^53+5) are two. A number object equal to some double is keyed as that
// double (and ordered with the other numbers, order.ts); one no double equals (a Long past 2^53 that is not a
// double, a Decimal128 such as 0.1 or one of 34 digits) by its exact value in canonical decimal form.

const NUMBER_TEXT = /^(-)?(?:(Infinity)|(\d+)(?:\.(\d*))?(?:E([+-]?\d+))?)$/i;

/** A finite decimal value: sign, significant digits without leading or trailing zeros ('' for zero), and the
 *  power of ten of the last digit. */
export interface Exact {
  neg: boolean;
  digits: string;
  exp: number;
}

function normalize(neg: boolean, digits: string, exp: number): Exact {
  digits = digits.replace(/^0+/, '');
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === 48) end--;
  exp += digits.length - end;
  digits = digits.slice(0, end);
  return digits === '' ? { neg: false, digits: '', exp: 0 } : { neg, digits, exp };
}

/** The exact decimal value of a number's text (a Long's or Decimal128's, or a JavaScript number's), or undefined
 *  for NaN and the infinities. */
export function exactOfText(text: string): Exact | undefined {
  const m = NUMBER_TEXT.exec(text);
  if (!m || m[2] !== undefined) return undefined;
  const frac = m[4] ?? '';
  return normalize(m[1] !== undefined, m[3]! + frac, Number(m[5] ?? 0) - frac.length);
}

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/** The exact decimal value of a finite double (every double is a finite decimal: m·2^e = m·5^-e·10^e). */
function exactOfDouble(n: number): Exact {
  F64[0] = Math.abs(n);
  const bits = U64[0]!;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  const m = biased === 0 ? fraction : fraction | (1n << 52n);
  const e = (biased === 0 ? 1 : biased) - 1075;
  return e >= 0
    ? normalize(n < 0, (m << BigInt(e)).toString(), 0)
    : normalize(n < 0, (m * 5n ** BigInt(-e)).toString(), e);
}

/**
 * The double equal to a BSON number object (Int32, Double, Long, Decimal128): NaN for a NaN, undefined when no
 * double is equal to it (a Long past 2^53 between two doubles, a Decimal128 such as 0.1, or beyond the doubles'
 * range), and for anything that is not a number object.
 */
export function doubleOf(v: Bsonish): number | undefined {
  switch (v._bsontype) {
    case 'Int32':
    case 'Double':
      return Number(v.valueOf());
    case 'Long': {
      const big = BigInt(v.toString());
      const n = Number(big);
      return BigInt(n) === big ? n : undefined;
    }
    case 'Decimal128': {
      const text = v.toString();
      const n = Number(text);
      if (Number.isNaN(n)) return NaN;
      const exact = exactOfText(text);
      if (exact === undefined) return n; // ±Infinity
      if (!Number.isFinite(n)) return undefined; // past the doubles' range
      const d = exactOfDouble(n);
      return d.digits === exact.digits && d.exp === exact.exp && d.neg === exact.neg ? (n === 0 ? 0 : n) : undefined;
    }
    default:
      return undefined;
  }
}

/** Whether a value is a number of any BSON type (a JavaScript number or bigint, an Int32, Long, Double or
 *  Decimal128 object). */
export function isNumberLike(v: unknown): boolean {
  const t = typeof v;
  if (t === 'number' || t === 'bigint') return true;
  if (t !== 'object' || v === null) return false;
  const bt = (v as Bsonish)._bsontype;
  return bt === 'Int32' || bt === 'Long' || bt === 'Double' || bt === 'Decimal128';
}

/** A number's value: the double equal to it (NaN and the infinities included), else its exact decimal value. */
function numberValue(v: unknown): number | Exact {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') {
    const n = Number(v);
    return BigInt(n) === v ? n : exactOfText(v.toString())!;
  }
  const n = doubleOf(v as Bsonish);
  return n !== undefined ? n : exactOfText((v as Bsonish).toString())!;
}

/** -1, 0 or 1 as a's exact value is below, equal to or above b's (both finite). */
function compareExact(a: Exact, b: Exact): number {
  const sa = a.digits === '' ? 0 : a.neg ? -1 : 1;
  const sb = b.digits === '' ? 0 : b.neg ? -1 : 1;
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  // Magnitude: the power of ten of the leading digit, then the digits themselves.
  const ma = a.digits.length + a.exp;
  const mb = b.digits.length + b.exp;
  if (ma !== mb) return (ma < mb ? -1 : 1) * sa;
  const n = Math.max(a.digits.length, b.digits.length);
  const da = a.digits.padEnd(n, '0');
  const db = b.digits.padEnd(n, '0');
  return (da < db ? -1 : da > db ? 1 : 0) * sa;
}

/**
 * Two numbers of any BSON types in MongoDB's order, by exact value (a Long past 2^53 or a Decimal128 such as 0.1
 * against the nearest double is not equal to it): NaN before every other number, equal to NaN; -0 equal to 0.
 */
export function compareNumbers(a: unknown, b: unknown): number {
  const x = numberValue(a);
  const y = numberValue(b);
  if (typeof x === 'number' && typeof y === 'number') {
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  // At least one is finite and equal to no double; the other may be NaN or infinite.
  if (typeof x === 'number' && !Number.isFinite(x)) return Number.isNaN(x) || x < 0 ? -1 : 1;
  if (typeof y === 'number' && !Number.isFinite(y)) return Number.isNaN(y) || y < 0 ? 1 : -1;
  return compareExact(typeof x === 'number' ? exactOfDouble(x) : x, typeof y === 'number' ? exactOfDouble(y) : y);
}

/** Key of a number object: as the double equal to it, else its exact value ('D', sign, digits, 'e', exponent). */
function encodeNumberObject(v: Bsonish): string {
  const n = doubleOf(v);
  if (n !== undefined) return encodeNumber(n);
  const x = exactOfText(v.toString())!;
  return `D${x.neg ? '-' : ''}${x.digits}e${x.exp}`;
}

/** Encodes one value. null, undefined and "missing" share one key, as in MongoDB indexes. */
export function encodeKey(v: unknown): string {
  if (v === null || v === undefined) return 'n';
  switch (typeof v) {
    case 'number':
      return encodeNumber(v);
    case 'bigint':
      return 'd' + v.toString();
    case 'string':
      return 's' + v;
    case 'boolean':
      return v ? 'T' : 'F';
    case 'object':
      break;
    default:
      return 'u' + String(v);
  }
  if (v instanceof Date) return 't' + v.getTime();
  if (Array.isArray(v)) return '[' + v.map((e) => comp(encodeKey(e))).join('') + ']';
  if (v instanceof RegExp) return 'r' + v.source + '/' + v.flags;
  const b = v as Bsonish;
  switch (b._bsontype) {
    case 'ObjectId':
      return 'o' + (b.toHexString ? b.toHexString() : b.toString());
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return encodeNumberObject(b);
    case 'Binary': {
      const bin = v as { sub_type: number; buffer: Uint8Array };
      return 'x' + bin.sub_type + ':' + Buffer.from(bin.buffer).toString('base64');
    }
    case 'BSONRegExp': {
      const r = v as { pattern: string; options: string };
      return 'r' + r.pattern + '/' + r.options;
    }
    case 'MinKey':
      return '-';
    case 'MaxKey':
      return '+';
    case 'Timestamp':
    case 'Code':
    case 'BSONSymbol':
      return b._bsontype + ':' + b.toString();
    default:
      break;
  }
  // Embedded document: equal only with the same fields, in the same order, with equal values.
  let out = '{';
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) out += comp(k) + comp(encodeKey(val));
  return out + '}';
}

/**
 * Values a dotted path reaches in a document, descending through arrays the way MongoDB does
 * (a.b over [{b:1},{b:2}] yields 1 and 2). A missing path yields [undefined].
 */
export function valuesAtPath(doc: unknown, path: readonly string[], i = 0): unknown[] {
  if (i === path.length) return [doc];
  if (doc === null || typeof doc !== 'object') return [undefined];
  const key = path[i]!;
  if (Array.isArray(doc)) {
    if (/^\d+$/.test(key)) {
      const el = doc[Number(key)];
      if (el !== undefined) return valuesAtPath(el, path, i + 1);
    }
    const out: unknown[] = [];
    for (const el of doc) {
      if (el !== null && typeof el === 'object') out.push(...valuesAtPath(el, path, i));
    }
    return out.length ? out : [undefined];
  }
  return valuesAtPath((doc as Record<string, unknown>)[key], path, i + 1);
}
