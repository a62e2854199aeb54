// Query planning: picks an index whose leading fields the filter constrains by equality or $in and turns
// the constraint into candidate slots. The full filter is still applied to candidates afterwards, unless
// the plan is "exact" (an _id lookup by plain scalars, where key equality is MongoDB equality).
import type { Document } from 'bson';
import type { Collection } from '../storage/collection.js';
import type { Index } from '../storage/indexes.js';
import { encodeKey, isExactScalar, joinKey } from '../storage/keys.js';

export interface Plan {
  /** Candidate slots in natural order, or undefined for a collection scan. */
  slots?: number[];
  /** Candidates need no further filtering. */
  exact: boolean;
  index?: string;
}

const MAX_KEYS = 10_000;

function isOperatorDoc(v: unknown): v is Document {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || v instanceof Date || v instanceof RegExp) return false;
  if ((v as { _bsontype?: string })._bsontype) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys[0]!.startsWith('$');
}

/** Values usable for an index lookup: not null (matches missing/arrays in subtle ways), not arrays/regex. */
function indexable(v: unknown): boolean {
  if (v === null || v === undefined || Array.isArray(v) || v instanceof RegExp) return false;
  return (v as { _bsontype?: string })._bsontype !== 'BSONRegExp';
}

interface Constraint {
  values: unknown[];
  /** The field's whole condition is this equality/$in (nothing else to check). */
  pure: boolean;
}

/** Equality / $in constraints on top-level fields, including those inside a top-level $and. */
function constraints(filter: Document, out = new Map<string, Constraint>()): Map<string, Constraint> {
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(cond)) {
      for (const sub of cond) if (sub && typeof sub === 'object') constraints(sub as Document, out);
      continue;
    }
    if (field.startsWith('$')) continue;
    let c: Constraint | undefined;
    if (!isOperatorDoc(cond)) {
      if (indexable(cond)) c = { values: [cond], pure: true };
    } else {
      const ops = Object.keys(cond);
      if ('$eq' in cond && indexable(cond.$eq)) c = { values: [cond.$eq], pure: ops.length === 1 };
      else if (Array.isArray(cond.$in) && cond.$in.every(indexable)) c = { values: cond.$in as unknown[], pure: ops.length === 1 };
    }
    if (c && !out.has(field)) out.set(field, c);
  }
  return out;
}

/** `collated`: a non-simple collation changes string equality, so index keys cannot be trusted. */
export function planQuery(coll: Collection, filter: Document, collated = false): Plan {
  if (collated) return { exact: false };
  const cons = constraints(filter);
  if (cons.size === 0) return { exact: false };
  let best: { idx: Index; len: number; keys: number } | undefined;
  for (const idx of coll.indexes.values()) {
    // A partial index may not hold every matching document. (Sparse ones do: null is never looked up.)
    if (idx.spec.partialFilterExpression) continue;
    let len = 0;
    let keys = 1;
    while (len < idx.fields.length && cons.has(idx.fields[len]!)) keys *= cons.get(idx.fields[len++]!)!.values.length;
    if (len === 0 || keys > MAX_KEYS) continue;
    const better = !best || len > best.len || (len === best.len && (idx.unique || idx.name === '_id_') && !best.idx.unique);
    if (better) best = { idx, len, keys };
  }
  if (!best) return { exact: false };
  const { idx, len } = best;
  let combos: string[][] = [[]];
  for (let i = 0; i < len; i++) {
    const encoded = [...new Set(cons.get(idx.fields[i]!)!.values.map(encodeKey))];
    combos = combos.flatMap((c) => encoded.map((e) => [...c, e]));
  }
  const found = new Set<number>();
  for (const parts of combos) for (const s of idx.lookup(len, joinKey(parts))) found.add(s);
  const slots = [...found].sort((a, b) => a - b);
  const only = cons.get('_id');
  const exact =
    idx.name === '_id_' && Object.keys(filter).length === 1 && only !== undefined && only.pure && only.values.every(isExactScalar);
  return { slots, exact, index: idx.name };
}
