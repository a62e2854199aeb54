// One index of a collection: its spec, key extraction from documents and the postings maps
// (encoded key -> document slot(s)). Compound indexes also keep one map per key prefix so that
// equality on leading fields alone can be served without scanning. An ordered view of the keys (see
// order.ts) is built the first time a query wants to walk the index in sort order, then kept up to date.
import { Query } from 'mingo';
import type { Document } from 'bson';
import { encodeKey, joinKey, valuesAtPath } from './keys.js';
import { OrderedKeys, orderComponent, SEP, slotSuffix, UNORDERED } from './order.js';
import { Postings } from './postings.js';

export interface IndexSpec {
  v: number;
  key: Record<string, number | string>;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  expireAfterSeconds?: number;
  partialFilterExpression?: Document;
}

/** One concrete key a document contributes: encoded prefixes (last = full key) and raw field values. */
export interface KeyEntry {
  prefixes: string[];
  values: unknown[];
}

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

const EMPTY_ARRAY: unique symbol = Symbol('[]');

function enc(v: unknown): string {
  return v === EMPTY_ARRAY ? '[]' : encodeKey(v);
}

export class Index {
  readonly paths: string[][];
  readonly fields: string[];
  private readonly maps: Postings[];
  private readonly partial?: Query;
  /** TTL indexes: slot -> expiry time in ms, for the sweeper. */
  readonly ttl?: Map<number, number>;
  /** Ordered view, once built; with per field the number of documents that hold several distinct values
   *  there (multikey: sort keys are then min/max elements, not entries) or a value without an order key. */
  private view?: { keys: OrderedKeys; multi: number[]; unordered: number[] };

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    this.maps = this.fields.map(() => new Postings());
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression, {});
    if (typeof spec.expireAfterSeconds === 'number' && this.fields.length === 1) this.ttl = new Map();
    // Compound indexes are declared to serve sorts: keep their view from the start (built as documents are
    // added), so no query pays for building it. Single-field ones (_id_ included) build it on first use.
    if (this.fields.length > 1 && this.orderable) this.view = this.emptyView();
  }

  private emptyView(): NonNullable<Index['view']> {
    return { keys: new OrderedKeys(), multi: this.fields.map(() => 0), unordered: this.fields.map(() => 0) };
  }

  get name(): string {
    return this.spec.name;
  }

  /** _id_ is always unique, though listIndexes (like MongoDB) does not say so. */
  get unique(): boolean {
    return this.spec.unique === true || this.spec.name === '_id_';
  }

  /** Keys a document contributes; empty when sparse/partial rules exclude it. */
  entries(doc: Document): KeyEntry[] {
    if (this.partial && !this.partial.test(doc)) return [];
    const per = this.paths.map((p) => fieldValues(doc, p));
    if (this.spec.sparse && per.every((f) => !f.present)) return [];
    // Cartesian product over fields (MongoDB allows at most one array field, so this stays small).
    let tuples: unknown[][] = [[]];
    for (const f of per) {
      const next: unknown[][] = [];
      const seen = new Set<string>();
      for (const v of f.values) {
        const k = enc(v);
        if (seen.has(k)) continue;
        seen.add(k);
        for (const t of tuples) next.push([...t, v]);
      }
      tuples = next;
    }
    return tuples.map((values) => {
      const parts = values.map(enc);
      const prefixes = parts.map((_, i) => joinKey(parts.slice(0, i + 1)));
      return { prefixes, values: values.map((v) => (v === EMPTY_ARRAY ? [] : v)) };
    });
  }

  /** The entry of `entries` that collides with another slot in a unique index, if any. */
  conflict(entries: KeyEntry[], self: number | undefined): KeyEntry | undefined {
    if (!this.unique) return undefined;
    const full = this.maps[this.maps.length - 1]!;
    for (const e of entries) {
      const cur = full.get(e.prefixes[e.prefixes.length - 1]!);
      if (cur === undefined) continue;
      if (typeof cur === 'number' ? cur !== self : [...cur].some((s) => s !== self)) return e;
    }
    return undefined;
  }

  add(slot: number, entries: KeyEntry[], doc: Document): void {
    for (const e of entries) e.prefixes.forEach((k, i) => this.maps[i]!.add(k, slot));
    if (this.view) this.track(slot, entries, 1);
    if (this.ttl) {
      const at = this.expiry(doc);
      if (at !== undefined) this.ttl.set(slot, at);
    }
  }

  remove(slot: number, entries: KeyEntry[]): void {
    for (const e of entries) e.prefixes.forEach((k, i) => this.maps[i]!.remove(k, slot));
    this.ttl?.delete(slot);
    if (this.view) this.track(slot, entries, -1);
  }

  /** Number of slots under a key prefix of `prefixLen` fields (a cheap selectivity estimate). */
  count(prefixLen: number, key: string): number {
    const cur = this.maps[prefixLen - 1]?.get(key);
    return cur === undefined ? 0 : typeof cur === 'number' ? 1 : cur.size;
  }

  /** Hashed indexes keep no order; partial ones may lack matching documents. */
  get orderable(): boolean {
    return !this.spec.partialFilterExpression && Object.values(this.spec.key).every((d) => d === 1 || d === -1);
  }

  /**
   * The ordered view, built from `docs` on first use (one decode per document), with `usable(n, single)`:
   * whether the first `n` fields hold only values with an order key and the fields at `single` hold one
   * value per document (a multikey field's sort key is its min/max element, which no entry order gives).
   */
  ordered(docs: () => Iterable<[number, Document]>): { keys: OrderedKeys; usable: (n: number, single: number[]) => boolean } {
    if (!this.view) {
      this.view = this.emptyView();
      const all: string[] = [];
      for (const [slot, doc] of docs()) this.track(slot, this.entries(doc), 1, all);
      all.sort();
      this.view.keys = OrderedKeys.from(all);
    }
    const v = this.view;
    return {
      keys: v.keys,
      usable: (n, single) => v.unordered.slice(0, n).every((c) => c === 0) && single.every((i) => v.multi[i] === 0),
    };
  }

  /** Adds (+1) or removes (-1) a document's keys in the ordered view and its per-field counts. */
  private track(slot: number, entries: KeyEntry[], delta: 1 | -1, bulk?: string[]): void {
    const v = this.view!;
    const suffix = slotSuffix(slot);
    const first: Array<string | undefined> = [];
    const multi: boolean[] = [];
    const unordered: boolean[] = [];
    const seen = new Set<string>();
    // Entries are a cartesian product, so a field's value object repeats: encode it once.
    const lastValue: unknown[] = [];
    const lastPart: string[] = [];
    for (const e of entries) {
      let key = '';
      for (let i = 0; i < this.fields.length; i++) {
        const value = e.values[i];
        let part = lastPart[i];
        if (part === undefined || value !== lastValue[i]) {
          const c = Array.isArray(value) ? undefined : orderComponent(value); // [] marks an empty array
          if (c === undefined) unordered[i] = true;
          part = c ?? UNORDERED;
          lastValue[i] = value;
          lastPart[i] = part;
        }
        if (first[i] === undefined) first[i] = part;
        else if (first[i] !== part) multi[i] = true;
        key += part + SEP;
      }
      key += suffix;
      if (seen.has(key)) continue; // several unordered values share the placeholder
      seen.add(key);
      if (bulk) bulk.push(key);
      else if (delta > 0) v.keys.insert(key);
      else v.keys.delete(key);
    }
    for (let i = 0; i < this.fields.length; i++) {
      if (multi[i]) v.multi[i]! += delta;
      if (unordered[i]) v.unordered[i]! += delta;
    }
  }

  /** Slots whose key prefix of `prefixLen` fields equals `key` (an already joined encoded key). */
  lookup(prefixLen: number, key: string): Iterable<number> {
    const cur = this.maps[prefixLen - 1]?.get(key);
    if (cur === undefined) return [];
    return typeof cur === 'number' ? [cur] : cur;
  }

  /** TTL: earliest date in the field plus expireAfterSeconds; non-dates never expire. */
  private expiry(doc: Document): number | undefined {
    let min: number | undefined;
    for (const v of valuesAtPath(doc, this.paths[0]!)) {
      for (const d of Array.isArray(v) ? v : [v]) {
        if (d instanceof Date && (min === undefined || d.getTime() < min)) min = d.getTime();
      }
    }
    return min === undefined ? undefined : min + (this.spec.expireAfterSeconds ?? 0) * 1000;
  }
}
