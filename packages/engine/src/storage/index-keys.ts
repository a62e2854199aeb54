// What an index is and which keys a document gives it: the spec and persisted state, LMDB's key size limits,
// and the entries one document contributes (one key per combination of its values, arrays giving their
// elements; with a collation, strings by their collation key).
import type { Query } from 'mingo';
import type { Document } from 'bson';
import { foldValues, type Collation } from '../collation/index.js';
import { valuesAtPath } from './keys.js';
import { keyComponent, SEP } from './order.js';
import { scoreDocument, type TextSpec } from '../text/analysis.js';
import { CommandError } from '../errors.js';

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
  /** A text index (key `_fts: 'text', _ftsx: 1` between its other fields): field path -> weight. */
  weights?: Record<string, number>;
  default_language?: string;
  language_override?: string;
  textIndexVersion?: number;
}

/** One concrete key a document contributes: the components (each followed by SEP) and raw field values. */
export interface KeyEntry {
  readonly key: string;
  readonly values: unknown[];
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
  /** Present while the index is being built over the collection's documents (index-build.ts). */
  build?: BuildProgress;
}

/**
 * How far the build of an index has come (index-build.ts). `phase` 'scan': the documents up to `scanned` (a
 * record id, in the collection's order; null before the first), `done` of the `total` the collection held when
 * it began, have given their `keys` entries to the build's sorter; 'load': `loaded` of them are in the index,
 * appended in key order; 'drain': the writes made meanwhile (kept aside, numbered below `side`) are applied.
 */
export interface BuildProgress {
  phase: 'scan' | 'load' | 'drain';
  scanned: Rid | null;
  done: number;
  total: number;
  keys: number;
  loaded: number;
  side: number;
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

/** The text analysis settings of a text index's spec, or undefined for another kind of index. */
export function textSpecOf(spec: IndexSpec): TextSpec | undefined {
  if (spec.key._fts !== 'text' || !spec.weights) return undefined;
  return {
    weights: spec.weights,
    defaultLanguage: spec.default_language ?? 'english',
    languageOverride: spec.language_override ?? 'language',
  };
}

/** Terms longer than this are indexed (and looked up) by their first characters, keeping keys within LMDB's limit. */
const MAX_TERM_CHARS = 256;

/** The key component of a term in a text index (its leading characters when very long). */
export function termComponent(term: string): string {
  return keyComponent(term.length > MAX_TERM_CHARS ? term.slice(0, MAX_TERM_CHARS) : term).c + SEP;
}

/** A text index entry: its values (asked for only to report a duplicate key) are made when read. */
class TextEntry implements KeyEntry {
  constructor(
    readonly key: string,
    private readonly pre: unknown[],
    private readonly term: string,
    private readonly score: number,
    private readonly suf: unknown[],
  ) {}

  get values(): unknown[] {
    return [...this.pre, this.term, this.score, ...this.suf];
  }
}

/**
 * A text index's entries: the fields before `_fts` (one value each), the term, its score in the document (a
 * decimal string: read back, never ordered by), the fields after `_ftsx`. A document without terms has none.
 */
function textKeys(doc: Document, spec: IndexSpec, text: TextSpec, paths: string[][]): DocKeys {
  const n = paths.length;
  const multi = new Array<boolean>(n).fill(false);
  const unordered = new Array<boolean>(n).fill(false);
  const fields = Object.keys(spec.key);
  const at = fields.indexOf('_fts');
  const single = (i: number): { c: string; v: unknown } => {
    const { values } = fieldValues(doc, paths[i]!);
    if (values.length > 1 || values[0] === EMPTY_ARRAY)
      throw new CommandError(
        'Location16675',
        `cannot have a multi-key as a prefix to a text index: field '${fields[i]!}' holds an array`,
      );
    const v = values[0] ?? null;
    return { c: keyComponent(v).c + SEP, v };
  };
  let pre = '';
  const preValues: unknown[] = [];
  for (let i = 0; i < at; i++) {
    const { c, v } = single(i);
    pre += c;
    preValues.push(v);
  }
  let suf = '';
  const sufValues: unknown[] = [];
  for (let i = at + 2; i < n; i++) {
    const { c, v } = single(i);
    suf += c;
    sufValues.push(v);
  }
  const entries: KeyEntry[] = [];
  for (const [term, score] of scoreDocument(doc, text)) {
    entries.push(
      new TextEntry(pre + termComponent(term) + String(score) + SEP + suf, preValues, term, score, sufValues),
    );
  }
  multi[at] = entries.length > 1;
  return { entries, multi, unordered };
}

/** Keys a document contributes to an index on `paths`; none when sparse/partial rules exclude it. */
export function documentKeys(
  doc: Document,
  spec: IndexSpec,
  paths: string[][],
  partial?: Query,
  collation?: Collation,
  text = textSpecOf(spec),
): DocKeys {
  const n = paths.length;
  const multi = new Array<boolean>(n).fill(false);
  const unordered = new Array<boolean>(n).fill(false);
  if (partial && !partial.test(doc)) return { entries: [], multi, unordered };
  if (text) return textKeys(doc, spec, text, paths);
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
