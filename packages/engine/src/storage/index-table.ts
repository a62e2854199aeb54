// Where an index's entries are in LMDB and how they are read and written: its `keys` under the index id as
// index id (u32) | one component per field, each followed by '\0' (order.ts) | the document's record id ->
// empty; in a unique index index id | components -> record id (a whole key is one `get`, not a cursor probe: a
// range scan costs ~5 µs in lmdb-js, a get ~1 µs); for the `_id_` index of a clustered collection the documents
// themselves in `docs` under the collection id (their keys are the `_id` components: no entries of its own). A
// text index's entries hold the term's score after the term (index-keys.ts textKeys). Every read (`range`,
// `lookup`) yields components then record id, whatever the kind, so walks see one format.
import type { Database } from 'lmdb';
import type { StorageEnv } from './env.js';
import { keyRange, keyValueRange, prefixEnd, u32 } from './key-ranges.js';
import { ridOf } from './order.js';
import { reclaimLater, reclaimWaits } from './reclaim.js';
import { countComponents, LMDB_MAX_KEY, type IndexMeta, type Rid } from './index-keys.js';

const NONE = Buffer.alloc(0);
/** lmdb's MDB_APPEND: the key goes after the last one, with no search (refused when it does not sort after it). */
const APPEND = { append: true };
/** What a write kept aside during a build does to its entry. */
const PUT = 1;
const DELETE = 0;
/** Writes kept aside read at a time when they are applied or deleted. */
const SIDE_CHUNK = 4096;

/** The `meta` key of the `seq`th write kept aside during the build of the index `id` (in the order made). */
function asideKey(id: number, seq: number): string {
  return `build-aside:${id}:${String(seq).padStart(16, '0')}`;
}
/** Keys read per cursor when a term's entries are read whole (a common term has tens of thousands). */
const TERM_CHUNK = 8192;

export class IndexTable {
  /** `keys` under the index id, or `docs` under the collection id for a clustered `_id_` index. */
  readonly table: Database<Buffer, Buffer>;
  readonly idPrefix: Buffer;
  /** The `_id_` index of a clustered collection: no entries of its own. */
  readonly clustered: boolean;
  private readonly fields: number;

  /** `clusteredIn`: the collection id, when this is the `_id_` index of a clustered collection. */
  constructor(
    private readonly env: StorageEnv,
    private readonly meta: IndexMeta,
    clusteredIn?: number,
  ) {
    this.fields = Object.keys(meta.spec.key).length;
    this.clustered = clusteredIn !== undefined;
    this.table = this.clustered ? env.docs : env.keys;
    this.idPrefix = u32(clusteredIn ?? meta.id);
  }

  /** _id_ is always unique, though listIndexes (like MongoDB) does not say so. */
  get unique(): boolean {
    return this.meta.spec.unique === true || this.meta.spec.name === '_id_';
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

  /** Stores an entry (a unique index's value is the record id); kept aside while the index is being built. */
  put(key: string, rid: Rid): void {
    if (this.meta.build) return this.keepAside(PUT, key, rid);
    this.env.keys.putSync(this.keyBuffer(key, rid), this.unique ? Buffer.from(rid, 'utf8') : NONE);
  }

  delete(key: string, rid: Rid): void {
    if (this.meta.build) return this.keepAside(DELETE, key, rid);
    this.env.keys.removeSync(this.keyBuffer(key, rid));
  }

  /** Deletes every entry (a clustered `_id_` index has none of its own), and the writes kept aside. */
  clear(): void {
    if (this.clustered) return;
    for (const k of keyRange(this.env.keys, this.idPrefix, prefixEnd(this.idPrefix))) this.env.keys.removeSync(k);
    while (this.applyAside(SIDE_CHUNK, false) === SIDE_CHUNK);
  }

  /** Stores a whole key given by the build's sorter: appended when it follows the last key of `keys` (the sorted
   *  load: each page written once, filled), else put where it belongs. */
  load(whole: Buffer): void {
    // lmdb's types say void; putSync answers whether the put was done (false: not after the last key).
    if (!(this.env.keys.putSync(whole, NONE, APPEND) as unknown as boolean)) this.env.keys.putSync(whole, NONE);
  }

  /** Gives the entries, and the writes kept aside before the `aside`th, back in the background (reclaim.ts): the
   *  index is dropped, or its build starts over (numbering the writes it keeps aside from `aside` on). */
  discard(aside = Number.MAX_SAFE_INTEGER): void {
    if (this.clustered) return;
    reclaimLater(this.env, { db: 'keys', start: this.idPrefix, end: prefixEnd(this.idPrefix) });
    reclaimLater(this.env, { db: 'meta', start: asideKey(this.meta.id, 0), end: asideKey(this.meta.id, aside) });
  }

  /** Whether entries of this index given back (discard) are still being deleted. */
  get reclaiming(): boolean {
    return reclaimWaits(this.env, 'keys', this.idPrefix);
  }

  /**
   * A write to a document the build has scanned, while the index is built: its entries are in the build's
   * sorter, not yet in the index, so the change is kept aside, numbered, and applied once they are (applyAside).
   */
  private keepAside(op: number, key: string, rid: Rid): void {
    const whole = this.keyBuffer(key, rid);
    const value = Buffer.allocUnsafe(1 + whole.length);
    value[0] = op;
    whole.copy(value, 1);
    this.env.meta.putSync(asideKey(this.meta.id, this.meta.build!.side++), value);
  }

  /** Applies (or, `apply` false, only deletes) the first `limit` writes kept aside, in the order they were made;
   *  returns how many there were. */
  applyAside(limit: number, apply = true): number {
    const start = asideKey(this.meta.id, 0);
    const end = asideKey(this.meta.id, Number.MAX_SAFE_INTEGER);
    const kept = [...this.env.meta.getRange({ start, end, limit })].map(({ key, value }) => ({
      key,
      value: Buffer.from(value as Buffer),
    }));
    for (const { key, value } of kept) {
      if (apply) {
        const whole = value.subarray(1);
        if (value[0] === PUT) this.env.keys.putSync(whole, NONE);
        else this.env.keys.removeSync(whole);
      }
      this.env.meta.removeSync(key);
    }
    return kept.length;
  }

  /** The key range of the entries under `prefix` (whole components). */
  bounds(prefix: string): [Buffer, Buffer] {
    const start = Buffer.concat([this.idPrefix, Buffer.from(prefix, 'utf8')]);
    // A prefix longer than any stored key (a query value of kilobytes) starts no entry: an empty range.
    if (start.length > LMDB_MAX_KEY) return [this.idPrefix, this.idPrefix];
    return [start, prefixEnd(start)];
  }

  /**
   * A text index's documents holding a term: (record id, the term's score there) for each entry under `prefix`
   * (the fields before the term, then the term's component: index-keys.ts termComponent) that `keep` keeps, given
   * the key and where its components after the score begin (the values of the fields after the text fields).
   */
  *termEntries(prefix: string, keep?: (key: Buffer, suffixAt: number) => boolean): Generator<[Rid, number]> {
    const [start, end] = this.bounds(prefix);
    const from = Buffer.byteLength(prefix) + 4;
    // Read whole (the caller scores every entry): in large chunks, each a cursor opened and closed.
    for (const k of keyRange(this.env.keys, start, end, false, TERM_CHUNK)) {
      const scoreEnd = k.indexOf(0, from);
      if (keep && !keep(k, scoreEnd + 1)) continue;
      yield [ridOf(k.toString('utf8', 4), this.fields), Number(k.toString('latin1', from, scoreEnd))];
    }
  }

  /** The record ids sharing a key, one group per key held by several (a non-unique index turned unique must
   *  have none), in key order. */
  *duplicates(): Generator<Rid[]> {
    if (this.unique) return;
    let comps: string | undefined;
    let group: Rid[] = [];
    for (const k of keyRange(this.env.keys, this.idPrefix, prefixEnd(this.idPrefix))) {
      const key = k.toString('utf8', 4);
      const rid = ridOf(key, this.fields);
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

  /** Moves every entry from components | record id to the unique layout, components -> record id (the
   *  index's spec turns unique next). */
  moveToUnique(): void {
    // Forward: each entry's new key is a prefix of its old one, so it sorts before the keys still to be read.
    for (const k of keyRange(this.env.keys, this.idPrefix, prefixEnd(this.idPrefix))) {
      const key = k.toString('utf8', 4);
      const rid = ridOf(key, this.fields);
      this.env.keys.removeSync(k);
      this.env.keys.putSync(this.prefixBuffer(key.slice(0, key.length - rid.length)), Buffer.from(rid, 'utf8'));
    }
  }

  /** Like a count of the entries under `prefix`, but stopping past `cap`. */
  countUpTo(prefix: string, cap: number): number {
    const [start, end] = this.bounds(prefix);
    let n = 0;
    for (const _ of this.table.getKeys({ start, end, limit: cap + 1 })) n++;
    return n;
  }

  /** The record id of a whole key (every field's component) in a unique index: one LMDB get. */
  get(key: string): Rid | undefined {
    const k = this.prefixBuffer(key);
    if (k.length > LMDB_MAX_KEY) return undefined;
    if (this.clustered) return this.env.docs.doesExist(k) ? key : undefined;
    const v = this.env.keys.getBinaryFast(k);
    return v ? v.toString('utf8', 0, v.length) : undefined;
  }

  /** Whether every field is part of a lookup of `fields` leading fields: a unique index then holds one
   *  entry at most per key, found with `get`. */
  whole(fields: number): boolean {
    return this.unique && fields === this.fields;
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
      yield ridOf(k.toString('utf8', 4), this.fields);
    }
  }

  /** Key strings (components, then the record id) k with lo <= k < hi, ascending or descending. */
  *range(lo: string, hi: string, backward: boolean): Generator<string> {
    if (lo >= hi) return;
    const [start, end] = this.rangeBounds(lo, hi);
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
    const [start, end] = this.rangeBounds(lo, hi);
    return this.table.getKeysCount({ start, end });
  }

  /** Like rangeCount, but stops counting past `cap`. */
  rangeCountUpTo(lo: string, hi: string, cap: number): number {
    if (lo >= hi) return 0;
    const [start, end] = this.rangeBounds(lo, hi);
    let n = 0;
    for (const _ of this.table.getKeys({ start, end, limit: cap + 1 })) n++;
    return n;
  }

  /**
   * lmdb's bounds of the keys from `lo` to `hi`. A bound longer than any key lmdb stores (a query value of
   * kilobytes) is cut to that length, `hi` rounded up: the range then holds every stored key of the one asked,
   * and perhaps a few more, which the reader's filter drops.
   */
  private rangeBounds(lo: string, hi: string): [Buffer, Buffer] {
    let start: Buffer = Buffer.concat([this.idPrefix, Buffer.from(lo, 'utf8')]);
    let end: Buffer = Buffer.concat([this.idPrefix, Buffer.from(hi, 'utf8')]);
    if (start.length > LMDB_MAX_KEY) start = start.subarray(0, LMDB_MAX_KEY);
    if (end.length > LMDB_MAX_KEY) end = prefixEnd(end.subarray(0, LMDB_MAX_KEY));
    return [start, end];
  }
}
