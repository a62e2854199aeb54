// Numeric BSON types across an update. Queries and updates work on decoded JavaScript values, where
// int32, int64 and integral doubles are all `number`; re-encoding would store every integral value as
// int32. The rewritten document takes each number's type from where MongoDB would take it: a value the
// update wrote ($set, $setOnInsert, a replacement, an upsert's query fields) keeps the type it was sent
// with; $inc/$mul give the wider of the stored and the operand type (int32 + int64 = int64, anything +
// double = double); $min/$max the operand's type when they replaced the value; elements an array operator
// added keep their sent types, as do literal numbers a pipeline update's $set writes; everything else
// keeps its stored type. An int32 that outgrows 32 bits becomes an int64, as in MongoDB. The sent types
// come from the command body decoded a second time with `promoteValues: false` (commands/context.ts
// `typedBody`).
import { Double, Long, deserialize, type Document } from 'bson';

function isPlain(v: unknown): v is Document {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

function bsonType(v: unknown): string | undefined {
  return v !== null && typeof v === 'object' ? (v as { _bsontype?: string })._bsontype : undefined;
}

type NumType = 'Int32' | 'Long' | 'Double' | 'Decimal128';

function numType(v: unknown): NumType | undefined {
  const t = bsonType(v);
  return t === 'Int32' || t === 'Long' || t === 'Double' || t === 'Decimal128' ? t : undefined;
}

/** A document decoded with its numbers as Int32/Long/Double objects. */
export function typedDecode(bytes: Uint8Array): Document {
  return deserialize(bytes, { promoteValues: false, promoteBuffers: false });
}

function asType(value: number, type: NumType | undefined): unknown {
  switch (type) {
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

const RANK: Record<NumType, number> = { Int32: 0, Long: 1, Double: 2, Decimal128: 3 };

/** The result type of arithmetic on two numeric types (MongoDB's promotion: the wider wins). */
function wider(a: NumType | undefined, b: NumType | undefined): NumType | undefined {
  if (!a || !b) return a ?? b;
  return RANK[a] >= RANK[b] ? a : b;
}

const ARRAY_OPS = new Set(['$push', '$addToSet', '$pull', '$pullAll', '$pop']);

/** One path an update writes, with its operand as sent. `*` stands for a positional component. */
interface Rule {
  op: string;
  path: string[];
  operand: unknown;
}

function rulesOf(typedU: unknown, inserting: boolean, stored: Document | undefined): Rule[] {
  if (Array.isArray(typedU)) {
    // Pipeline updates: a $set/$addFields of a literal number keeps its sent type (the rule applies only
    // where the result still equals it); computed values keep the stored or the encoder's type.
    const rules: Rule[] = [];
    for (const stage of typedU) {
      const fields: unknown = isPlain(stage) ? (stage.$set ?? stage.$addFields) : undefined;
      if (!isPlain(fields)) continue;
      for (const [path, v] of Object.entries(fields))
        if (numType(v)) rules.push({ op: '$set', path: path.split('.'), operand: v });
    }
    return rules;
  }
  if (!isPlain(typedU)) return [];
  const keys = Object.keys(typedU);
  if (!keys[0]?.startsWith('$')) return [{ op: '$set', path: [], operand: typedU }]; // a replacement
  const rules: Rule[] = [];
  const split = (p: string): string[] => p.split('.').map((c) => (c.startsWith('$') ? '*' : c));
  for (const [op, args] of Object.entries(typedU)) {
    if (!isPlain(args) || (op === '$setOnInsert' && !inserting)) continue;
    for (const [path, operand] of Object.entries(args)) {
      if (op === '$rename')
        rules.push({ op: '$set', path: split(String(operand)), operand: at(stored, path.split('.')) });
      else rules.push({ op: op === '$setOnInsert' ? '$set' : op, path: split(path), operand });
    }
  }
  return rules;
}

function at(v: unknown, path: string[]): unknown {
  let cur = v;
  for (const p of path) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(p) ? cur[Number(p)] : undefined;
    else if (isPlain(cur)) cur = cur[p];
    else return undefined;
  }
  return cur;
}

/** The rest of `path` after a rule's path (with `*` matching any component), or undefined if it does not apply. */
function under(rule: string[], path: string[]): string[] | undefined {
  if (rule.length > path.length) return undefined;
  for (let i = 0; i < rule.length; i++) if (rule[i] !== '*' && rule[i] !== path[i]) return undefined;
  return path.slice(rule.length);
}

class Retyper {
  constructor(
    private readonly rules: Rule[],
    private readonly stored: Document | undefined,
  ) {}

  value(v: unknown, path: string[], stored: unknown): unknown {
    if (typeof v === 'number') return asType(v, this.typeAt(v, path, stored));
    if (Array.isArray(v)) {
      const pool = this.arrayPool(path, stored);
      if (pool)
        return v.map((x, i) =>
          typeof x === 'number'
            ? asType(x, numType(take(pool, x)))
            : this.value(x, [...path, String(i)], take(pool, x)),
        );
      return v.map((x, i) => this.value(x, [...path, String(i)], Array.isArray(stored) ? stored[i] : undefined));
    }
    if (isPlain(v)) {
      const out: Document = {};
      for (const [k, x] of Object.entries(v))
        out[k] = this.value(x, [...path, k], isPlain(stored) ? stored[k] : undefined);
      return out;
    }
    return v;
  }

  /** The typed values an array operator's result may hold (stored elements and sent ones), or undefined if none ran here. */
  private arrayPool(path: string[], stored: unknown): unknown[] | undefined {
    const here = this.rules.filter((r) => ARRAY_OPS.has(r.op) && under(r.path, path)?.length === 0);
    if (here.length === 0) return undefined;
    const pool = Array.isArray(stored) ? [...(stored as unknown[])] : [];
    for (const r of here) {
      if (r.op !== '$push' && r.op !== '$addToSet') continue;
      const each = isPlain(r.operand) && Array.isArray(r.operand.$each) ? (r.operand.$each as unknown[]) : [r.operand];
      pool.push(...each);
    }
    return pool;
  }

  private typeAt(v: number, path: string[], stored: unknown): NumType | undefined {
    for (const r of this.rules) {
      const rest = under(r.path, path);
      if (!rest) continue;
      const positional = r.path.includes('*');
      switch (r.op) {
        case '$set': {
          const sent = at(r.operand, rest);
          if (numType(sent) && Number(sent) === v) return numType(sent);
          break;
        }
        case '$inc':
        case '$mul':
          if (rest.length === 0 && !(positional && numType(stored) && Number(stored) === v))
            return wider(numType(stored), numType(r.operand));
          break;
        case '$min':
        case '$max':
          if (rest.length === 0) return numType(stored) && Number(stored) === v ? numType(stored) : numType(r.operand);
          break;
      }
    }
    return numType(stored);
  }

  run(next: Document): Document {
    return this.value(next, [], this.stored) as Document;
  }
}

/** A typed value as the JavaScript values a plain decode gives (numbers as numbers), for comparison. */
function loose(v: unknown): unknown {
  if (numType(v) && numType(v) !== 'Decimal128') return Number(v);
  if (Array.isArray(v)) return v.map(loose);
  if (isPlain(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, loose(x)]));
  return v;
}

/** Removes and returns the first value of `pool` equal to `x` once numbers are compared as numbers. */
function take(pool: unknown[], x: unknown): unknown {
  const want = typeof x === 'number' ? x : JSON.stringify(x);
  const i = pool.findIndex((p) =>
    typeof x === 'number' ? numType(p) !== undefined && Number(p) === want : JSON.stringify(loose(p)) === want,
  );
  return i < 0 ? undefined : pool.splice(i, 1)[0];
}

/**
 * `next` (a document an update produced, as JavaScript values) with the BSON numeric types MongoDB would
 * store. `stored`: the document before the update, typed (for an upsert, the typed query's seed document);
 * `typedU`: the update as sent, typed; `inserting`: an upsert's insert ($setOnInsert applies).
 */
export function withBsonTypes(
  next: Document,
  stored: Document | undefined,
  typedU?: unknown,
  inserting = false,
): Document {
  return new Retyper(rulesOf(typedU, inserting, stored), stored).run(next);
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
  const typed = typedDecode(storedBytes);
  return checks.every((c) => valuesAt(typed, c.path).some((v) => c.types.has(bsonType(v) ?? '')));
}
