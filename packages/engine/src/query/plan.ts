// Query planning. Two kinds of index plans:
// - candidate record ids: an index whose leading fields the filter constrains by equality or $in; the
//   constraint becomes a set of record ids in natural order (sorted afterwards if the query sorts);
// - an ordered walk: the leading fields are fixed by single-value equality and the next fields are the
//   requested sort (in either direction), so a key range scan of the index (storage/indexes.ts) yields candidates
//   already in sort order, narrowed by range predicates on the first walked field, and a limit stops early.
// A lookup is narrowed by range predicates on the field after its equality prefix. A filter that no index
// serves but whose top-level `$or` branches each have a lookup is planned as the union of the branches' record
// ids (MongoDB's OR plan), the whole filter applied afterwards.
// The filter is still applied to candidates afterwards, less the fields an equality lookup settled (plain
// scalars, where key equality is MongoDB equality): only the rest is left to apply (a `residual` filter),
// and nothing when the lookup settled every condition (the plan is "exact").
import type { Document } from 'bson';
import type { Collection } from '../storage/collection.js';
import { exactKey, prefixKey, type Rid } from '../storage/index-keys.js';
import { type Index } from '../storage/indexes.js';
import { naturalOrder, orderComponent, ridOf, SEP, TOP, typeRange } from '../storage/order.js';
import type { SortFields } from './sort.js';
import { collationFree, collationId, collationOf, foldValues } from '../collation/index.js';

/** Keys of an index to visit, in sort order; ties (equal first `sortComponents` components) must be
 *  re-ordered by record id, which is the natural order a stable sort keeps. */
export interface Walk {
  index: Index;
  lo: string;
  hi: string;
  backward: boolean;
  sortComponents: number;
}

export interface Plan {
  /** Candidate record ids in natural order, or undefined for a collection scan (or a walk). May name
   *  documents that do not exist (an `_id` list of a clustered collection is not checked before reading). */
  rids?: Rid[];
  /** Candidates need no further filtering. */
  exact: boolean;
  index?: string;
  /** Candidates in sort order: the sort is done. */
  walk?: Walk;
  /** What candidates still have to match, when less than the whole filter (the _id condition is done). */
  residual?: Document;
}

const MAX_KEYS = 10_000;
/** Candidate sets this small are cheaper to fetch and sort than any walk. */
const SMALL_SET = 1024;
/** Candidate set sizes are counted up to this many keys (past it, sets rank as equally large). */
const COUNT_CAP = 2048;

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
  /** The (sub)filter whose top-level key holds it. */
  from: Document;
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
      if (indexable(cond)) c = { values: [cond], pure: true, from: filter };
    } else {
      const ops = Object.keys(cond);
      if ('$eq' in cond && indexable(cond.$eq)) c = { values: [cond.$eq], pure: ops.length === 1, from: filter };
      else if (Array.isArray(cond.$in) && cond.$in.every(indexable))
        c = { values: cond.$in as unknown[], pure: ops.length === 1, from: filter };
    }
    if (c && !out.has(field)) out.set(field, c);
  }
  return out;
}

/** How an index could serve a sort: equality prefix length, sort fields it fixes, walk direction. */
interface SortFit {
  eq: number;
  walked: number;
  /** Index positions whose values must be single per document (sorted fields). */
  single: number[];
  backward: boolean;
}

function sortFit(idx: Index, cons: Map<string, Constraint>, sort: SortFields): SortFit | undefined {
  if (!idx.orderable) return undefined;
  const f = idx.fields;
  let eq = 0;
  while (eq < f.length) {
    const c = cons.get(f[eq]!);
    if (!c || c.values.length !== 1 || orderComponent(c.values[0]) === undefined) break;
    eq++;
  }
  if (eq === 0 && idx.spec.sparse) return undefined; // documents without the fields are not in it
  // Sort fields fixed by the equality prefix are constant (if single-valued), so they can be dropped.
  const single: number[] = [];
  let s = 0;
  while (s < sort.length) {
    const at = f.indexOf(sort[s]![0]);
    if (at < 0 || at >= eq) break;
    single.push(at);
    s++;
  }
  const rest = sort.slice(s);
  if (rest.length === 0 || eq + rest.length > f.length) return undefined;
  for (let j = 0; j < rest.length; j++) {
    if (rest[j]![0] !== f[eq + j] || rest[j]![1] !== rest[0]![1]) return undefined;
    single.push(eq + j);
  }
  return { eq, walked: rest.length, single, backward: rest[0]![1] === -1 };
}

type Range = [string, string];
const ALL: Range = ['', TOP];

const intersect = (a: Range, b: Range): Range => [a[0] > b[0] ? a[0] : b[0], a[1] < b[1] ? a[1] : b[1]];
const union = (a: Range, b: Range): Range => [a[0] < b[0] ? a[0] : b[0], a[1] > b[1] ? a[1] : b[1]];

/** Bounding component of a comparison value: null, MinKey and MaxKey also match missing/other types. */
function boundComponent(v: unknown): string | undefined {
  const c = orderComponent(v);
  return c && c !== orderComponent(null) && c.length > 1 ? c : undefined;
}

/** Component range that contains every value matching one field condition (ALL when unknown). */
function condRange(cond: unknown): Range {
  if (!isOperatorDoc(cond)) {
    const c = boundComponent(cond);
    return c ? [c, c + '\x01'] : ALL;
  }
  let r = ALL;
  for (const [op, v] of Object.entries(cond)) {
    if (op === '$in' && Array.isArray(v) && v.length) {
      const cs = v.map(boundComponent);
      if (cs.every((c) => c !== undefined)) r = intersect(r, cs.map((c): Range => [c!, c! + '\x01']).reduce(union));
      continue;
    }
    const c = boundComponent(v);
    if (!c) continue;
    // Comparisons are type-bracketed: $gt: 5 matches numbers only.
    if (op === '$eq') r = intersect(r, [c, c + '\x01']);
    else if (op === '$gt' || op === '$gte') r = intersect(r, [c, typeRange(c)[1]]);
    else if (op === '$lt' || op === '$lte') r = intersect(r, [typeRange(c)[0], c + '\x01']);
  }
  return r;
}

/** Component range of `field` implied by the filter (top level, $and, and $or when every branch bounds it). */
function filterRange(filter: Document, field: string): Range {
  let r = ALL;
  for (const [k, v] of Object.entries(filter)) {
    if (k === field) r = intersect(r, condRange(v));
    else if (k === '$and' && Array.isArray(v)) {
      for (const sub of v) if (sub && typeof sub === 'object') r = intersect(r, filterRange(sub as Document, field));
    } else if (k === '$or' && Array.isArray(v) && v.length) {
      r = intersect(
        r,
        v.map((sub) => (sub && typeof sub === 'object' ? filterRange(sub as Document, field) : ALL)).reduce(union),
      );
    }
  }
  return r;
}

interface Candidate {
  idx: Index;
  /** Leading fields constrained by equality/$in. */
  len: number;
  keys: number;
  /** Documents under the constrained prefix (the collection size for a walk without one). */
  count: number;
  fit?: SortFit;
}

/** a before b: tiny candidate sets first, then most equality fields, then serving the sort, then fewer. */
function better(a: Candidate, b: Candidate): boolean {
  if ((a.count <= SMALL_SET || b.count <= SMALL_SET) && a.count !== b.count) return a.count < b.count;
  if (a.len !== b.len) return a.len > b.len;
  if (!!a.fit !== !!b.fit) return !!a.fit;
  if (a.count !== b.count) return a.count < b.count;
  return a.idx.unique && !b.idx.unique;
}

/** The keys an ordered walk visits: its equality prefix, then the filter's range on the walked field. */
function walkRange(idx: Index, cons: Map<string, Constraint>, fit: SortFit, filter: Document): Range {
  let prefix = '';
  for (let i = 0; i < fit.eq; i++) prefix += orderComponent(cons.get(idx.fields[i]!)!.values[0])! + SEP;
  const [lo, hi] = filterRange(filter, idx.fields[fit.eq]!);
  return [prefix + lo, prefix + hi];
}

/** Key prefixes (storage/indexes.ts) of every combination of the constrained leading fields' values. */
function combos(idx: Index, cons: Map<string, Constraint>, len: number): string[] {
  // A collated index holds strings as collation keys (storage/indexes.ts): look the values up the same way.
  const collation = collationOf(idx.spec.collation);
  let out: string[] = [''];
  for (let i = 0; i < len; i++) {
    const parts = [
      ...new Set(cons.get(idx.fields[i]!)!.values.map((v) => prefixKey([collation ? foldValues(v, collation) : v]))),
    ];
    out = out.flatMap((c) => parts.map((p) => c + p));
  }
  return out;
}

/** Documents under the constrained prefixes (capped per prefix); a whole key of a unique index holds at
 *  most one, so its number of keys bounds it without reading the index. */
function lookupCount(idx: Index, cons: Map<string, Constraint>, len: number, keys: number, cap = COUNT_CAP): number {
  if (idx.whole(len)) return keys;
  let n = 0;
  for (const k of combos(idx, cons, len)) {
    n += idx.countUpTo(k, cap);
    if (n > cap) return n;
  }
  return n;
}

/**
 * `collation`: the query's collation (none or simple: binary comparison). An index serves lookups when it has
 * the same collation (its keys are then collation keys, equal exactly when the values are equal under it),
 * or for values holding no string, which compare alike under every collation. Ordered walks only serve
 * binary-order queries over indexes without a collation (collated sorts are done after matching).
 * `sort`: the requested order, which an ordered walk may serve.
 */
export function planQuery(
  coll: Collection,
  filter: Document,
  collation?: Document,
  sort?: SortFields,
  branch = false,
): Plan {
  const cons = constraints(filter);
  // A branch of an OR plan is not planned as one in turn: nested $or clauses would multiply the branches.
  const or = () => (branch ? undefined : orPlan(coll, filter, collation));
  if (cons.size === 0 && !sort?.length) return or() ?? { exact: false };
  const queryCollation = collationId(collation);
  const cands: Candidate[] = [];
  for (const idx of coll.indexes.values()) {
    // A partial index may not hold every matching document. (Sparse ones do: null is never looked up.) A text
    // index holds terms, and only documents that have some.
    if (idx.spec.partialFilterExpression || idx.text) continue;
    const same = collationId(idx.spec.collation) === queryCollation;
    const usable = (f: string): boolean => cons.has(f) && (same || cons.get(f)!.values.every(collationFree));
    let len = 0;
    let keys = 1;
    while (len < idx.fields.length && usable(idx.fields[len]!)) keys *= cons.get(idx.fields[len++]!)!.values.length;
    const fit = sort?.length && same && queryCollation === undefined ? sortFit(idx, cons, sort) : undefined;
    // Past MAX_KEYS key lookups, a lookup still beats reading every document when there are fewer keys than documents.
    const maxKeys = Math.max(MAX_KEYS, coll.size);
    const lookup = len > 0 && keys <= maxKeys;
    if (!lookup && !fit) continue;
    cands.push({ idx, len: lookup ? len : 0, keys, count: coll.size, fit });
  }
  // Candidate set sizes only matter to choose between indexes (a lone candidate is taken anyway). A whole
  // key of a unique index bounds its set without reading it; when that set is small, `better` takes it over
  // any larger one, so the others are counted only far enough to tell whether they are smaller still.
  // A walk is counted over its range (a range on the walked field often holds nothing, as a schedule's due
  // part does), first: a small one bounds the others' counts in turn.
  if (cands.length > 1) {
    let cap = COUNT_CAP;
    for (const c of cands) if (!c.fit && c.idx.whole(c.len) && c.keys <= SMALL_SET) cap = Math.min(cap, c.keys);
    for (const c of cands) {
      if (!c.fit || c.fit.eq === 0) continue;
      const [lo, hi] = walkRange(c.idx, cons, c.fit, filter);
      c.count = c.idx.rangeCountUpTo(lo, hi, cap);
      if (c.count <= SMALL_SET) cap = Math.min(cap, c.count);
    }
    for (const c of cands)
      if ((!c.fit || c.fit.eq === 0) && c.len > 0) c.count = lookupCount(c.idx, cons, c.len, c.keys, cap);
  }
  for (;;) {
    let best: Candidate | undefined;
    for (const c of cands) if (!best || better(c, best)) best = c;
    if (!best) return or() ?? { exact: false };
    const { idx, len, fit } = best;
    if (fit) {
      if (idx.usable(fit.eq + fit.walked, fit.single)) {
        const [lo, hi] = walkRange(idx, cons, fit, filter);
        return {
          exact: false,
          index: idx.name,
          walk: {
            index: idx,
            lo,
            hi,
            backward: fit.backward,
            sortComponents: fit.eq + fit.walked,
          },
        };
      }
      // Multikey or unordered values where the walk needs order: the index can still serve equality.
      best.fit = undefined;
      if (len === 0 || best.keys > Math.max(MAX_KEYS, coll.size)) cands.splice(cands.indexOf(best), 1);
      else best.count = lookupCount(idx, cons, len, best.keys);
      continue;
    }
    const found = new Set<Rid>();
    const narrowed = queryCollation === undefined ? rangeAfter(idx, filter, len) : undefined;
    for (const key of combos(idx, cons, len)) {
      if (!narrowed) for (const r of idx.lookup(key, Infinity, true)) found.add(r);
      else
        for (const k of idx.range(key + narrowed[0], key + narrowed[1], false)) found.add(ridOf(k, idx.fields.length));
    }
    const rids = [...found].sort(naturalOrder);
    // A top-level field whose whole condition is an equality/$in of plain scalars is settled by the lookup
    // (key equality is MongoDB equality for them, storage/indexes.ts exactKey): only the rest is left to test.
    const settled = idx.fields.slice(0, len).filter((f) => {
      const c = cons.get(f)!;
      return !f.includes('.') && c.from === filter && c.pure && c.values.every(exactKey);
    });
    if (settled.length === 0) return { rids, exact: false, index: idx.name };
    const residual: Document = { ...filter };
    for (const f of settled) delete residual[f];
    const exact = Object.keys(residual).length === 0;
    return { rids, exact, index: idx.name, ...(exact ? {} : { residual }) };
  }
}

/**
 * The range the filter bounds the field after a lookup's `len` equality fields to, when scanning it is sound: the
 * index has no collation (keys in binary order, as the bounds are) and holds only values with an order component
 * there, one per document (bounds met by different elements of an array would leave the document out).
 */
function rangeAfter(idx: Index, filter: Document, len: number): Range | undefined {
  // Single-valued there too: `{ a: { $gt: 3, $lt: 5 } }` matches `a: [1, 10]` through two elements, neither in (3, 5).
  if (len >= idx.fields.length || idx.spec.collation || !idx.orderable || !idx.usable(len + 1, [len])) return undefined;
  const r = filterRange(filter, idx.fields[len]!);
  return r[0] === ALL[0] && r[1] === ALL[1] ? undefined : r;
}

/** Most record ids an OR plan gathers before a collection scan is cheaper (it reads each candidate by id). */
const OR_MAX_RIDS = 100_000;
/** Most branches an OR plan looks up (MongoDB caps its OR enumeration likewise). */
const OR_MAX_BRANCHES = 64;

/**
 * A top-level `$or` (or one inside a top-level `$and`) whose every branch, with the rest of the filter, has a
 * lookup: the union of their record ids in natural order. The whole filter is applied to them afterwards.
 */
function orPlan(coll: Collection, filter: Document, collation: Document | undefined): Plan | undefined {
  const found = orIn(filter);
  if (!found) return undefined;
  const { branches, rest } = found;
  if (branches.length > OR_MAX_BRANCHES) return undefined;
  const rids = new Set<Rid>();
  const names = new Set<string | undefined>();
  for (const branch of branches) {
    if (!branch || typeof branch !== 'object' || Array.isArray(branch)) return undefined;
    const plan = planQuery(coll, rest.length ? { $and: [...rest, branch] } : (branch as Document), collation, [], true);
    if (!plan.rids) return undefined;
    for (const rid of plan.rids) rids.add(rid);
    if (rids.size > OR_MAX_RIDS) return undefined;
    names.add(plan.index);
  }
  const index = names.size === 1 ? [...names][0] : undefined;
  return { rids: [...rids].sort(naturalOrder), exact: false, ...(index === undefined ? {} : { index }) };
}

/** The first `$or` at the top level or in a top-level `$and`, and the conditions beside it. */
function orIn(filter: Document): { branches: unknown[]; rest: Document[] } | undefined {
  if ('$text' in filter) return undefined; // searched through the text index, not planned
  const rest: Document[] = [];
  let branches: unknown[] | undefined;
  for (const [field, cond] of Object.entries(filter)) {
    if (field === '$or' && !branches && Array.isArray(cond) && cond.length > 0) branches = cond;
    else if (field === '$and' && !branches && Array.isArray(cond)) {
      const inner = cond.find((sub) => sub && typeof sub === 'object' && Array.isArray((sub as Document).$or));
      if (inner && (inner as Document).$or.length > 0 && Object.keys(inner as Document).length === 1) {
        branches = (inner as Document).$or as unknown[];
        for (const sub of cond) if (sub !== inner) rest.push(sub as Document);
      } else rest.push({ $and: cond });
    } else rest.push({ [field]: cond });
  }
  return branches ? { branches, rest } : undefined;
}
