// Counting stages that mingo runs slowly, run here with MongoDB's results: an `$unwind` of a top-level field
// followed by a `$group` counting its values (mingo copies each document deeply for every element it unwinds), a
// `$group` counting a top-level field's values or their dates' years (mingo evaluates an expression per document),
// and a `$facet` whose branches only read their input (mingo copies the input for each branch). Anything else,
// and values these counts do not key (anything but strings and numbers, or dates for a year), go to mingo.
import type { Document } from 'bson';

const isPlain = (v: unknown): v is Document =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

const only = (st: unknown, op: string): unknown =>
  isPlain(st) && Object.keys(st).length === 1 && op in st ? st[op] : undefined;

export interface UnwindCount {
  field: string;
  as: string;
}

/** `{ $unwind: '$f' }` then `{ $group: { _id: '$f', <as>: { $sum: 1 } } }`, f a top-level field. */
export function unwindCount(unwind: unknown, group: unknown): UnwindCount | undefined {
  const path = only(unwind, '$unwind');
  const spec = only(group, '$group');
  if (typeof path !== 'string' || !/^\$[^.$]+$/.test(path) || !isPlain(spec)) return undefined;
  const keys = Object.keys(spec);
  if (keys.length !== 2 || spec._id !== path) return undefined;
  const as = keys.find((k) => k !== '_id')!;
  const acc: unknown = spec[as];
  if (as.startsWith('$') || as.includes('.') || !isPlain(acc) || Object.keys(acc).length !== 1 || acc.$sum !== 1)
    return undefined;
  return { field: path.slice(1), as };
}

interface Group {
  value: unknown;
  n: number;
}

/**
 * Counts by value as MongoDB groups: strings by their characters, numbers by value whatever their type, null
 * apart; groups in first-seen order. Keyed by the values themselves (no key string made per value counted).
 */
class Tally {
  private readonly strings = new Map<string, Group>();
  private readonly others = new Map<number | null, Group>();
  private readonly order: Group[] = [];

  /** Counts `v`; false at a value this does not key (null too, unless `nullable`). */
  add(v: unknown, nullable = false): boolean {
    if (typeof v === 'string') this.count(this.strings, v);
    else if ((typeof v === 'number' && !Number.isNaN(v)) || (nullable && v === null)) this.count(this.others, v);
    else return false;
    return true;
  }

  rows(as: string): Document[] {
    return this.order.map((g) => ({ _id: g.value, [as]: g.n }));
  }

  private count<K>(groups: Map<K, Group>, v: K): void {
    const g = groups.get(v);
    if (g) g.n++;
    else {
      const added = { value: v, n: 1 };
      groups.set(v, added);
      this.order.push(added);
    }
  }
}

/** The groups of an UnwindCount over `docs` in first-seen order, or undefined at a value this does not key. */
export function countUnwound(docs: readonly Document[], { field, as }: UnwindCount): Document[] | undefined {
  const tally = new Tally();
  for (const d of docs) {
    const v: unknown = d[field];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) {
      for (const e of v) if (!tally.add(e)) return undefined;
    } else if (!tally.add(v)) return undefined;
  }
  return tally.rows(as);
}

export interface GroupCount {
  field: string;
  /** Grouped by the UTC year of the field's date (`{ $year: '$f' }`), not by the value. */
  year: boolean;
  as: string;
}

/** `{ $group: { _id: '$f' | { $year: '$f' }, <as>: { $sum: 1 } } }`, f a top-level field. */
export function groupCount(group: unknown): GroupCount | undefined {
  const spec = only(group, '$group');
  if (!isPlain(spec)) return undefined;
  const keys = Object.keys(spec);
  if (keys.length !== 2 || !keys.includes('_id')) return undefined;
  let path: unknown = spec._id;
  const year = isPlain(path) && Object.keys(path).length === 1 && '$year' in path;
  if (year) path = (path as Document).$year;
  if (typeof path !== 'string' || !/^\$[^.$]+$/.test(path)) return undefined;
  const as = keys.find((k) => k !== '_id')!;
  const acc: unknown = spec[as];
  if (as.startsWith('$') || as.includes('.') || !isPlain(acc) || Object.keys(acc).length !== 1 || acc.$sum !== 1)
    return undefined;
  return { field: path.slice(1), year, as };
}

/**
 * The groups of a GroupCount over `docs` in first-seen order, or undefined at a value this does not key: an
 * array, an object, a value of another BSON type (numbers of every type group by value, strings by their
 * characters, missing and null together as null), or with `year` anything but a valid date.
 */
export function countGrouped(docs: readonly Document[], { field, year, as }: GroupCount): Document[] | undefined {
  const tally = new Tally();
  for (const d of docs) {
    const v: unknown = d[field];
    if (year) {
      if (!(v instanceof Date) || Number.isNaN(v.getTime())) return undefined;
      tally.add(v.getUTCFullYear());
    } else if (!tally.add(v ?? null, true)) return undefined;
  }
  return tally.rows(as);
}

/** Stages a `$facet` branch may hold to be run here on input shared with the other branches: readers only. */
const READERS = new Set(['$match', '$group', '$sort', '$limit', '$skip', '$count']);

/** The branches of a `$facet` stage whose every stage only reads its input, or undefined. */
export function readingFacet(st: unknown): Array<[string, Document[]]> | undefined {
  const spec = only(st, '$facet');
  if (!isPlain(spec) || Object.keys(spec).length === 0) return undefined;
  const branches = Object.entries(spec);
  for (const [name, branch] of branches) {
    if (name.startsWith('$') || name.includes('.') || !Array.isArray(branch) || branch.length === 0) return undefined;
    for (let i = 0; i < branch.length; i++) {
      if (unwindCount(branch[i], branch[i + 1])) {
        i++;
        continue;
      }
      const op = isPlain(branch[i]) ? Object.keys(branch[i] as Document) : [];
      if (op.length !== 1 || !READERS.has(op[0]!)) return undefined;
    }
  }
  return branches as Array<[string, Document[]]>;
}
