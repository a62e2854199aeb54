// Numeric BSON types across an update. Queries and updates work on decoded JavaScript values, where
// int32, int64 and double are all `number`; re-encoding would store every integral value as int32. A
// rewritten document takes each number's type from the stored original at the same path: a Long stays a
// Long, a Double a Double (also after $inc/$mul), an Int32 that outgrows 32 bits becomes a Long, as in
// MongoDB. Values new to the document keep the encoder's choice.
import { Double, Long, deserialize, type Document } from 'bson';

function isPlain(v: unknown): v is Document {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function bsonType(v: unknown): string | undefined {
  return v !== null && typeof v === 'object' ? (v as { _bsontype?: string })._bsontype : undefined;
}

function retype(value: unknown, orig: unknown): unknown {
  if (typeof value === 'number') {
    switch (bsonType(orig)) {
      case 'Double':
        return new Double(value);
      case 'Long':
        return Number.isInteger(value) ? Long.fromNumber(value) : value;
      case 'Int32':
        return Number.isInteger(value) && (value > 0x7fffffff || value < -0x80000000) ? Long.fromNumber(value) : value;
      default:
        return value;
    }
  }
  if (Array.isArray(value)) return Array.isArray(orig) ? value.map((v, i) => retype(v, orig[i])) : value;
  if (isPlain(value) && isPlain(orig)) {
    const out: Document = {};
    for (const [k, v] of Object.entries(value)) out[k] = retype(v, orig[k]);
    return out;
  }
  return value;
}

/** `next` (the updated document) with the numeric types of the stored document `storedBytes`. */
export function withStoredTypes(next: Document, storedBytes: Uint8Array): Document {
  const typed = deserialize(storedBytes, { promoteValues: false, promoteBuffers: false });
  return retype(next, typed) as Document;
}

const NUMERIC_ALIASES: Record<string, string[]> = {
  int: ['Int32'],
  long: ['Long'],
  double: ['Double'],
  decimal: ['Decimal128'],
  number: ['Int32', 'Long', 'Double', 'Decimal128'],
  '16': ['Int32'],
  '18': ['Long'],
  '1': ['Double'],
  '19': ['Decimal128'],
};

/** A `$type` test on numbers, which only the stored bytes can answer (decoded, they are all `number`). */
export interface NumericTypeCheck {
  path: string[];
  types: Set<string>;
}

function numericTypes(spec: unknown): Set<string> | undefined {
  const list = Array.isArray(spec) ? spec : [spec];
  const out = new Set<string>();
  for (const t of list) {
    const names = NUMERIC_ALIASES[String(t)];
    if (!names) return undefined;
    for (const n of names) out.add(n);
  }
  return out;
}

/**
 * Takes the numeric `$type` conditions out of a filter's top level (and its `$and`s); the rest runs in
 * mingo, these against the typed document. Other `$type`s (string, date...) mingo answers correctly.
 */
export function splitNumericTypes(filter: Document): { rest: Document; checks: NumericTypeCheck[] } {
  const checks: NumericTypeCheck[] = [];
  const walk = (f: Document): Document => {
    const out: Document = {};
    for (const [k, v] of Object.entries(f)) {
      if (k === '$and' && Array.isArray(v)) out[k] = v.map((x) => (isPlain(x) ? walk(x) : x));
      else if (!k.startsWith('$') && isPlain(v) && '$type' in v) {
        const types = numericTypes(v.$type);
        if (!types) out[k] = v;
        else {
          checks.push({ path: k.split('.'), types });
          const { $type: _t, ...others } = v;
          out[k] = Object.keys(others).length ? others : { $exists: true };
        }
      } else out[k] = v;
    }
    return out;
  };
  const rest = walk(filter);
  return { rest, checks };
}

function valuesAt(doc: unknown, path: string[], i = 0): unknown[] {
  if (i === path.length) return Array.isArray(doc) ? [doc, ...doc] : [doc];
  if (Array.isArray(doc)) return doc.flatMap((x) => valuesAt(x, path, i));
  if (doc === null || typeof doc !== 'object') return [];
  return valuesAt((doc as Document)[path[i]!], path, i + 1);
}

/** Whether the stored document satisfies every numeric `$type` check. */
export function numericTypesMatch(storedBytes: Uint8Array, checks: NumericTypeCheck[]): boolean {
  const typed = deserialize(storedBytes, { promoteValues: false, promoteBuffers: false });
  return checks.every((c) => valuesAt(typed, c.path).some((v) => c.types.has(bsonType(v) ?? '')));
}
