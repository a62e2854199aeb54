// One index of a collection: what it is (its spec, its kind), the keys a document gives it (index-keys.ts),
// their upkeep as documents are written (entries in LMDB, index-table.ts; counts per key prefix, kept-counts.ts)
// and the reads the planner and executors make of it. Equality on leading fields, ranges, ordered walks and
// counts are all key range scans; nothing per document lives in the heap. Per field the index keeps two
// counters (persisted with the catalog): documents holding several distinct values there (multikey: a sort then
// uses the min/max element, which no key order gives) and documents holding a value without an order component
// there; the planner walks a field only while they are zero.
import { Query } from 'mingo';
import type { Document } from 'bson';
import { collationOf, type Collation } from '../collation/index.js';
import type { StorageEnv } from './env.js';
import { orderComponent, ridOf, typeRange } from './order.js';
import { KeyTooLongError } from '../errors.js';
import {
  documentKeys,
  textSpecOf,
  MAX_ID_BYTES,
  MAX_KEY_BYTES,
  type DocKeys,
  type IndexMeta,
  type IndexSpec,
  type KeyEntry,
  type Rid,
} from './index-keys.js';
import { IndexTable } from './index-table.js';
import { KeptCounts } from './kept-counts.js';
import { NameSet } from './rawdoc.js';
import type { TextSpec } from '../text/analysis.js';

export class Index {
  readonly paths: string[][];
  readonly fields: string[];
  private readonly partial?: Query;
  /** With a collation, strings are indexed by their collation key: equal under the collation = equal keys. */
  private readonly collation?: Collation;
  /** The entries in LMDB. */
  private readonly entries: IndexTable;
  /** Entry counts per key prefix, kept exact by the writes (kept-counts.ts). */
  private readonly counted: KeptCounts;

  /** `clusteredIn`: the collection id, when this is the `_id_` index of a clustered collection. */
  constructor(
    env: StorageEnv,
    readonly meta: IndexMeta,
    clusteredIn?: number,
  ) {
    this.fields = Object.keys(meta.spec.key);
    this.paths = this.fields.map((f) => f.split('.'));
    this.entries = new IndexTable(env, meta, clusteredIn);
    if (meta.spec.partialFilterExpression) this.partial = new Query(meta.spec.partialFilterExpression, {});
    this.collation = collationOf(meta.spec.collation);
    this.counted = new KeptCounts(env, this.entries.table, this.fields.length, (prefix) => this.entries.bounds(prefix));
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

  /** The `_id_` index of a clustered collection: no entries of its own. */
  get clustered(): boolean {
    return this.entries.clustered;
  }

  /** _id_ is always unique, though listIndexes (like MongoDB) does not say so. */
  get unique(): boolean {
    return this.entries.unique;
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
   * The top-level fields a document's keys are read from, so that a build decodes only those of each stored
   * document (an article's text index reads its title and summary, not its body); undefined when any field may
   * count: a wildcard, or a partial filter.
   */
  get readFields(): NameSet | undefined {
    if (this.readNames === undefined) this.readNames = this.fieldsRead() ?? null;
    return this.readNames ?? undefined;
  }

  private readNames?: NameSet | null;

  private fieldsRead(): NameSet | undefined {
    if (this.partial) return undefined;
    const text = this.text;
    const names: string[] = [];
    for (const field of this.fields) {
      if (field.includes('$**')) return undefined;
      if (text && (field === '_fts' || field === '_ftsx')) continue;
      names.push(field.split('.')[0]!);
    }
    if (text) {
      if ('$**' in text.weights) return undefined;
      names.push(...Object.keys(text.weights).map((path) => path.split('.')[0]!), text.languageOverride);
    }
    return new NameSet(names);
  }

  /** A text index's documents holding a term, with the term's score there (index-table.ts termEntries). */
  termEntries(prefix: string, keep?: (key: Buffer, suffixAt: number) => boolean): Generator<[Rid, number]> {
    return this.entries.termEntries(prefix, keep);
  }

  /** Keys a document contributes; none when sparse/partial rules exclude it. */
  keys(doc: Document): DocKeys {
    return documentKeys(doc, this.spec, this.paths, this.partial, this.collation, this.text);
  }

  /** Throws KeyTooLongError when an entry cannot be stored (`rid`: the record id a non-unique entry ends with). */
  checkSize(keys: DocKeys, ns: string, rid: Rid): void {
    const max = this.clustered ? MAX_ID_BYTES : this.unique ? MAX_KEY_BYTES : MAX_KEY_BYTES - Buffer.byteLength(rid);
    for (const e of keys.entries) {
      // Most keys are ASCII and short: their length in UTF-8 is at most 3 per UTF-16 unit.
      if (e.key.length * 3 <= max) continue;
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

  /** The record ids sharing a key, one group per key held by several, in key order. */
  duplicates(): Generator<Rid[]> {
    return this.entries.duplicates();
  }

  /**
   * Turns a non-unique index with no duplicate keys (see duplicates) unique under `spec`: each entry moves from
   * components | record id to the unique layout, components -> record id. The entries, and so every count kept
   * of them, stay the same.
   */
  makeUnique(spec: IndexSpec): void {
    if (this.unique || spec.unique !== true)
      throw new Error(`index ${this.name} is unique already, or the new spec is not`);
    this.entries.moveToUnique();
    this.meta.spec = spec;
  }

  /** Whether counts are kept of the entries: not for a text index, whose entries no count is asked of (query/
   *  count.ts counts equalities on ordinary fields), and a document gives hundreds. */
  private get counting(): boolean {
    return this.text === undefined;
  }

  /** Counts a document's keys in the per-field counters, its entries going to a build's sorter (index-build.ts). */
  tally(keys: DocKeys): void {
    this.track(keys, 1);
  }

  /** What every stored key of the index begins with (its id). */
  get keyPrefix(): Buffer {
    return this.entries.idPrefix;
  }

  /** Stores a whole key from a build's sorter, in key order (index-table.ts load). */
  load(whole: Buffer): void {
    this.entries.load(whole);
  }

  /** Applies the first `limit` writes kept aside during the build; returns how many there were. */
  applyAside(limit: number): number {
    return this.entries.applyAside(limit);
  }

  add(rid: Rid, keys: DocKeys): void {
    if (!this.clustered) for (const e of keys.entries) this.entries.put(e.key, rid);
    if (this.counting) for (const e of keys.entries) this.counted.record(e.key, 1);
    this.track(keys, 1);
  }

  remove(rid: Rid, keys: DocKeys): void {
    if (!this.clustered) for (const e of keys.entries) this.entries.delete(e.key, rid);
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
      this.entries.delete(k, rid);
      if (this.counting) this.counted.record(k, -1);
    }
    for (const k of after) {
      if (before.has(k)) continue;
      this.entries.put(k, rid);
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

  /** The index is dropped, or its build starts over (writes kept aside numbered from `aside` on): its entries are
   *  deleted in the background (reclaim.ts), its counts forgotten now. */
  discard(aside?: number): void {
    this.counted.clear();
    this.entries.discard(aside);
  }

  /** Whether entries it gave back (discard) are still being deleted: a build starting over waits for them. */
  get reclaiming(): boolean {
    return this.entries.reclaiming;
  }

  /** Deletes every entry, now (a build starting over; a clustered `_id_` index's are the documents). */
  clear(): void {
    this.counted.clear();
    this.entries.clear();
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
    return this.entries.countUpTo(prefix, cap);
  }

  /** The record id of a whole key (every field's component) in a unique index: one LMDB get. */
  get(key: string): Rid | undefined {
    if (!this.unique) throw new Error(`index ${this.name} is not unique`);
    return this.entries.get(key);
  }

  /** Whether a lookup of `fields` leading fields finds one entry at most, with a `get`. */
  whole(fields: number): boolean {
    return this.entries.whole(fields);
  }

  /** Record ids of the entries under a key prefix (whole components), in key order (index-table.ts lookup). */
  lookup(prefix: string, limit = Infinity, unchecked = false): Generator<Rid> {
    return this.entries.lookup(prefix, limit, unchecked);
  }

  /** Key strings (components, then the record id) k with lo <= k < hi, ascending or descending. */
  range(lo: string, hi: string, backward: boolean): Generator<string> {
    return this.entries.range(lo, hi, backward);
  }

  /** Number of entries k with lo <= k < hi. */
  rangeCount(lo: string, hi: string): number {
    return this.entries.rangeCount(lo, hi);
  }

  /** Like rangeCount, but stops counting past `cap` (the planner's estimate, as countUpTo). */
  rangeCountUpTo(lo: string, hi: string, cap: number): number {
    return this.entries.rangeCountUpTo(lo, hi, cap);
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
