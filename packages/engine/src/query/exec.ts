// Query execution over a collection: candidate record ids from the planner (or an ordered index walk), the full
// filter through mingo, then sort/skip/limit/projection. Results are produced lazily as raw BSON, reusing stored bytes
// whenever the output document is the stored one (no projection). The filter and sort keys see only the
// top-level fields they reference, decoded from the stored bytes (query/fields.ts), and a top-level
// inclusion projection copies the kept elements' bytes; documents are decoded whole only when asked for.
import { Query } from './mingo.js';
import type { Document } from 'bson';
import { CommandError } from '../errors.js';
import type { Collection } from '../storage/collection.js';
import { decode, encode } from '../storage/bsonio.js';
import { decodeFields, NameSet, projectFields } from '../storage/rawdoc.js';
import { collationOf, foldFilter, foldValues } from '../collation/index.js';
import { filterFields, inclusionFields } from './fields.js';
import { numericTypesMatch, splitNumericTypes } from './types.js';
import { mingoOptions, type QueryExtras } from './options.js';
import { leadingComponents, naturalOrder, ridOf } from '../storage/order.js';
import type { Index } from '../storage/indexes.js';
import type { Rid } from '../storage/index-keys.js';
import { planQuery, type Plan, type Walk } from './plan.js';
import { compareKeys, KeySorter, parseSort, sortKey, type SortFields } from './sort.js';
import { isTextScore, noTextScore, splitText, textSearch, type TextFilter } from './text.js';
import { StoredMatch, type Match } from './match.js';

export { StoredMatch, type Match } from './match.js';

export interface FindSpec {
  filter?: Document;
  sort?: Document;
  projection?: Document;
  skip?: number;
  /** 0 or undefined = no limit. */
  limit?: number;
  extras?: QueryExtras;
}

function isEmpty(d: Document | undefined): boolean {
  return !d || Object.keys(d).length === 0;
}

/**
 * Matching documents in natural (or index-candidate) order. The filter (less the _id condition an exact
 * _id lookup already settled) is tested on just the top-level fields it names; a filter that may read
 * anything is tested on the whole document. Either way a match is decoded whole only if `doc` is read.
 */
export function* matches(
  coll: Collection,
  filter: Document = {},
  extras: QueryExtras = {},
  planned?: Plan,
): Generator<StoredMatch> {
  const text = splitText(filter);
  if (text) {
    yield* textSearch(coll, text, extras);
    return;
  }
  // Planned only here: a `$text` filter's other fields are tested on the text index's matches, so a plan for
  // them (say every id under `status: 'published'`) would be built for nothing.
  const plan = planned ?? planQuery(coll, filter, extras.collation);
  const whole = plan.exact ? {} : (plan.residual ?? filter);
  // Numeric $type tests read the stored bytes (query/types.ts); mingo runs the rest.
  const { rest: given, checks } = isEmpty(whole) ? { rest: whole, checks: [] } : splitNumericTypes(whole);
  // Under a collation the filter and each document are compared as collation keys (collation/index.ts).
  const collation = collationOf(extras.collation);
  const rest = collation && !isEmpty(given) ? foldFilter(given, collation) : given;
  const q = isEmpty(rest) ? undefined : new Query(rest, mingoOptions({ ...extras, collation: undefined }));
  const test = collation ? (d: Document) => q!.test(foldValues(d, collation) as Document) : (d: Document) => q!.test(d);
  const needs = q && filterFields(rest);
  // A walk may meet a document twice (multikey prefix fields, or a key moved by a write between batches).
  const seen = plan.walk ? new Set<Rid>() : undefined;
  for (const [rid, bytes] of candidates(coll, plan)) {
    if (seen) {
      if (seen.has(rid)) continue;
      seen.add(rid);
    }
    if (checks.length && !numericTypesMatch(bytes, checks)) continue;
    if (!q) {
      yield new StoredMatch(rid, bytes);
      continue;
    }
    const part = needs && decodeFields(bytes, needs);
    if (part) {
      if (test(part)) yield new StoredMatch(rid, bytes);
      continue;
    }
    const doc = decode(bytes);
    if (test(doc)) yield new StoredMatch(rid, bytes, doc);
  }
}

/** Refuses a hint that names no index of the collection (MongoDB: BadValue); $natural is always allowed. */
/**
 * The index a hint names, by name or key pattern; undefined when there is no hint or it asks for a collection scan
 * (`$natural`, `{}`). A hint naming no index is BadValue, as the planner answers it.
 */
export function hintedIndex(coll: Collection, hint: unknown): Index | undefined {
  if (hint === undefined || hint === null) return undefined;
  if (typeof hint === 'string') {
    if (hint === '$natural') return undefined;
    const named = coll.indexes.get(hint);
    if (named) return named;
  } else if (typeof hint === 'object') {
    const h = hint as Document;
    if (Object.keys(h).length === 0 || '$natural' in h) return undefined;
    const key = JSON.stringify(h);
    const byKey = [...coll.indexes.values()].find((i) => JSON.stringify(i.spec.key) === key);
    if (byKey) return byKey;
  }
  throw new CommandError(
    'BadValue',
    'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index',
  );
}

export function checkHint(coll: Collection | undefined, hint: unknown): void {
  if (coll) hintedIndex(coll, hint);
}

/** Compiles a filter only to report what MongoDB would refuse (unknown operators, bad arguments) even when nothing is scanned. */
export function checkFilter(filter: Document | undefined, extras?: QueryExtras): void {
  const rest = splitText(filter)?.rest ?? filter;
  if (!isEmpty(rest)) new Query(rest!, mingoOptions(extras));
}

/** Candidate documents of a plan: its record ids, its walk, or the whole collection in natural order. */
function* candidates(coll: Collection, plan: Plan): Generator<[Rid, Buffer]> {
  if (!plan.walk && !plan.rids) {
    yield* coll.scan();
    return;
  }
  for (const rid of plan.walk ? walkRids(plan.walk) : plan.rids!) {
    const bytes = coll.get(rid);
    if (bytes) yield [rid, bytes];
  }
}

/** Record ids of an ordered walk; each run of equal sort keys in natural order, as a stable sort leaves ties. */
function* walkRids(w: Walk): Generator<Rid> {
  const n = w.index.fields.length;
  let run: Rid[] = [];
  let runKey: string | undefined;
  for (const key of w.index.range(w.lo, w.hi, w.backward)) {
    const part = leadingComponents(key, w.sortComponents);
    if (part !== runKey) {
      if (run.length > 1) run.sort(naturalOrder);
      yield* run;
      run = [];
      runKey = part;
    }
    run.push(ridOf(key, n));
  }
  if (run.length > 1) run.sort(naturalOrder);
  yield* run;
}

/**
 * Matching documents in sort order, windowed by skip/limit (0 = none): an ordered index walk when the
 * planner finds one, which stops after skip+limit matches, otherwise a bounded key sort of all matches.
 * Not for collated queries (key order is binary).
 */
export function* sortedMatches(
  coll: Collection,
  filter: Document,
  extras: QueryExtras,
  fields: SortFields,
  skip: number,
  limit: number,
): Generator<StoredMatch> {
  const plan = planQuery(coll, filter, undefined, fields);
  if (plan.walk || fields.length === 0) {
    yield* window(matches(coll, filter, extras, plan), skip, limit);
    return;
  }
  // The sorter holds stored bytes only (a sort without a limit keeps every match); kept ones are decoded again.
  const sorter = new KeySorter<[Rid, Buffer]>(fields, limit ? skip + limit : Infinity);
  const names = new NameSet(fields.flatMap(([f]) => [f, f.split('.')[0]!]));
  for (const m of matches(coll, filter, extras, plan)) sorter.add(sortKey(m.fields(names), fields), [m.rid, m.bytes]);
  for (const [rid, bytes] of window(sorter.sorted(), skip, limit)) yield new StoredMatch(rid, bytes);
}

/** Raw stored bytes of matching documents without decoding when the plan allows it. */
function* rawMatches(coll: Collection, filter: Document, extras: QueryExtras): Generator<Buffer> {
  if (isEmpty(filter)) {
    for (const [, bytes] of coll.scan()) yield bytes;
    return;
  }
  const plan = planQuery(coll, filter, extras.collation);
  if (plan.exact && plan.rids) {
    for (const rid of plan.rids) {
      const bytes = coll.get(rid);
      if (bytes) yield bytes;
    }
    return;
  }
  for (const m of matches(coll, filter, extras, plan)) yield m.bytes;
}

function* window<T>(src: Iterable<T>, skip: number, limit: number): Generator<T> {
  let skipped = 0;
  let taken = 0;
  for (const x of src) {
    if (skipped < skip) {
      skipped++;
      continue;
    }
    if (limit > 0 && taken >= limit) return;
    taken++;
    yield x;
  }
}

/** A positional projection (`a.$`) needs the query to know which element matched. */
function needsFilter(projection: Document | undefined): boolean {
  return !!projection && Object.keys(projection).some((k) => k.endsWith('.$'));
}

function isPlain(v: unknown): v is Document {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** Field order of the source document, as the server keeps it; computed fields follow. */
function orderLike(p: Document, src: Document): Document {
  const out: Document = {};
  for (const k of Object.keys(src)) {
    if (!(k in p)) continue;
    const v: unknown = p[k];
    out[k] = isPlain(v) && isPlain(src[k]) ? orderLike(v, src[k] as Document) : v;
  }
  for (const k of Object.keys(p)) if (!(k in out)) out[k] = p[k];
  return out;
}

/** A function applying a find projection to one (matching) document. */
export function projector(spec: FindSpec): (doc: Document) => Document {
  const q = new Query(needsFilter(spec.projection) ? (spec.filter ?? {}) : {}, mingoOptions(spec.extras));
  const projection = spec.projection ?? {};
  return (doc) => {
    const p = q.find<Document>([doc], projection).next();
    return p ? orderLike(p, doc) : {};
  };
}

/** Sorts, windows and projects decoded documents (already known to match) through mingo, lazily. */
export function* shape(docs: Iterable<Document>, spec: FindSpec): Generator<Document> {
  const cursor = new Query({}, mingoOptions(spec.extras)).find<Document>(docs, {});
  const sort = spec.sort && Object.fromEntries(Object.entries(spec.sort).filter(([k]) => k !== '$natural'));
  if (sort && Object.keys(sort).length) cursor.sort(sort);
  if (spec.skip) cursor.skip(spec.skip);
  if (spec.limit) cursor.limit(spec.limit);
  const project = isEmpty(spec.projection) ? undefined : projector(spec);
  for (;;) {
    const d = cursor.next();
    if (d === undefined) return;
    yield project ? project(d) : d;
  }
}

/**
 * A find projection over stored matches: top-level inclusions copy raw elements (falling back per
 * document when a kept value would not survive the decoding path byte for byte), the rest go through mingo.
 */
function rawProjector(spec: FindSpec): (m: Match) => Buffer {
  const keep = inclusionFields(spec.projection);
  let slow: ((doc: Document) => Document) | undefined;
  const viaMingo = (m: Match): Buffer => encode((slow ??= projector(spec))(m.doc));
  return keep ? (m) => projectFields(m.bytes, keep) ?? viaMingo(m) : viaMingo;
}

/** Results of a find as raw BSON documents, lazily. */
export function* findRaw(coll: Collection | undefined, spec: FindSpec): Generator<Buffer> {
  if (!coll) {
    checkFilter(spec.filter, spec.extras);
    return;
  }
  const filter = spec.filter ?? {};
  const extras = spec.extras ?? {};
  const text = splitText(filter);
  if (text) {
    yield* textFind(coll, text, spec);
    return;
  }
  refuseTextScore(spec.sort, spec.projection);
  if (isEmpty(spec.sort) && isEmpty(spec.projection)) {
    yield* window(rawMatches(coll, filter, extras), spec.skip ?? 0, spec.limit ?? 0);
    return;
  }
  const fields = spec.sort ? parseSort(spec.sort) : [];
  if (fields.length && isEmpty(extras.collation)) {
    // Walk an index or sort by keys, then window, then project only the documents that are returned.
    const picked = sortedMatches(coll, filter, extras, fields, spec.skip ?? 0, spec.limit ?? 0);
    if (isEmpty(spec.projection)) for (const m of picked) yield m.bytes;
    else {
      const project = rawProjector({ filter, projection: spec.projection, extras });
      for (const m of picked) yield project(m);
    }
    return;
  }
  if (fields.length === 0) {
    // Natural order (a $natural sort included, as shape() drops it): window the matches, then project.
    const project = isEmpty(spec.projection)
      ? (m: Match) => m.bytes
      : rawProjector({ filter, projection: spec.projection, extras });
    for (const m of window(matches(coll, filter, extras), spec.skip ?? 0, spec.limit ?? 0)) yield project(m);
    return;
  }
  const raw = new WeakMap<object, Buffer>();
  function* decoded(): Generator<Document> {
    for (const m of matches(coll!, filter, extras)) {
      raw.set(m.doc, m.bytes);
      yield m.doc;
    }
  }
  for (const d of shape(decoded(), spec)) yield raw.get(d) ?? encode(d);
}

/** `{ $meta: 'textScore' }` in a find without `$text`: MongoDB has no score to give. */
function refuseTextScore(...specs: Array<Document | undefined>): void {
  for (const d of specs) if (d && Object.values(d).some(isTextScore)) throw noTextScore();
}

/**
 * A find with `$text`: the matches (a text index gives few enough to hold), sorted (a `{ $meta: 'textScore' }`
 * key sorts by score, highest first), windowed, then projected (a `{ $meta: 'textScore' }` field is the score).
 */
function* textFind(coll: Collection, text: TextFilter, spec: FindSpec): Generator<Buffer> {
  const extras = spec.extras ?? {};
  let found = [...textSearch(coll, text, extras)];
  const sort = spec.sort && Object.entries(spec.sort).filter(([k]) => k !== '$natural');
  if (sort?.length) {
    const fields: SortFields = sort.map(([k, v]) => (isTextScore(v) ? [k, -1] : parseSort({ [k]: v })[0]!));
    const keyed = found.map((m) => ({
      m,
      key: sort.map(([, v], i) => (isTextScore(v) ? m.score : sortKey(m.doc, [fields[i]!])[0])),
    }));
    keyed.sort((a, b) => compareKeys(a.key, b.key, fields));
    found = keyed.map((e) => e.m);
  }
  const projection = spec.projection ?? {};
  const scores = Object.keys(projection).filter((k) => isTextScore(projection[k]));
  const others = Object.fromEntries(Object.entries(projection).filter(([k]) => !scores.includes(k)));
  const project = isEmpty(others)
    ? (m: Match) => m.bytes
    : rawProjector({ filter: text.rest, projection: others, extras });
  for (const m of window(found, spec.skip ?? 0, spec.limit ?? 0)) {
    const bytes = project(m);
    if (scores.length === 0) {
      yield bytes;
      continue;
    }
    const d = decode(bytes);
    for (const k of scores) d[k] = m.score;
    yield encode(d);
  }
}
