// What an index is and which keys a document gives it: the spec and persisted state, LMDB's key size limits,
// and the entries one document contributes (one key per combination of its values, arrays giving their
// elements; with a collation, strings by their collation key).
import type { Query } from 'mingo';
import type { Document } from 'bson';
import { foldValues, type Collation } from '../collation/index.js';
import { valuesAtPath } from './keys.js';
import { keyComponent, SEP } from './order.js';

export interface IndexSpec {
  v: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Document;
  /** The index's collation (collation/index.ts normalizeCollation); its string keys are collation keys. */
  collation?: Document;
  /** A non-unique index refusing new duplicate keys (collMod, on the way to `unique`); existing ones stay. */
  prepareUnique?: boolean;
}

/** One concrete key a document contributes: the components (each followed by SEP) and raw field values. */
export interface KeyEntry {
  key: string;
  values: unknown[];
}

/** A document's entries in one index, with per field whether it is multikey / holds unordered values. */
export interface DocKeys {
  entries: KeyEntry[];
  multi: boolean[];
  unordered: boolean[];
}

/** Persisted per-index state (with the catalog). */
export interface IndexMeta {
  id: number;
  spec: IndexSpec;
  multi: number[];
  unordered: number[];
}

/** A record id (the document's key in `docs` after the collection id). */
export type Rid = string;

/** LMDB's key size limit: no stored key is longer, so a lookup by a longer one finds nothing (lmdb itself would
 *  throw on it). */
export const LMDB_MAX_KEY = 1978;
/** LMDB's key size limit less the index id. */
export const MAX_KEY_BYTES = LMDB_MAX_KEY - 4;
/** An `_id`'s component in a clustered collection: it is also the suffix of every secondary index entry, so it
 *  is held to MongoDB's former index key limit (1024 bytes), leaving at least 950 bytes to the other indexes. */
export const MAX_ID_BYTES = 1024;

const EMPTY_ARRAY: unique symbol = Symbol('[]');

/** Per-field element values: arrays contribute their elements (multikey), [] a marker of its own. */
function fieldValues(doc: Document, path: string[]): { values: unknown[]; present: boolean } {
  const out: unknown[] = [];
  let present = false;
  for (const v of valuesAtPath(doc, path)) {
    if (v !== undefined) present = true;
    if (Array.isArray(v)) {
      if (v.length === 0) out.push(EMPTY_ARRAY);
      else out.push(...v);
    } else out.push(v);
  }
  return { values: out, present };
}

function component(v: unknown): { c: string; ordered: boolean } {
  // MongoDB indexes [] as undefined, which no scalar equality matches; it has no place in sort order.
  return v === EMPTY_ARRAY ? { c: '~[]', ordered: false } : keyComponent(v);
}

/**
 * True when index key equality is exactly MongoDB equality for `v`: strings, booleans, numbers (int, long
 * within 2^53 and double alike, as the driver decodes them; not NaN), valid dates and ObjectIds. An array
 * field matches such a value through its elements, as its multikey entries do.
 */
export function exactKey(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(v);
    case 'object':
      if (v instanceof Date) return !Number.isNaN(v.getTime());
      return v !== null && (v as { _bsontype?: string })._bsontype === 'ObjectId';
    default:
      return false;
  }
}

/** The key prefix fixing the first fields to single values (each component followed by SEP). */
export function prefixKey(values: readonly unknown[]): string {
  let k = '';
  for (const v of values) k += component(v).c + SEP;
  return k;
}

/** Keys a document contributes to an index on `paths`; none when sparse/partial rules exclude it. */
export function documentKeys(
  doc: Document,
  spec: IndexSpec,
  paths: string[][],
  partial?: Query,
  collation?: Collation,
): DocKeys {
  const n = paths.length;
  const multi = new Array<boolean>(n).fill(false);
  const unordered = new Array<boolean>(n).fill(false);
  if (partial && !partial.test(doc)) return { entries: [], multi, unordered };
  const per = paths.map((p) => fieldValues(doc, p));
  if (spec.sparse && per.every((f) => !f.present)) return { entries: [], multi, unordered };
  // Cartesian product over fields (MongoDB allows at most one array field, so this stays small).
  let tuples: Array<{ key: string; values: unknown[] }> = [{ key: '', values: [] }];
  per.forEach((f, i) => {
    const next: typeof tuples = [];
    const seen = new Set<string>();
    for (const v of f.values) {
      const { c, ordered } = component(collation ? foldValues(v, collation) : v);
      if (seen.has(c)) continue;
      seen.add(c);
      if (!ordered) unordered[i] = true;
      for (const t of tuples) next.push({ key: t.key + c + SEP, values: [...t.values, v] });
    }
    multi[i] = seen.size > 1;
    tuples = next;
  });
  const entries = tuples.map((t) => ({ key: t.key, values: t.values.map((v) => (v === EMPTY_ARRAY ? [] : v)) }));
  return { entries, multi, unordered };
}

/** Number of whole components in a key prefix. */
export function countComponents(prefix: string): number {
  let n = 0;
  for (let at = prefix.indexOf(SEP); at >= 0; at = prefix.indexOf(SEP, at + 1)) n++;
  return n;
}
