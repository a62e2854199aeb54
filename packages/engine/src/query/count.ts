// Counting from indexes: a filter made only of equalities / $in lists of plain scalars on top-level fields
// is counted as key ranges of an index whose leading fields are exactly those fields, without reading a
// single document. Exact because key equality is MongoDB equality for these values (exactKey), and because every document has one entry under a prefix fixing the leading fields when the index's
// other fields hold one value per document (Index.singleFrom). When a document can match several values of
// a list (a multikey field constrained by $in), the matching record ids are collected and counted once each.
// Anything else returns undefined and the caller counts matching documents as before.
import type { Document } from 'bson';
import type { Collection } from '../storage/collection.js';
import { exactKey, prefixKey } from '../storage/index-keys.js';
import { type Index } from '../storage/indexes.js';

/** Per field the values it must equal (one of), or undefined when the filter is not of that form. */
function equalities(filter: Document): Map<string, unknown[]> | undefined {
  const out = new Map<string, unknown[]>();
  for (const [field, cond] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) return undefined;
    let values: unknown[] | undefined;
    if (exactKey(cond)) values = [cond];
    else if (cond && typeof cond === 'object' && !Array.isArray(cond) && Object.keys(cond).length === 1) {
      const c = cond as Document;
      if ('$eq' in c && exactKey(c.$eq)) values = [c.$eq];
      else if (Array.isArray(c.$in) && c.$in.length > 0 && c.$in.every(exactKey)) values = c.$in as unknown[];
    }
    if (!values) return undefined;
    out.set(field, values);
  }
  return out;
}

/** An index whose first fields are exactly `fields` (in any order) and that holds every document. */
function coveringIndex(coll: Collection, fields: Set<string>): Index | undefined {
  for (const idx of coll.indexes.values()) {
    // A collated index holds collation keys: its counts are not those of binary equality.
    if (idx.spec.partialFilterExpression || idx.spec.sparse || idx.spec.collation || idx.fields.length < fields.size)
      continue;
    if (Object.values(idx.spec.key).some((d) => d !== 1 && d !== -1)) continue;
    if (idx.fields.slice(0, fields.size).every((f) => fields.has(f)) && idx.singleFrom(fields.size)) return idx;
  }
  return undefined;
}

const MAX_COMBINATIONS = 10_000;

/** Prefixes of at most this many entries are counted on the spot when no count is kept; larger ones are walked
 *  in chunks (Index.walkCount) when a collector is active. */
const SMALL_COUNT = 1024;

/**
 * Counts an index does not keep and that are too large to walk on the spot, met while a command ran under
 * collectColdCounts: the command has not answered; walk them (in chunks that let the engine serve other work)
 * and run it again.
 */
export class ColdCounts extends Error {
  constructor(private readonly cold: ReadonlyArray<readonly [Index, string]>) {
    super('counts to walk first');
  }

  /** Walks every cold count (identical ones, here or under way for another command, share one walk). */
  async walk(): Promise<void> {
    await Promise.all(this.cold.map(([idx, prefix]) => idx.walkCount(prefix)));
  }
}

let collecting: Array<[Index, string]> | undefined;

/**
 * Runs `fn` (a read command) collecting the large counts it needs that no index keeps yet; throws ColdCounts
 * when there were any (what `fn` returned is then not an answer). Without it, counts are walked on the spot.
 */
export function collectColdCounts<T>(fn: () => T): T {
  const outer = collecting;
  collecting = [];
  try {
    return fn();
  } finally {
    collecting = outer;
  }
}

/** Throws ColdCounts when counts were collected for an answer (called where an index count is complete; with
 *  no answer from indexes, what was collected is not needed). */
function coldCountsMet(answered: boolean): void {
  if (!answered) collecting?.splice(0);
  else if (collecting && collecting.length > 0) {
    const cold = collecting.splice(0);
    throw new ColdCounts(cold);
  }
}

function prefixCount(idx: Index, prefix: string): number {
  if (!collecting) return idx.count(prefix);
  const n = idx.countIfSmall(prefix, SMALL_COUNT);
  if (n !== undefined) return n;
  collecting.push([idx, prefix]);
  return 0;
}

/** Documents matching `filter`, counted from an index; undefined when no index can count it exactly. */
export function countFromIndex(coll: Collection, filter: Document, collated = false): number | undefined {
  const n = indexCount(coll, filter, collated);
  coldCountsMet(n !== undefined);
  return n;
}

function indexCount(coll: Collection, filter: Document, collated: boolean): number | undefined {
  if (collated) return undefined;
  const eq = equalities(filter);
  if (!eq) return undefined;
  if (eq.size === 0) return coll.size;
  const idx = coveringIndex(coll, new Set(eq.keys()));
  if (!idx) return undefined;
  const lead = idx.fields.slice(0, eq.size);
  let prefixes = [''];
  let overlap = false; // a document may sit under several prefixes
  for (let i = 0; i < lead.length; i++) {
    const parts = [...new Set(eq.get(lead[i]!)!.map((v) => prefixKey([v])))];
    if (parts.length > 1 && idx.meta.multi[i]! > 0) overlap = true;
    prefixes = prefixes.flatMap((p) => parts.map((c) => p + c));
    if (prefixes.length > MAX_COMBINATIONS) return undefined;
  }
  if (!overlap) return prefixes.reduce((n, p) => n + prefixCount(idx, p), 0);
  const rids = new Set<string>();
  for (const p of prefixes) for (const r of idx.lookup(p)) rids.add(r);
  return rids.size;
}

const isObj = (v: unknown): v is Document => !!v && typeof v === 'object' && !Array.isArray(v);
const only = (st: unknown, op: string): unknown =>
  isObj(st) && Object.keys(st).length === 1 && op in st ? st[op] : undefined;
/** `{ $sum: 1 }`: the accumulator that counts. */
const isCounter = (acc: unknown): boolean => isObj(acc) && Object.keys(acc).length === 1 && acc.$sum === 1;

/** A `$group` counting everything into one group: `{ _id: <constant>, <name>: { $sum: 1 } }`. */
function totalGroup(g: unknown): { id: unknown; name: string } | undefined {
  if (!isObj(g) || Object.keys(g).length !== 2 || !('_id' in g)) return undefined;
  const id: unknown = g._id;
  if (!(id === null || typeof id === 'number' || (typeof id === 'string' && !id.startsWith('$')))) return undefined;
  const name = Object.keys(g).find((k) => k !== '_id')!;
  return isCounter(g[name]) ? { id, name } : undefined;
}

/**
 * The results of the counting pipelines application code sends, computed from indexes, or undefined:
 * - `[$match, ($skip|$limit)*, $group {_id: constant, n: {$sum: 1}}]` (the driver's countDocuments);
 * - `[$match, $count: name]`;
 * - counts per parent: `[$match {…, P: {$in: L}}, $project {_id: 0, B: '$P'}, $unwind '$B', $match {B: {$in: L}},
 *   $group {_id: '$B', n: {$sum: 1}}]` (documents per listed value of P; a document listing the same
 *   value twice in an array counts once here, where the pipeline would count it twice).
 */
export function countPipeline(
  coll: Collection | undefined,
  pipeline: Document[],
  collated: boolean,
): Document[] | undefined {
  const rows = pipelineCounts(coll, pipeline, collated);
  coldCountsMet(rows !== undefined);
  return rows;
}

function pipelineCounts(coll: Collection | undefined, pipeline: Document[], collated: boolean): Document[] | undefined {
  if (collated) return undefined;
  const first = pipeline[0];
  const filter = only(first, '$match');
  if (!isObj(filter)) return undefined;
  const rest = pipeline.slice(1);
  const count = (f: Document): number | undefined => (coll ? indexCount(coll, f, false) : 0);

  const asCount = only(rest[0], '$count');
  if (rest.length === 1 && typeof asCount === 'string') {
    const n = count(filter);
    return n === undefined ? undefined : n > 0 ? [{ [asCount]: n }] : [];
  }

  let skip = 0;
  let limit = Infinity;
  let i = 0;
  for (; i < rest.length - 1; i++) {
    const s = only(rest[i], '$skip');
    const l = only(rest[i], '$limit');
    if (typeof s === 'number' && Number.isInteger(s) && s >= 0) {
      skip += s;
      limit = Math.max(0, limit - s);
    } else if (typeof l === 'number' && Number.isInteger(l) && l > 0) limit = Math.min(limit, l);
    else break;
  }
  const total = i === rest.length - 1 ? totalGroup(only(rest[i], '$group')) : undefined;
  if (total) {
    const n = count(filter);
    if (n === undefined) return undefined;
    const m = Math.min(Math.max(0, n - skip), limit);
    return m > 0 ? [{ _id: total.id, [total.name]: m }] : [];
  }
  return perValueCounts(coll, filter, rest);
}

function perValueCounts(coll: Collection | undefined, filter: Document, rest: Document[]): Document[] | undefined {
  if (rest.length !== 4) return undefined;
  const project = only(rest[0], '$project');
  const unwind = only(rest[1], '$unwind');
  const second = only(rest[2], '$match');
  const group = only(rest[3], '$group');
  if (!isObj(project) || !isObj(second) || !isObj(group)) return undefined;
  const keys = Object.keys(project);
  if (keys.length !== 2 || project._id !== 0) return undefined;
  const branch = keys.find((k) => k !== '_id')!;
  const source: unknown = project[branch];
  if (typeof source !== 'string' || !/^\$[^.$]+$/.test(source) || branch.startsWith('$') || branch.includes('.'))
    return undefined;
  const field = source.slice(1);
  if (
    unwind !== `$${branch}` ||
    Object.keys(second).length !== 1 ||
    Object.keys(group).length !== 2 ||
    group._id !== `$${branch}`
  )
    return undefined;
  const name = Object.keys(group).find((k) => k !== '_id')!;
  if (!isCounter(group[name])) return undefined;
  const listed = (cond: unknown): unknown[] | undefined => {
    const l = only(cond, '$in');
    return Array.isArray(l) && l.every(exactKey) ? l : undefined;
  };
  const outer = listed(filter[field]);
  const inner = listed(second[branch]);
  if (!outer || !inner) return undefined;
  // Values in both lists, once each (by key equality, which is MongoDB equality for plain scalars).
  const innerKeys = new Set(inner.map((v) => prefixKey([v])));
  const seen = new Set<string>();
  const values = outer.filter((v) => {
    const k = prefixKey([v]);
    if (!innerKeys.has(k) || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  const out: Document[] = [];
  for (const v of values) {
    const n = coll ? indexCount(coll, { ...filter, [field]: v }, false) : 0;
    if (n === undefined) return undefined;
    if (n > 0) out.push({ _id: v, [name]: n });
  }
  return out;
}
