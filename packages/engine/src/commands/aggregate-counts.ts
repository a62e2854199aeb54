// Counting stages that mingo runs slowly, run here with MongoDB's results: an `$unwind` of a top-level field
// followed by a `$group` counting its values (mingo copies each document deeply for every element it unwinds), a
// `$group` counting a top-level field's values or their dates' years (mingo evaluates an expression per document),
// and a `$facet` whose branches only read their input (mingo copies the input for each branch). Anything else,
// and values these counts do not key (anything but strings and numbers, or dates for a year), go to mingo.
// A `$facet` whose every branch is such a count (after `$match` stages) counts as its input goes by, so that
// input is never held: at `large`, holding the 48,000 matches of a search while its facets were counted cost
// more in garbage collection than reading them.
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

/** A count's groups as plain pairs (value, count) in first-seen order: what a reader thread sends back. */
export type Tallied = Array<[unknown, number]>;

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

  /** The groups in first-seen order. */
  groups(): readonly Group[] {
    return this.order;
  }

  tallied(): Tallied {
    return this.order.map((g) => [g.value, g.n]);
  }

  /** Adds groups another tally counted (over documents after those counted here). */
  absorb(groups: Tallied): void {
    for (const [v, n] of groups)
      if (typeof v === 'string') this.count(this.strings, v, n);
      else this.count(this.others, v as number | null, n);
  }

  private count<K>(groups: Map<K, Group>, v: K, n = 1): void {
    const g = groups.get(v);
    if (g) g.n += n;
    else {
      const added = { value: v, n };
      groups.set(v, added);
      this.order.push(added);
    }
  }
}

/** The groups of an UnwindCount over `docs` in first-seen order, or undefined at a value this does not key. */
export function countUnwound(docs: readonly Document[], spec: UnwindCount): Document[] | undefined {
  return counted(docs, new UnwindCounter(spec));
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
export function countGrouped(docs: readonly Document[], spec: GroupCount): Document[] | undefined {
  return counted(docs, new GroupCounter(spec));
}

/** The counter's rows over all of `docs`, or undefined at the first document it does not count. */
function counted(docs: readonly Document[], counter: Counter): Document[] | undefined {
  for (const d of docs) if (!counter.add(d)) return undefined;
  return counter.rows();
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

/**
 * A count kept as documents go by: `add` counts one (false, counting nothing, at a value it does not key);
 * `rows` are the counting stages' output; `replay` gives documents those stages turn into the same rows, for
 * mingo to carry on from when a later document holds a value this does not key. `tallied` and `absorb` carry a
 * count made over some documents to the count of those before them.
 */
interface Counter {
  add(d: Document): boolean;
  rows(): Document[];
  replay(): Document[];
  tallied(): Tallied;
  absorb(groups: Tallied): void;
}

const keyable = (v: unknown): boolean => typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v));

/** `{ $count: <as> }`. */
class DocCounter implements Counter {
  private n = 0;
  constructor(private readonly as: string) {}
  add(): boolean {
    this.n++;
    return true;
  }
  rows(): Document[] {
    return this.n ? [{ [this.as]: this.n }] : [];
  }
  replay(): Document[] {
    return Array.from({ length: this.n }, () => ({}));
  }
  tallied(): Tallied {
    return [[null, this.n]];
  }
  absorb(groups: Tallied): void {
    for (const [, n] of groups) this.n += n;
  }
}

/** An UnwindCount: a document's values are all counted, or none of them (it goes to mingo whole). */
class UnwindCounter implements Counter {
  private readonly tally = new Tally();
  constructor(private readonly spec: UnwindCount) {}
  add(d: Document): boolean {
    const v: unknown = d[this.spec.field];
    if (v === undefined || v === null) return true;
    if (!Array.isArray(v)) return this.tally.add(v);
    if (!v.every(keyable)) return false;
    for (const e of v) this.tally.add(e);
    return true;
  }
  rows(): Document[] {
    return this.tally.rows(this.spec.as);
  }
  tallied(): Tallied {
    return this.tally.tallied();
  }
  absorb(groups: Tallied): void {
    this.tally.absorb(groups);
  }
  replay(): Document[] {
    return this.tally.groups().flatMap((g) => Array.from({ length: g.n }, () => ({ [this.spec.field]: g.value })));
  }
}

/** A GroupCount. */
class GroupCounter implements Counter {
  private readonly tally = new Tally();
  constructor(private readonly spec: GroupCount) {}
  add(d: Document): boolean {
    const v: unknown = d[this.spec.field];
    if (!this.spec.year) return this.tally.add(v ?? null, true);
    if (!(v instanceof Date) || Number.isNaN(v.getTime())) return false;
    return this.tally.add(v.getUTCFullYear());
  }
  rows(): Document[] {
    return this.tally.rows(this.spec.as);
  }
  tallied(): Tallied {
    return this.tally.tallied();
  }
  absorb(groups: Tallied): void {
    this.tally.absorb(groups);
  }
  replay(): Document[] {
    const { field, year } = this.spec;
    return this.tally.groups().flatMap((g) =>
      Array.from({ length: g.n }, () => ({
        [field]: year ? new Date(Date.UTC(g.value as number, 0, 1)) : g.value,
      })),
    );
  }
}

/** A `$facet` branch counted as its input goes by: its leading `$match` stages, the count, the stages after. */
export interface CountingBranch {
  name: string;
  matches: Document[];
  /** The counting stage, or the `$unwind` and `$group` pair. */
  counting: Document[];
  counter: Counter;
  after: Document[];
}

const COUNT_NAME = /^[^$.][^.]*$/;

/**
 * The branches of a reading `$facet` (readingFacet) when each is a count, after `$match` stages only: what
 * `$facet` then runs as its documents go by. Undefined when a branch is anything else.
 */
export function countingFacet(branches: Array<[string, Document[]]>): CountingBranch[] | undefined {
  const out: CountingBranch[] = [];
  for (const [name, branch] of branches) {
    let i = 0;
    while (i < branch.length && only(branch[i], '$match') !== undefined && isPlain(branch[i]!.$match)) i++;
    const matches = branch.slice(0, i);
    const count = only(branch[i], '$count');
    const unwound = unwindCount(branch[i], branch[i + 1]);
    const grouped = unwound ? undefined : groupCount(branch[i]);
    let counter: Counter;
    let used = 1;
    if (typeof count === 'string' && COUNT_NAME.test(count)) counter = new DocCounter(count);
    else if (unwound) {
      counter = new UnwindCounter(unwound);
      used = 2;
    } else if (grouped) counter = new GroupCounter(grouped);
    else return undefined;
    out.push({ name, matches, counting: branch.slice(i, i + used), counter, after: branch.slice(i + used) });
  }
  return out;
}
