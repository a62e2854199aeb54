// `$text` queries over a collection's text index (storage/index-keys.ts textKeys). The index is read once per
// positive term under the equality values of the fields before the text fields; each document's score is the
// sum of its entries' scores, as MongoDB's TEXT_OR stage adds them. Candidates are then checked against the
// whole query (negations, phrases, case and diacritic sensitivity: text/query.ts) and the rest of the filter.
// `{ $meta: 'textScore' }` reads that score: in find's sort and projection here, in an aggregation through a
// field the pipeline carries (metaField), removed from what it returns.
import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import { decode } from '../storage/bsonio.js';
import { copyOut } from '../storage/copy-out.js';
import { prefixKey, termComponent, type Rid } from '../storage/index-keys.js';
import { decodeFields, NameSet } from '../storage/rawdoc.js';
import type { TextSpec } from '../text/analysis.js';
import type { Index } from '../storage/indexes.js';
import { keyComponent, naturalOrder } from '../storage/order.js';
import { parseTextQuery, textMatches, type TextQuery } from '../text/query.js';
import { filterFields } from './fields.js';
import { StoredMatch } from './match.js';
import { Query } from './mingo.js';
import { mingoOptions, type QueryExtras } from './options.js';

/** A plain object (not a Date, RegExp, buffer or BSON value, which stages carry as literals). */
const isPlain = (v: unknown): v is Document => {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** Whether `v` is `{ $meta: 'textScore' }`. */
export function isTextScore(v: unknown): boolean {
  return isPlain(v) && v.$meta === 'textScore' && Object.keys(v).length === 1;
}

/** Whether a `$text` appears anywhere in `v`. */
export function holdsText(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(holdsText);
  if (!isPlain(v)) return false;
  for (const [k, x] of Object.entries(v)) if (k === '$text' || holdsText(x)) return true;
  return false;
}

export interface TextFilter {
  text: unknown;
  /** The filter without its `$text`. */
  rest: Document;
}

/**
 * A filter's `$text` and the rest of it, or undefined without one. MongoDB takes one `$text`, at the top of the
 * filter or of a top-level `$and`'s clauses; anywhere else (under `$or`, `$nor`, `$not`, `$elemMatch`) the
 * engine refuses it, as MongoDB does unless every other clause of an `$or` is indexed.
 */
export function splitText(filter: Document | undefined): TextFilter | undefined {
  if (!filter || !holdsText(filter)) return undefined;
  let found: TextFilter | undefined;
  const take = (text: unknown, rest: Document): void => {
    if (found) throw new CommandError('BadValue', 'Too many text expressions');
    found = { text, rest };
  };
  const rest: Document = {};
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$text') {
      take(v, rest);
      continue;
    }
    if (k === '$and' && Array.isArray(v)) {
      const clauses: unknown[] = [];
      for (const c of v) {
        if (isPlain(c) && '$text' in c) {
          const { $text, ...others } = c;
          take($text, rest);
          if (holdsText(others)) throw notHere();
          if (Object.keys(others).length) clauses.push(others);
        } else if (holdsText(c)) throw notHere();
        else clauses.push(c);
      }
      if (clauses.length) rest.$and = clauses;
      continue;
    }
    if (holdsText(v)) throw notHere();
    rest[k] = v;
  }
  return found;
}

const notHere = (): CommandError =>
  new CommandError(
    'BadValue',
    'error processing query: planner returned error :: caused by :: $text is only allowed at the top level of a filter or of its $and clauses',
  );

/** The collection's text index, or IndexNotFound as MongoDB answers a `$text` without one. */
function textIndex(coll: Collection | undefined): Index {
  const idx = coll && [...coll.indexes.values()].find((i) => i.text);
  if (!idx) throw new CommandError('IndexNotFound', 'text index required for $text query');
  return idx;
}

/** The equality value of a top-level field (or of a top-level `$and` clause), or undefined. */
function equalityOf(filter: Document, field: string): { value: unknown } | undefined {
  const clauses = [filter, ...(Array.isArray(filter.$and) ? (filter.$and as unknown[]).filter(isPlain) : [])];
  for (const c of clauses) {
    if (!(field in c)) continue;
    const cond: unknown = c[field];
    if (isPlain(cond)) {
      const keys = Object.keys(cond);
      if (keys.length === 1 && keys[0] === '$eq') return { value: cond.$eq };
      if (keys.length === 0 || keys[0]!.startsWith('$')) continue;
    }
    if (Array.isArray(cond) || cond instanceof RegExp) continue;
    return { value: cond };
  }
  return undefined;
}

/**
 * What the reader of a `$text` search's matches reads of each document: all of it, or just the top-level fields
 * named (none when the set is empty), decoded as the match is made so its stored bytes need not be kept.
 */
type TextNeed = 'whole' | NameSet;

export interface TextSearchOptions {
  need?: TextNeed;
  /** Matches by descending score (equal scores in natural order), rather than in natural order. */
  byScore?: boolean;
  /** With byScore: the reader puts each run of equal scores in an order of its own (its sort ends with `_id`),
   *  so the run may come in any order. */
  anyOrderInRun?: boolean;
}

/**
 * The last scores read per text index, while its collection has not changed since: a search's page and its count
 * are two commands over the same entries, one after the other.
 */
const lastScores = new WeakMap<Index, { key: string; changes: number; scores: Map<Rid, number> }>();

/** Scores of more candidates than this are not kept (about 100 bytes each). */
const MAX_KEPT_SCORES = 250_000;

/** termScores, or the scores read last for the same terms and tests if the collection has not changed since. */
function keptTermScores(
  coll: Collection,
  idx: Index,
  prefix: string,
  terms: string[],
  tests: Array<{ at: number; component: string }>,
): Map<Rid, number> {
  const key = JSON.stringify([prefix, terms, tests]);
  const last = lastScores.get(idx);
  if (last && last.key === key && last.changes === coll.changes) return last.scores;
  const settled = coll.readsAll;
  const scores = termScores(idx, prefix, terms, tests.length ? suffixTest(tests) : undefined);
  if (settled && scores.size <= MAX_KEPT_SCORES) lastScores.set(idx, { key, changes: coll.changes, scores });
  else lastScores.delete(idx);
  return scores;
}

/**
 * Each candidate's score: the sum of its entries' scores over the query's terms, in the query's term order; only
 * the entries `keep` keeps (index-table.ts termEntries).
 */
function termScores(
  idx: Index,
  prefix: string,
  terms: Iterable<string>,
  keep?: (key: Buffer, suffixAt: number) => boolean,
): Map<Rid, number> {
  const scores = new Map<Rid, number>();
  let first = true;
  for (const t of terms) {
    // A term's entries name each document once: the first term's need no sum.
    if (first) for (const [rid, s] of idx.termEntries(prefix + termComponent(t), keep)) scores.set(rid, s);
    else
      for (const [rid, s] of idx.termEntries(prefix + termComponent(t), keep))
        scores.set(rid, (scores.get(rid) ?? 0) + s);
    first = false;
  }
  return scores;
}

/** Values whose equality is the equality of their key components (index lookups rely on the same). */
const keyedValue = (v: unknown): boolean =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * The equalities of the filter on the text index's fields after its text fields (its suffix), which the index's
 * entries answer without the document: each as the field's position there and the component the entry must
 * hold; and the filter without them. Only a top-level field or one of a top-level `$and`'s clauses, equal to a
 * string, a finite number or a boolean (`{ f: v }` or `{ f: { $eq: v } }`); the rest stays with the document.
 */
function keyedEqualities(
  filter: Document,
  suffix: string[],
): { tests: Array<{ at: number; component: string }>; rest: Document } {
  const tests: Array<{ at: number; component: string }> = [];
  const take = (clause: Document): Document => {
    const left: Document = {};
    for (const [field, cond] of Object.entries(clause)) {
      const at = suffix.indexOf(field);
      const value = isPlain(cond) && Object.keys(cond).length === 1 && '$eq' in cond ? cond.$eq : cond;
      if (at >= 0 && keyedValue(value)) tests.push({ at, component: keyComponent(value).c });
      else left[field] = cond;
    }
    return left;
  };
  const { $and, ...top } = filter;
  const rest = take(top);
  if (Array.isArray($and)) {
    const clauses = ($and as unknown[])
      .map((c) => (isPlain(c) ? take(c) : c))
      .filter((c) => !isPlain(c) || Object.keys(c).length > 0);
    if (clauses.length) rest.$and = clauses;
  } else if ($and !== undefined) rest.$and = $and;
  return { tests, rest };
}

/**
 * A test of an entry's key: whether its components after the score (each ending in a 0 byte) hold each tested
 * component at its position, compared as bytes where they lie.
 */
function suffixTest(tests: Array<{ at: number; component: string }>): (key: Buffer, suffixAt: number) => boolean {
  const wanted: Array<Buffer | undefined> = [];
  for (const t of tests) {
    const bytes = Buffer.from(t.component, 'utf8');
    // Two equalities on one field with different values: no entry passes.
    if (wanted[t.at] && !wanted[t.at]!.equals(bytes)) return () => false;
    wanted[t.at] = bytes;
  }
  return (key, suffixAt) => {
    let at = suffixAt;
    for (const bytes of wanted) {
      const end = key.indexOf(0, at);
      if (bytes && (end - at !== bytes.length || key.compare(bytes, 0, bytes.length, at, end) !== 0)) return false;
      at = end + 1;
    }
    return true;
  };
}

/** Whether a candidate found by the index's terms can still fail the query (text/query.ts textMatches). */
const checksText = (q: TextQuery): boolean =>
  q.caseSensitive || q.diacriticSensitive || q.negated.size > 0 || q.phrases.length > 0 || q.negatedPhrases.length > 0;

/** The top-level fields textMatches reads, or undefined when it may read any (a wildcard index). */
function textFields(spec: TextSpec): string[] | undefined {
  if ('$**' in spec.weights) return undefined;
  return [...Object.keys(spec.weights).map((p) => p.split('.')[0]!), spec.languageOverride];
}

/** Record ids by descending score, equal scores in natural order: a heap, so a reader stopping early sorts little. */
function* byDescendingScore(scores: Map<Rid, number>, naturalInRun = true): Generator<Rid> {
  const rids = [...scores.keys()];
  const score = [...scores.values()];
  const heap = rids.map((_, i) => i);
  const before = (a: number, b: number): boolean =>
    score[a]! > score[b]! || (naturalInRun && score[a] === score[b] && naturalOrder(rids[a]!, rids[b]!) < 0);
  const down = (at: number, n: number): void => {
    for (;;) {
      const l = 2 * at + 1;
      if (l >= n) return;
      const c = l + 1 < n && before(heap[l + 1]!, heap[l]!) ? l + 1 : l;
      if (!before(heap[c]!, heap[at]!)) return;
      [heap[c], heap[at]] = [heap[at]!, heap[c]!];
      at = c;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i, heap.length);
  for (let n = heap.length; n > 0; n--) {
    yield rids[heap[0]!]!;
    heap[0] = heap[n - 1]!;
    down(0, n - 1);
  }
}

/**
 * How a candidate of a `$text` search is tested and what of it is read: plain values (BSON-encodable), so that a
 * reader on another thread (commands/facet-thread.ts) can rebuild the same test.
 */
export interface CandidateTest {
  /** The `$text` operand. */
  text: unknown;
  /** The text index's. */
  spec: TextSpec;
  /** The filter without its `$text` and without what the index's entries answered (keyedEqualities). */
  rest: Document;
  /** Top-level fields the reader needs; undefined: the whole document. */
  need?: string[];
}

/** A search's candidates (their scores, read from the text index) and how each is tested. */
export interface TextCandidates {
  scores: Map<Rid, number>;
  test: CandidateTest;
}

/** Reads a `$text` search's candidates from the collection's text index. */
export function textCandidates(coll: Collection | undefined, tf: TextFilter, extras: QueryExtras): TextCandidates {
  const idx = textIndex(coll);
  const spec = idx.text!;
  const q = parseTextQuery(tf.text, spec.defaultLanguage);
  const before = idx.fields.slice(0, idx.fields.indexOf('_fts'));
  const values = before.map((f) => {
    const eq = equalityOf(tf.rest, f);
    if (!eq)
      throw new CommandError(
        'BadValue',
        'error processing query: planner returned error :: caused by :: failed to use text index to satisfy $text query (if text index is compound, are equality predicates given for all prefix fields?)',
      );
    return eq.value;
  });
  // Equalities on the fields after the text fields are tested on the index's entries, without the document
  // (not under a collation, which may make other strings equal).
  const collated = !!extras.collation && Object.keys(extras.collation).length > 0;
  const keyed = collated
    ? { tests: [], rest: tf.rest }
    : keyedEqualities(tf.rest, idx.fields.slice(idx.fields.indexOf('_ftsx') + 1));
  const scores = keptTermScores(coll!, idx, prefixKey(values), [...q.bounds], keyed.tests);
  return { scores, test: { text: tf.text, spec, rest: keyed.rest } };
}

/**
 * A candidate's test, built once per search: its fields (at least those `need`s, though only those tested when
 * the whole document is needed), or undefined when it fails.
 */
export type CandidateReader = (bytes: Buffer) => Document | undefined;

/**
 * The reader of a search's candidates: decodes only the fields the rest of the filter and the text checks read,
 * and those needed (the whole document when they may read anything); undefined when nothing is tested (every
 * candidate matches).
 */
export function candidateReader(t: CandidateTest, extras: QueryExtras): CandidateReader | undefined {
  const q = parseTextQuery(t.text, t.spec.defaultLanguage);
  const rest = Object.keys(t.rest).length ? new Query(t.rest, mingoOptions(extras)) : undefined;
  const check = checksText(q);
  if (!check && !rest) return undefined;
  const tested = rest ? filterFields(t.rest) : new NameSet([]);
  const text = check ? textFields(t.spec) : [];
  const names = tested && text ? new NameSet([...tested.list, ...text, ...(t.need ?? [])]) : undefined;
  return (bytes) => {
    // `bytes` may be a view of the store's reused read buffer: a document decoded from it whole is decoded from
    // a copy, or its binary values would show the next document's bytes.
    const doc = (names && decodeFields(bytes, names)) ?? decode(copyOut(bytes));
    return (check && !textMatches(doc, t.spec, q)) || (rest && !rest.test(doc)) ? undefined : doc;
  };
}

/** A candidate's fields when nothing is tested: those named, or the whole document. */
export const fieldsOf = (bytes: Buffer, need: NameSet): Document => decodeFields(bytes, need) ?? decode(copyOut(bytes));

/**
 * Documents matching a filter with a `$text`, with their scores, in natural order or by score. Only the fields
 * the rest of the filter and the text checks read are decoded to test a candidate (the whole document when they
 * may read anything); a candidate's document is not read at all when nothing is tested and nothing needed.
 */
export function* textSearch(
  coll: Collection | undefined,
  tf: TextFilter,
  extras: QueryExtras,
  opts: TextSearchOptions = {},
): Generator<StoredMatch> {
  const { scores, test } = textCandidates(coll, tf, extras);
  const need = opts.need ?? 'whole';
  const reader = candidateReader({ ...test, need: need === 'whole' ? undefined : need.list }, extras);
  // Nothing to test and nothing to read (a `$count`): the entries are the matches. Each was written in its
  // document's transaction, and the reader counts them all in this turn, so no document is looked up.
  if (!reader && need !== 'whole' && need.size === 0 && !opts.byScore) {
    for (const [rid, score] of scores) yield new StoredMatch(rid, undefined, undefined, score, {});
    return;
  }
  const order = opts.byScore ? byDescendingScore(scores, !opts.anyOrderInRun) : [...scores.keys()].sort(naturalOrder);
  for (const rid of order) {
    const score = scores.get(rid)!;
    if (!reader && need !== 'whole' && need.size === 0) {
      if (coll!.has(rid)) yield new StoredMatch(rid, undefined, undefined, score, {});
      continue;
    }
    const bytes = coll!.peek(rid);
    if (!bytes) continue;
    if (!reader) {
      if (need === 'whole') yield new StoredMatch(rid, copyOut(bytes), undefined, score);
      else yield new StoredMatch(rid, undefined, undefined, score, fieldsOf(bytes, need));
      continue;
    }
    const doc = reader(bytes);
    if (!doc) continue;
    if (need === 'whole') yield new StoredMatch(rid, copyOut(bytes), undefined, score);
    else yield new StoredMatch(rid, undefined, undefined, score, doc);
  }
}

/** `{ $meta: 'textScore' }` where no `$text` gave a score. */
export const noTextScore = (): CommandError =>
  new CommandError('Location40218', 'query requires text score metadata, but it is not available');

/** The field an aggregation carries a document's text score in, between its first stage and its output. */
export const SCORE_FIELD = '\u0001textScore';

/**
 * Stages after a `$match` with `$text`, reading the score from SCORE_FIELD: `{ $meta: 'textScore' }` becomes
 * `'$<SCORE_FIELD>'` in expressions and a descending SCORE_FIELD key in `$sort`, and inclusion `$project`
 * stages keep the field, so later stages still see the score (as MongoDB's metadata follows a document).
 * `scored`: whether the pipeline starts with a `$text` match; without, a textScore is an error.
 */
export function scoreStages(stages: Document[], scored: boolean): Document[] {
  const rewrite = (v: unknown): unknown => {
    if (isTextScore(v)) {
      if (!scored) throw noTextScore();
      return '$' + SCORE_FIELD;
    }
    if (Array.isArray(v)) return v.map(rewrite);
    if (!isPlain(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rewrite(x)]));
  };
  return stages.map((st) => {
    if (!isPlain(st)) return st;
    if (isPlain(st.$sort) && Object.keys(st).length === 1) {
      const sort = Object.entries(st.$sort).map(([k, d]): [string, unknown] => {
        if (!isTextScore(d)) return [k, d];
        if (!scored) throw noTextScore();
        return [SCORE_FIELD, -1];
      });
      return { $sort: Object.fromEntries(sort) };
    }
    const out = rewrite(st) as Document;
    if (scored && isPlain(out.$project) && Object.keys(out).length === 1) {
      const p = out.$project;
      const exclusion = Object.entries(p).some(([k, v]) => k !== '_id' && (v === 0 || v === false));
      if (!exclusion) return { $project: { ...p, [SCORE_FIELD]: 1 } };
    }
    return out;
  });
}
