// A collection: documents as their raw BSON bytes in LMDB's `docs` database under (collection id, record id).
// In a clustered collection (every collection but capped ones) the record id is the `_id`'s order-preserving
// component (order.ts) and '\0': documents are in `_id` order (BSON order, like MongoDB's clustered
// collections), a find by `_id` is one get, and the `_id_` index needs no entries of its own. A capped
// collection keeps insertion order, which it needs to drop its oldest documents: its record id is a slot
// (12 hex digits) that grows and is never reused, and its `_id_` index maps `_id` to it. Every mutation is
// all-or-nothing per document: key sizes and unique constraints are checked on all indexes before any index
// entry or the document is written. Changes are reported to the oplog (oplog.ts). All mutations run inside a
// write transaction (StorageEnv.write).
import { Binary } from 'bson';
import { isDeepStrictEqual } from 'node:util';
import type { Document } from 'bson';
import { decode, leadingId } from './bsonio.js';
import { DuplicateKeyError } from '../errors.js';
import { copyOut } from './copy-out.js';
import { assertWriting, readStats, type StorageEnv } from './env.js';
import { prefixEnd, u32 } from './key-ranges.js';
import type { Oplog } from './oplog.js';
import { Index } from './indexes.js';
import { IndexBuilds } from './index-build.js';
import { LMDB_MAX_KEY, prefixKey, type DocKeys, type IndexMeta, type IndexSpec, type Rid } from './index-keys.js';
import { slotSuffix } from './order.js';
import { reclaimLater } from './reclaim.js';
import type { NameSet } from './rawdoc.js';
import type { Database } from 'lmdb';

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** What the catalog persists about a collection. */
export interface CollMeta {
  id: number;
  db: string;
  name: string;
  options: Document;
  uuid: Binary;
  /** Documents keyed by `_id` (every collection created since format 3 but capped ones). */
  clustered: boolean;
  /** The next slot (record ids of a collection that is not clustered). */
  nextSlot: number;
  count: number;
  /** Total BSON bytes of the documents. */
  bytes: number;
  indexes: IndexMeta[];
}

const SCAN_CHUNK = 256;
const ZERO = Buffer.from([0]);

/** The key of a document in `docs`: collection id (u32 BE), then its record id (UTF-8). */
function docKey(coll: number, rid: Rid): Buffer {
  const b = Buffer.allocUnsafe(4 + Buffer.byteLength(rid));
  b.writeUInt32BE(coll, 0);
  b.write(rid, 4, 'utf8');
  return b;
}

/** docKey into one scratch buffer, for reads only (lmdb copies a key it reads with; a later call overwrites it).
 *  Record ids are at most 1,024 bytes (MAX_ID_BYTES) for `_id`s, 12 for slots; longer ones get a buffer of their own. */
const readKey = Buffer.alloc(4 + 4096);
function docReadKey(coll: number, rid: Rid): Buffer | undefined {
  // A key longer than any stored one (a query value of kilobytes) names no document: undefined, not an lmdb error.
  if (rid.length * 3 > readKey.length - 4) {
    const key = docKey(coll, rid);
    return key.length > LMDB_MAX_KEY ? undefined : key;
  }
  readKey.writeUInt32BE(coll, 0);
  const n = readKey.write(rid, 4, 'utf8');
  return 4 + n > LMDB_MAX_KEY ? undefined : readKey.subarray(0, 4 + n);
}

/** A document's stored bytes as a view into lmdb's reused read buffer (valid until the next read on the thread). */
export function peekDoc(docs: Database<Buffer, Buffer>, coll: number, rid: Rid): Buffer | undefined {
  const key = docReadKey(coll, rid);
  const bytes = key && docs.getBinaryFast(key);
  // lmdb's buffer reports the value's size as `length` over a larger array: a view of exactly the value.
  return bytes?.subarray(0, bytes.length);
}

/**
 * What a collection needs of the catalog that holds it (catalog.ts, which creates and loads collections): the
 * storage, the oplog its changes go to, fresh ids for its indexes, and a note that it changed in this write.
 */
export interface CollectionOwner {
  readonly env: StorageEnv;
  readonly oplog: Oplog;
  newId(): number;
  touched(c: Collection): void;
}

export class Collection {
  readonly indexes = new Map<string, Index>();
  /** Changes made to its documents or indexes since it was loaded (a write that is then aborted counts too):
   *  what a read kept from the collection stays true while this holds the same number. */
  changes = 0;
  /** Indexes being built over the documents (index-build.ts): kept by writes, used by no read. */
  readonly builds: IndexBuilds;

  constructor(
    private readonly catalog: CollectionOwner,
    readonly meta: CollMeta,
  ) {
    this.builds = new IndexBuilds({
      env: this.env,
      ns: this.ns,
      get size() {
        return meta.count;
      },
      get indexMetas() {
        return meta.indexes;
      },
      newIndexId: () => catalog.newId(),
      touched: () => this.changed(),
      docsAfter: (after, limit) => this.docsAfter(after, limit),
      attach: (idx) => this.attachBuilt(idx),
    });
    for (const im of meta.indexes) {
      const idx = new Index(this.env, im, meta.clustered && im.spec.name === '_id_' ? meta.id : undefined);
      if (im.build) this.builds.load(idx);
      else this.indexes.set(im.spec.name, idx);
    }
  }

  /**
   * Whether a read now sees every write begun on the storage: none running, none waiting for its commit. What a
   * read keeps is only true of the collection while `changes` holds if it was read then (a read between a write
   * and its commit sees the state before the write, after `changes` counted it).
   */
  get readsAll(): boolean {
    return !this.env.inWrite && this.env.isCommitted(this.env.lastTicket);
  }

  /** A write changed it in this transaction: its metadata is written back before commit. */
  private changed(): void {
    this.changes++;
    this.catalog.touched(this);
  }

  private get env(): StorageEnv {
    return this.catalog.env;
  }

  get id(): number {
    return this.meta.id;
  }

  get dbName(): string {
    return this.meta.db;
  }

  get name(): string {
    return this.meta.name;
  }

  get options(): Document {
    return this.meta.options;
  }

  get uuid(): Binary {
    return this.meta.uuid;
  }

  get ns(): string {
    return `${this.dbName}.${this.name}`;
  }

  /** Number of documents. */
  get size(): number {
    return this.meta.count;
  }

  /** Total BSON bytes of the documents. */
  get dataSize(): number {
    return this.meta.bytes;
  }

  /** Whether `_id` is all an index reads of a document (no other index, none being built). */
  get onlyIdIndex(): boolean {
    return this.indexes.size === 1 && !this.builds.active;
  }

  get idIndex(): Index {
    return this.indexes.get('_id_')!;
  }

  /** The stored bytes of a document (a copy the caller may keep; not to be written to). */
  get(rid: Rid): Buffer | undefined {
    readStats.documents++;
    const key = docReadKey(this.id, rid);
    const bytes = key && this.env.docs.getBinaryFast(key);
    return bytes ? copyOut(bytes) : undefined;
  }

  /**
   * The stored bytes of the document whose `_id` is `id` (in a clustered collection one get, in a capped one a
   * get in the `_id_` index first), as a view into lmdb's reused read buffer: valid only until the next
   * storage read, so the caller copies it (into a reply) before anything else reads. `id` must be a value
   * whose key equality is MongoDB equality (indexes.ts exactKey).
   */
  peekById(id: unknown): Buffer | undefined {
    const rid = this.meta.clustered ? prefixKey([id]) : this.ridById(id);
    return rid === undefined ? undefined : this.peek(rid);
  }

  /** Whether a document is stored under `rid` (its bytes are not read). */
  has(rid: Rid): boolean {
    const key = docReadKey(this.id, rid);
    return !!key && this.env.docs.doesExist(key);
  }

  /** The stored bytes of a document as a view into lmdb's reused read buffer (valid until the next storage
   *  read; see peekById). */
  peek(rid: Rid): Buffer | undefined {
    readStats.documents++;
    return peekDoc(this.env.docs, this.id, rid);
  }

  /** Documents in natural order (`_id` order, or insertion order in a capped collection), lazily, read in
   *  chunks (a consumer may pause between chunks while writes happen). */
  *scan(): Generator<[Rid, Buffer]> {
    let after: Rid | null = null;
    for (;;) {
      const chunk = this.docsAfter(after, SCAN_CHUNK);
      yield* chunk;
      if (chunk.length < SCAN_CHUNK) return;
      after = chunk[chunk.length - 1]![0];
    }
  }

  /** Up to `limit` documents after the record id `after` (from the first when null), in natural order: read
   *  at once, so no LMDB cursor stays open while the caller runs (it may write). */
  docsAfter(after: Rid | null, limit: number): Array<[Rid, Buffer]> {
    const from = after === null ? u32(this.id) : Buffer.concat([docKey(this.id, after), ZERO]);
    const out: Array<[Rid, Buffer]> = [];
    for (const { key, value } of this.env.docs.getRange({ start: from, end: prefixEnd(u32(this.id)), limit }))
      out.push([(key as Buffer).toString('utf8', 4), value as Buffer]);
    readStats.documents += out.length;
    return out;
  }

  /** The indexes a write to `rid` keeps: the collection's, and those being built that have passed it. */
  private *kept(rid: Rid): Generator<Index> {
    yield* this.indexes.values();
    yield* this.builds.covering(rid);
  }

  /** The record id of the document whose `_id` is `id`, if there is one. */
  ridById(id: unknown): Rid | undefined {
    return this.idIndex.get(prefixKey([id]));
  }

  /** The record id a new document gets. */
  private newRid(doc: Document): Rid {
    return this.meta.clustered ? prefixKey([doc._id]) : slotSuffix(this.meta.nextSlot++);
  }

  /** Every index's keys for `doc` (to be stored as `rid`), checked for size and, unless `trusted`, unique
   *  constraints (`stored`: the document as it is stored as `rid`, for an update). */
  private check(
    doc: Document,
    rid: Rid,
    stored: Document | undefined,
    trusted = false,
    indexes: Iterable<Index> = this.kept(rid),
  ): Map<Index, DocKeys> {
    const all = new Map<Index, DocKeys>();
    for (const idx of indexes) {
      const keys = idx.keys(doc);
      idx.checkSize(keys, this.ns, rid);
      const old = stored && idx.spec.prepareUnique ? idx.keys(stored) : undefined;
      const clash = trusted ? undefined : idx.conflict(keys, stored ? rid : undefined, old);
      if (clash) throw duplicate(this.ns, idx, clash.values);
      all.set(idx, keys);
    }
    return all;
  }

  /**
   * Inserts a document (bytes must already have _id first; they are copied, so they may be a view into a
   * network buffer). Throws DuplicateKeyError or KeyTooLongError, changing nothing.
   */
  insert(bytes: Uint8Array, doc: Document, trusted = false): Rid {
    assertWriting(this.env);
    const rid = this.newRid(doc);
    const keys = this.check(doc, rid, undefined, trusted);
    for (const [idx, k] of keys) idx.add(rid, k);
    this.env.docs.putSync(docKey(this.id, rid), bytes as Buffer);
    this.meta.count++;
    this.meta.bytes += bytes.length;
    this.changed();
    this.catalog.oplog.record({ op: 'i', ns: this.ns, documentKey: { _id: doc._id }, doc: bytes });
    return rid;
  }

  /**
   * Replaces the document `rid` (same _id). Throws DuplicateKeyError or KeyTooLongError, changing nothing.
   * `replacement`: the update was a whole replacement document (the oplog record says so; change streams
   * report it as `replace`).
   */
  update(
    rid: Rid,
    oldDoc: Document,
    bytes: Uint8Array,
    doc: Document,
    opts: { trusted?: boolean; replacement?: boolean } = {},
  ): void {
    assertWriting(this.env);
    // An index none of whose fields the update changed keeps its keys: they are not computed again (a text
    // index's are the terms of its fields, stemmed, so a status change would otherwise analyse every text).
    const touched = [...this.kept(rid)].filter((idx) => !sameFields(idx.readFields, oldDoc, doc));
    const next = this.check(doc, rid, oldDoc, opts.trusted, touched);
    for (const [idx, k] of next) idx.change(rid, idx.keys(oldDoc), k);
    const key = docKey(this.id, rid);
    // A copy: the oplog record keeps it as the pre-image until the transaction commits.
    const before = this.env.docs.getBinary(key);
    this.env.docs.putSync(key, bytes as Buffer);
    this.meta.bytes += bytes.length - (before?.length ?? 0);
    this.changed();
    this.catalog.oplog.record({
      op: 'u',
      ns: this.ns,
      documentKey: { _id: doc._id },
      doc: bytes,
      before,
      replace: opts.replacement === true || undefined,
    });
  }

  remove(rid: Rid, oldDoc?: Document): void {
    assertWriting(this.env);
    const key = docKey(this.id, rid);
    const bytes = this.env.docs.getBinary(key);
    if (!bytes) return;
    const doc = oldDoc ?? this.indexedFields(bytes);
    for (const idx of this.kept(rid)) idx.remove(rid, idx.keys(doc));
    this.env.docs.removeSync(key);
    this.meta.count--;
    this.meta.bytes -= bytes.length;
    this.changed();
    this.catalog.oplog.record({ op: 'd', ns: this.ns, documentKey: { _id: doc._id }, before: bytes });
  }

  /** Migration path: upsert by _id without unique checks (the old log only holds writes that succeeded). */
  putTrusted(bytes: Uint8Array): void {
    const doc = this.indexedFields(bytes);
    const rid = this.ridById(doc._id);
    if (rid === undefined) this.insert(bytes, doc, true);
    else this.update(rid, this.indexedFields(this.get(rid)!), bytes, doc, { trusted: true });
  }

  /** Enough of a stored document to compute its index keys (just _id when that is the only index). */
  private indexedFields(bytes: Uint8Array): Document {
    return (this.onlyIdIndex && leadingId(bytes)) || decode(bytes);
  }

  /** Builds a new index over existing documents; a unique violation or an oversized key aborts without attaching it. */
  addIndex(spec: IndexSpec, trusted = false): void {
    assertWriting(this.env);
    const meta: IndexMeta = {
      id: this.catalog.newId(),
      spec,
      multi: Object.keys(spec.key).map(() => 0),
      unordered: Object.keys(spec.key).map(() => 0),
    };
    const idx = new Index(this.env, meta);
    try {
      for (const [rid, bytes] of this.scan()) {
        const keys = idx.keys(decode(bytes));
        idx.checkSize(keys, this.ns, rid);
        // A prepareUnique index is built with the duplicates there are; only new ones are refused.
        const clash = trusted || !idx.unique ? undefined : idx.conflict(keys, rid);
        if (clash) throw duplicate(this.ns, idx, clash.values);
        idx.add(rid, keys);
      }
    } catch (e) {
      idx.clear();
      throw e;
    }
    this.meta.indexes.push(meta);
    this.attachBuilt(idx);
  }

  /** A built index joins the collection's indexes (its meta is among the collection's already). */
  private attachBuilt(idx: Index): void {
    this.indexes.set(idx.name, idx);
    this.changed();
    this.catalog.oplog.record({ op: 'c', ns: `${this.dbName}.$cmd`, o: { createIndexes: this.name, spec: idx.spec } });
  }

  /** The `_id`s of the documents sharing a key of a non-unique index, one list per key held by several. */
  uniqueViolations(idx: Index): Array<{ ids: unknown[] }> {
    const out: Array<{ ids: unknown[] }> = [];
    for (const group of idx.duplicates()) {
      out.push({
        ids: group.map((rid) => {
          const bytes = this.get(rid);
          return bytes && (leadingId(bytes) || decode(bytes))._id;
        }),
      });
    }
    return out;
  }

  /** Turns a non-unique index unique (collMod `unique: true`), once uniqueViolations found none: `spec` is its
   *  new spec. */
  makeUnique(idx: Index, spec: IndexSpec): void {
    assertWriting(this.env);
    idx.makeUnique(spec);
    this.changed();
  }

  dropIndex(name: string): void {
    assertWriting(this.env);
    if (this.builds.get(name)) return this.builds.abort(name);
    const idx = this.indexes.get(name);
    if (!idx) return;
    idx.discard();
    this.indexes.delete(name);
    // In place: the builds (index-build.ts) add their indexes' metadata to this same array.
    const at = this.meta.indexes.findIndex((m) => m.spec.name === name);
    if (at >= 0) this.meta.indexes.splice(at, 1);
    this.changed();
    this.catalog.oplog.record({ op: 'c', ns: `${this.dbName}.$cmd`, o: { dropIndexes: this.name, index: name } });
  }

  /** The collection is being dropped: its documents and index entries are deleted in the background (reclaim.ts). */
  discard(): void {
    assertWriting(this.env);
    for (const idx of this.indexes.values()) idx.discard();
    this.builds.discard();
    const start = u32(this.id);
    reclaimLater(this.env, { db: 'docs', start, end: prefixEnd(start) });
  }
}

function duplicate(ns: string, idx: Index, values: unknown[]): DuplicateKeyError {
  const keyValue: Document = {};
  idx.fields.forEach((f, i) => (keyValue[f] = values[i] ?? null));
  return new DuplicateKeyError(ns, idx.name, { ...idx.spec.key }, keyValue);
}

/** Whether `a` and `b` hold equal values in every field of `names` (false when `names` is unknown: any field). */
function sameFields(names: NameSet | undefined, a: Document, b: Document): boolean {
  if (!names) return false;
  for (const name of names.list) if (!isDeepStrictEqual(a[name], b[name])) return false;
  return true;
}
