// One index of a collection: its spec, key extraction from documents and the postings maps
// (encoded key -> document slot(s)). Compound indexes also keep one map per key prefix so that
// equality on leading fields alone can be served without scanning.
import { Query } from 'mingo';
import type { Document } from 'bson';
import { encodeKey, joinKey, valuesAtPath } from './keys.js';
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

  constructor(readonly spec: IndexSpec) {
    this.fields = Object.keys(spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    this.maps = this.fields.map(() => new Postings());
    if (spec.partialFilterExpression) this.partial = new Query(spec.partialFilterExpression, {});
    if (typeof spec.expireAfterSeconds === 'number' && this.fields.length === 1) this.ttl = new Map();
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
    if (this.ttl) {
      const at = this.expiry(doc);
      if (at !== undefined) this.ttl.set(slot, at);
    }
  }

  remove(slot: number, entries: KeyEntry[]): void {
    for (const e of entries) e.prefixes.forEach((k, i) => this.maps[i]!.remove(k, slot));
    this.ttl?.delete(slot);
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
