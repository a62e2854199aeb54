// One index of a collection: its entries in LMDB's `keys`
// database: index id (u32) | one component per field, each followed by '\0' (order.ts) | the document's record
// id -> empty. A record id (collection.ts) is the key of the document in `docs` after the collection id: in a
// clustered collection (every one but capped ones) the document's `_id` component followed by '\0', in a
// capped one its insertion slot (12 hex digits). A unique index holds at most one document per key, so its
// entries are index id | components -> record id instead: looking up a whole key is one `get`, not a cursor
// probe (a range scan costs ~5 µs in lmdb-js, a get ~1 µs). The `_id_` index of a clustered collection has no
// entries of its own: the documents, keyed by their `_id` component, are its entries, so an `_id` lookup is the
// document's own get. `range` yields components then record id for every kind, so walks see one format.
// Equality on leading fields, ranges, ordered walks and counts are all key range scans; nothing per document
// lives in the heap. Per field the index keeps two counters (persisted with the catalog):
// documents holding several distinct values there (multikey: a sort then uses the min/max element, which no
// key order gives) and documents holding a value without an order component there; the planner walks a
// field only while they are zero. Which keys a document gives is index-keys.ts; the counts kept per key
// prefix are kept-counts.ts.
import { Query } from 'mingo';
import type { Document } from 'bson';
import { collationOf, type Collation } from '../collation/index.js';
import type { StorageEnv } from './env.js';
import { keyRange, keyValueRange, prefixEnd, u32 } from './key-ranges.js';
import type { Database } from 'lmdb';
import { orderComponent, ridOf, typeRange } from './order.js';
import { KeyTooLongError } from '../errors.js';
import {
  countComponents,
  documentKeys,
  textSpecOf,
  LMDB_MAX_KEY,
  MAX_ID_BYTES,
  MAX_KEY_BYTES,
  type DocKeys,
  type IndexMeta,
  type IndexSpec,
  type KeyEntry,
  type Rid,
} from './index-keys.js';
import { KeptCounts } from './kept-counts.js';
import type { TextSpec } from '../text/analysis.js';

const NONE = Buffer.alloc(0);

export class Index {
  readonly paths: string[][];
  readonly fields: string[];
  private readonly partial?: Query;
  /** With a collation, strings are indexed by their collation key: equal under the collation = equal keys. */
  private readonly collation?: Collation;
  /** The table holding the entries and their common prefix: `keys` under the index id, or for the `_id_`
   *  index of a clustered collection `docs` under the collection id (the documents are the entries). */
  private readonly table: Database<Buffer, Buffer>;
  private readonly idPrefix: Buffer;
  /** The `_id_` index of a clustered collection: no entries of its own. */
  readonly clustered: boolean;
  /** Entry counts per key prefix, kept exact by the writes (kept-counts.ts). */
  private readonly counted: KeptCounts;

  /** `clusteredIn`: the collection id, when this is the `_id_` index of a clustered collection. */
  constructor(
    private readonly env: StorageEnv,
    readonly meta: IndexMeta,
    clusteredIn?: number,
  ) {
    this.fields = Object.keys(meta.spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    this.clustered = clusteredIn !== undefined;
    this.table = this.clustered ? env.docs : env.keys;
    this.idPrefix = u32(clusteredIn ?? meta.id);
    if (meta.spec.partialFilterExpression) this.partial = new Query(meta.spec.partialFilterExpression, {});
    this.collation = collationOf(meta.spec.collation);
    this.counted = new KeptCounts(env, this.table, this.fields.length, (prefix) => this.bounds(prefix));
  }

  get spec(): IndexSpec {
    return this.meta.spec;
  }

  get name(): string {
    return this.meta.spec.name;
  }

  get id(): number {
    return this.meta.id;
  }

  /** _id_ is always unique, though listIndexes (like MongoDB) does not say so. */
  get unique(): boolean {
    return this.spec.unique === true || this.spec.name === '_id_';
  }

  /** A single-field index with expireAfterSeconds. */
  get ttl(): boolean {
    return typeof this.spec.expireAfterSeconds === 'number' && this.fields.length === 1;
  }

  /** Hashed indexes keep no order; partial ones may lack matching documents. */
  get orderable(): boolean {
    return !this.spec.partialFilterExpression && Object.values(this.spec.key).every((d) => d === 1 || d === -1);
  }

  /** The text analysis settings of a text index (storage/index-keys.ts textKeys), else undefined. */
  get text(): TextSpec | undefined {
    return (this.textSpec ??= textSpecOf(this.spec) ?? null) ?? undefined;
  }

  private textSpec?: TextSpec | null;

  /**
   * A text index's documents holding a term: (record id, the term's score there) for each entry under
   * `prefix` (the fields before the term, then the term's component: index-keys.ts termComponent).
   */
  *termEntries(prefix: string): Generator<[Rid, number]> {
    const [start, end] = this.bounds(prefix);
    const n = this.fields.length;
    const from = Buffer.byteLength(prefix) + 4;
    for (const k of keyRange(this.env.keys, start, end)) {
      const key = k.toString('utf8', 4);
      const score = k.toString('latin1', from, k.indexOf(0, from));
      yield [ridOf(key, n), Number(score)];
    }
  }

  /** Keys a document contributes; none when sparse/partial rules exclude it. */
  keys(doc: Document): DocKeys {
    return documentKeys(doc, this.spec, this.paths, this.partial, this.collation);
  }

  /** Throws KeyTooLongError when an entry cannot be stored (`rid`: the record id a non-unique entry ends with). */
  checkSize(keys: DocKeys, ns: string, rid: Rid): void {
    const max = this.clustered ? MAX_ID_BYTES : this.unique ? MAX_KEY_BYTES : MAX_KEY_BYTES - Buffer.byteLength(rid);
    for (const e of keys.entries) {
      const bytes = Buffer.byteLength(e.key);
      if (bytes > max) throw new KeyTooLongError(ns, this.name, bytes, max);
    }
  }

  /**
   * The entry of `keys` that collides with another record in a unique index, if any. In a `prepareUnique`
   * index, the entry new to the document (not among `old`, its keys before an update) that another record
   * already has: existing duplicates stay, new ones are refused.
   */
  conflict(keys: DocKeys, self: Rid | undefined, old?: DocKeys): KeyEntry | undefined {
    if (this.unique) {
      for (const e of keys.entries) {
        const r = this.get(e.key);
        if (r !== undefined && r !== self) return e;
      }
      return undefined;
    }
    if (!this.spec.prepareUnique) return undefined;
    const had = old && new Set(old.entries.map((e) => e.key));
    for (const e of keys.entries) {
      if (had?.has(e.key)) continue;
      for (const r of this.lookup(e.key, 2)) if (r !== self) return e;
    }
    return undefined;
  }

  /** The record ids sharing a key, one group per key held by several (a non-unique index turned unique must
   *  have none), in key order. */
  *duplicates(): Generator<Rid[]> {
    if (this.unique) return;
    let comps: string | undefined;
    let group: Rid[] = [];
    for (const k of keyRange(this.env.keys, this.idPrefix, prefixEnd(this.idPrefix))) {
      const key = k.toString('utf8', 4);
      const rid = ridOf(key, this.fields.length);
      const c = key.slice(0, key.length - rid.length);
      if (c === comps) {
        group.push(rid);
        continue;
      }
      if (group.length > 1) yield group;
      comps = c;
      group = [rid];
    }
    if (group.length > 1) yield group;
  }

  /**
   * Turns a non-unique index with no duplicate keys (see duplicates) unique under `spec`: each entry moves from
   * components | record id to the unique layout, components -> record id. The entries, and so every count kept
   * of them, stay the same.
   */
  makeUnique(spec: IndexSpec): void {
    if (this.unique || spec.unique !== true)
      throw new Error(`index ${this.name} is unique already, or the new spec is not`);
    const n = this.fields.length;
    // Forward: each entry's new key is a prefix of its old one, so it sorts before the keys still to be read.
    for (const k of keyRange(this.env.keys, this.idPrefix, prefixEnd(this.idPrefix))) {
      const key = k.toString('utf8', 4);
      const rid = ridOf(key, n);
      this.env.keys.removeSync(k);
      this.env.keys.putSync(this.prefixBuffer(key.slice(0, key.length - rid.length)), Buffer.from(rid, 'utf8'));
    }
    this.meta.spec = spec;
  }

  /** The stored key of an entry: with the record id appended, except in a unique index (it is the value). */
  private keyBuffer(key: string, rid: Rid): Buffer {
    return this.unique ? this.prefixBuffer(key) : this.prefixBuffer(key + rid);
  }

  private prefixBuffer(key: string): Buffer {
    const len = Buffer.byteLength(key);
    const b = Buffer.allocUnsafe(4 + len);
    this.idPrefix.copy(b, 0);
    b.write(key, 4, 'utf8');
    return b;
  }

  private put(key: string, rid: Rid): void {
    this.env.keys.putSync(this.keyBuffer(key, rid), this.unique ? Buffer.from(rid, 'utf8') : NONE);
  }

  /** Whether counts are kept of the entries: not for a text index, whose entries no count is asked of (query/
   *  count.ts counts equalities on ordinary fields), and a document gives hundreds. */
  private get counting(): boolean {
    return this.text === undefined;
  }

  add(rid: Rid, keys: DocKeys): void {
    if (!this.clustered) for (const e of keys.entries) this.put(e.key, rid);
    if (this.counting) for (const e of keys.entries) this.counted.record(e.key, 1);
    this.track(keys, 1);
  }

  remove(rid: Rid, keys: DocKeys): void {
    if (!this.clustered) for (const e of keys.entries) this.env.keys.removeSync(this.keyBuffer(e.key, rid));
    if (this.counting) for (const e of keys.entries) this.counted.record(e.key, -1);
    this.track(keys, -1);
  }

  /** Moves a document from `old` to `next` keys, touching only the entries that differ. */
  change(rid: Rid, old: DocKeys, next: DocKeys): void {
    // A clustered `_id_` index has no entries of its own, and an update keeps the `_id`: nothing to move or count.
    if (this.clustered) return this.retrack(old, next);
    const before = new Set(old.entries.map((e) => e.key));
    const after = new Set(next.entries.map((e) => e.key));
    for (const k of before) {
      if (after.has(k)) continue;
      if (!this.clustered) this.env.keys.removeSync(this.keyBuffer(k, rid));
      if (this.counting) this.counted.record(k, -1);
    }
    for (const k of after) {
      if (before.has(k)) continue;
      if (!this.clustered) this.put(k, rid);
      if (this.counting) this.counted.record(k, 1);
    }
    this.retrack(old, next);
  }

  private retrack(old: DocKeys, next: DocKeys): void {
    this.track(old, -1);
    this.track(next, 1);
  }

  private track(keys: DocKeys, delta: 1 | -1): void {
    for (let i = 0; i < this.fields.length; i++) {
      if (keys.multi[i]) this.meta.multi[i]! += delta;
      if (keys.unordered[i]) this.meta.unordered[i]! += delta;
    }
  }

  /** Deletes every entry (dropping the index or its collection; a clustered `_id_` index's are the documents). */
  clear(): void {
    this.counted.clear();
    if (this.clustered) return;
    const end = prefixEnd(this.idPrefix);
    for (const k of keyRange(this.env.keys, this.idPrefix, end)) this.env.keys.removeSync(k);
  }

  private bounds(prefix: string): [Buffer, Buffer] {
    const start = Buffer.concat([this.idPrefix, Buffer.from(prefix, 'utf8')]);
    // A prefix longer than any stored key (a query value of kilobytes) starts no entry: an empty range.
    if (start.length > LMDB_MAX_KEY) return [this.idPrefix, this.idPrefix];
    return [start, prefixEnd(start)];
  }

  /** The kept counts, as committed; undefined while a change of the index waits for its commit. */
  keptCounts(): Array<[string, number]> | undefined {
    return this.counted.committed();
  }

  /** Takes counts kept by an earlier run over the same entries (Catalog.saveKeptCounts says when they are). */
  restoreCounts(entries: ReadonlyArray<readonly [string, number]>): void {
    this.counted.restore(entries);
  }

  /** Made afresh for the same index after the write transaction `aborted` was discarded: keeps `was`'s counts
   *  (walks under way included) and the changes still waiting for their commit, but not the discarded
   *  transaction's. */
  adopt(was: Index, aborted: number): void {
    this.counted.adopt(was.counted, aborted);
  }

  /** The committed count under `prefix`, when it is kept (undefined inside a write transaction). */
  kept(prefix: string): number | undefined {
    return this.counted.kept(prefix);
  }

  /** Number of entries under a key prefix (whole components); a document counts once per distinct entry. */
  count(prefix: string): number {
    return this.counted.count(prefix);
  }

  /** The count under `prefix` when it is kept or has at most `small` entries, else undefined. */
  countIfSmall(prefix: string, small: number): number | undefined {
    return this.counted.countIfSmall(prefix, small);
  }

  /** Walks the entries under `prefix` in chunks that let other work run, and keeps their count. */
  walkCount(prefix: string): Promise<void> {
    return this.counted.walkCount(prefix);
  }

  /** Like count, but stops counting past `cap` (the planner's estimate: it only needs to tell small sets
   *  apart, and a count of a million keys costs tens of milliseconds). */
  countUpTo(prefix: string, cap: number): number {
    const [start, end] = this.bounds(prefix);
    let n = 0;
    for (const _ of this.table.getKeys({ start, end, limit: cap + 1 })) n++;
    return n;
  }

  /** The record id of a whole key (every field's component) in a unique index: one LMDB get. */
  get(key: string): Rid | undefined {
    if (!this.unique) throw new Error(`index ${this.name} is not unique`);
    const k = this.prefixBuffer(key);
    if (k.length > LMDB_MAX_KEY) return undefined;
    if (this.clustered) return this.env.docs.doesExist(k) ? key : undefined;
    const v = this.env.keys.getBinaryFast(k);
    return v ? v.toString('utf8', 0, v.length) : undefined;
  }

  /** Whether every field is part of a lookup of `fields` leading fields: a unique index then holds one
   *  entry at most per key, found with `get`. */
  whole(fields: number): boolean {
    return this.unique && fields === this.fields.length;
  }

  /**
   * Record ids of the entries under a key prefix (whole components), in key order. `unchecked`: a whole key
   * of the clustered `_id_` index is its record id, yielded without reading whether the document exists
   * (the caller reads the document anyway and skips a missing one).
   */
  *lookup(prefix: string, limit = Infinity, unchecked = false): Generator<Rid> {
    if (limit <= 0) return;
    if (this.whole(countComponents(prefix))) {
      const r = unchecked && this.clustered ? prefix : this.get(prefix);
      if (r !== undefined) yield r;
      return;
    }
    const [start, end] = this.bounds(prefix);
    let n = 0;
    if (this.clustered) {
      for (const k of keyRange(this.env.docs, start, end)) {
        if (n++ >= limit) return;
        yield k.toString('utf8', 4);
      }
      return;
    }
    if (this.unique) {
      for (const [, v] of keyValueRange(this.env.keys, start, end, false)) {
        if (n++ >= limit) return;
        yield v.toString('utf8');
      }
      return;
    }
    for (const k of keyRange(this.env.keys, start, end)) {
      if (n++ >= limit) return;
      yield ridOf(k.toString('utf8', 4), this.fields.length);
    }
  }

  /** Key strings (components, then the record id) k with lo <= k < hi, ascending or descending. */
  *range(lo: string, hi: string, backward: boolean): Generator<string> {
    if (lo >= hi) return;
    const start = Buffer.concat([this.idPrefix, Buffer.from(lo, 'utf8')]);
    const end = Buffer.concat([this.idPrefix, Buffer.from(hi, 'utf8')]);
    if (this.clustered) {
      for (const k of keyRange(this.env.docs, start, end, backward)) {
        const rid = k.toString('utf8', 4);
        yield rid + rid;
      }
      return;
    }
    if (this.unique) {
      for (const [k, v] of keyValueRange(this.env.keys, start, end, backward))
        yield k.toString('utf8', 4) + v.toString('utf8');
      return;
    }
    for (const k of keyRange(this.env.keys, start, end, backward)) yield k.toString('utf8', 4);
  }

  /** Number of entries k with lo <= k < hi. */
  rangeCount(lo: string, hi: string): number {
    if (lo >= hi) return 0;
    const start = Buffer.concat([this.idPrefix, Buffer.from(lo, 'utf8')]);
    const end = Buffer.concat([this.idPrefix, Buffer.from(hi, 'utf8')]);
    return this.table.getKeysCount({ start, end });
  }

  /** TTL: record ids whose earliest date in the field plus expireAfterSeconds is at or before `now`
   *  (any date entry at or before the cutoff; non-dates never expire). */
  *expired(now: number): Generator<Rid> {
    const cutoff = orderComponent(new Date(now - (this.spec.expireAfterSeconds ?? 0) * 1000));
    if (cutoff === undefined) return;
    const [lo] = typeRange(cutoff);
    for (const k of this.range(lo, cutoff + '\x01', false)) yield ridOf(k, this.fields.length);
  }

  /**
   * Whether the first `n` fields hold only values with an order component and the fields at `single`
   * hold one value per document, i.e. whether key order is the sort order there.
   */
  usable(n: number, single: number[]): boolean {
    return this.meta.unordered.slice(0, n).every((c) => c === 0) && single.every((i) => this.meta.multi[i] === 0);
  }

  /** Whether no document holds several values in any field from `from` on (each document has one entry
   *  under a prefix fixing the fields before `from`, so counting entries counts documents). */
  singleFrom(from: number): boolean {
    return this.meta.multi.slice(from).every((c) => c === 0);
  }
}
