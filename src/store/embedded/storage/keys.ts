// Index key encoding: turns BSON values (as deserialised by `bson`) into strings such that two values
// MongoDB considers equal for matching purposes map to the same string, and unequal ones never collide.
// Only equality is needed (indexes serve equality and $in lookups), so the encoding need not preserve order.

type Bsonish = { _bsontype?: string; toString(): string; toHexString?: () => string };

/** Length-prefixes a component so concatenations are unambiguous. */
function comp(s: string): string {
  return `${s.length}:${s}`;
}

function encodeNumber(n: number): string {
  // int32, int64 (promoted) and double are all JS numbers here; -0 equals 0 in MongoDB.
  return 'd' + (Object.is(n, -0) ? '0' : String(n));
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
      return encodeNumber(Number(b.toString()));
    case 'Decimal128': {
      const n = Number(b.toString());
      return Number.isNaN(n) ? 'dNaN' : encodeNumber(n);
    }
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

/** Encodes a compound key from per-field encoded parts. */
export function joinKey(parts: readonly string[]): string {
  return parts.length === 1 ? parts[0]! : parts.map(comp).join('');
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

/**
 * Keys a single field contributes: each array element separately (multikey), an empty array as its own
 * marker (MongoDB indexes [] as undefined, which no scalar equality matches).
 */
export function fieldKeys(doc: unknown, path: readonly string[]): string[] {
  const keys = new Set<string>();
  for (const v of valuesAtPath(doc, path)) {
    if (Array.isArray(v)) {
      if (v.length === 0) keys.add('[]');
      for (const el of v) keys.add(encodeKey(el));
    } else {
      keys.add(encodeKey(v));
    }
  }
  return [...keys];
}

/** True when a value is a plain scalar whose key equality is exactly MongoDB equality. */
export function isExactScalar(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  const t = typeof v;
  if (t === 'number' || t === 'string' || t === 'boolean' || t === 'bigint') return true;
  if (v instanceof Date) return true;
  const bt = (v as Bsonish)._bsontype;
  return bt === 'ObjectId' || bt === 'Long' || bt === 'Int32' || bt === 'Double';
}
