// A collection: documents as their raw BSON bytes in LMDB's `docs` database under (collection id, slot).
// Slots grow and are never reused, so slot order is insertion (natural) order and an update keeps its place,
// like MongoDB's record ids. Every mutation is all-or-nothing per document: key sizes and unique constraints
// are checked on all indexes before any index entry or the document is written. Changes are reported to
// the oplog (oplog.ts). All mutations run inside a write transaction (StorageEnv.write).
import { Binary } from 'bson';
import type { Document } from 'bson';
import { decode, leadingId } from './bsonio.js';
import type { Catalog } from './catalog.js';
import { DuplicateKeyError } from './dupkey.js';
import { assertWriting, copyOut, docKey, docReadKey, keyRange, readStats, slotOfDocKey, type StorageEnv } from './env.js';
import { Index, prefixKey, type DocKeys, type IndexMeta, type IndexSpec } from './indexes.js';

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

/** What the catalog persists about a collection. */
export interface CollMeta {
  id: number;
  db: string;
  name: string;
  options: Document;
  uuid: Binary;
  nextSlot: number;
  count: number;
  /** Total BSON bytes of the documents. */
  bytes: number;
  indexes: IndexMeta[];
}

const SCAN_CHUNK = 256;

export class Collection {
  readonly indexes = new Map<string, Index>();

  constructor(
    private readonly catalog: Catalog,
    readonly meta: CollMeta,
  ) {
    for (const im of meta.indexes) this.indexes.set(im.spec.name, new Index(this.env, im));
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

  get idIndex(): Index {
    return this.indexes.get('_id_')!;
  }

  /** The stored bytes of a document (a copy the caller may keep; not to be written to). */
  get(slot: number): Buffer | undefined {
    readStats.documents++;
    const bytes = this.env.docs.getBinaryFast(docReadKey(this.id, slot));
    return bytes ? copyOut(bytes) : undefined;
  }

  /**
   * The stored bytes of the document whose `_id` is `id` (one get in the unique `_id_` index, one in `docs`),
   * as a view into lmdb's reused read buffer: valid only until the next storage read, so the caller copies it
   * (into a reply) before anything else reads. `id` must be a value whose key equality is MongoDB equality
   * (indexes.ts exactKey).
   */
  peekById(id: unknown): Buffer | undefined {
    const slot = this.slotById(id);
    if (slot === undefined) return undefined;
    readStats.documents++;
    const bytes = this.env.docs.getBinaryFast(docReadKey(this.id, slot));
    // lmdb's buffer reports the value's size as `length` over a larger array: a view of exactly the value.
    return bytes?.subarray(0, bytes.length);
  }

  /** Documents in natural order, lazily, read in chunks (a consumer may pause between chunks while writes happen). */
  *scan(): Generator<[number, Buffer]> {
    let from = docKey(this.id, 0);
    const end = docKey(this.id + 1, 0);
    for (;;) {
      // Materialised per chunk: no LMDB cursor stays open while the consumer runs (it may write).
      const chunk = [...this.env.docs.getRange({ start: from, end, limit: SCAN_CHUNK })];
      let last = -1;
      readStats.documents += chunk.length;
      for (const { key, value } of chunk) {
        last = slotOfDocKey(key as Buffer);
        yield [last, value as Buffer];
      }
      if (chunk.length < SCAN_CHUNK) return;
      from = docKey(this.id, last + 1);
    }
  }

  slotById(id: unknown): number | undefined {
    return this.idIndex.get(prefixKey([id]));
  }

  private check(doc: Document, self: number | undefined): Map<Index, DocKeys> {
    const all = new Map<Index, DocKeys>();
    for (const idx of this.indexes.values()) {
      const keys = idx.keys(doc);
      idx.checkSize(keys, this.ns);
      const clash = idx.conflict(keys, self);
      if (clash) throw duplicate(this.ns, idx, clash.values);
      all.set(idx, keys);
    }
    return all;
  }

  /**
   * Inserts a document (bytes must already have _id first; they are copied, so they may be a view into a
   * network buffer). Throws DuplicateKeyError or KeyTooLongError, changing nothing.
   */
  insert(bytes: Uint8Array, doc: Document, trusted = false): number {
    assertWriting(this.env);
    const keys = trusted ? this.keysOf(doc) : this.check(doc, undefined);
    const slot = this.meta.nextSlot++;
    for (const [idx, k] of keys) idx.add(slot, k);
    this.env.docs.putSync(docKey(this.id, slot), bytes as Buffer);
    this.meta.count++;
    this.meta.bytes += bytes.length;
    this.catalog.touched(this);
    this.catalog.oplog.record({ op: 'i', ns: this.ns, documentKey: { _id: doc._id }, doc: bytes });
    return slot;
  }

  /**
   * Replaces the document in `slot` (same _id). Throws DuplicateKeyError or KeyTooLongError, changing nothing.
   * `replacement`: the update was a whole replacement document (the oplog record says so; change streams
   * report it as `replace`).
   */
  update(slot: number, oldDoc: Document, bytes: Uint8Array, doc: Document, opts: { trusted?: boolean; replacement?: boolean } = {}): void {
    assertWriting(this.env);
    const next = opts.trusted ? this.keysOf(doc) : this.check(doc, slot);
    for (const [idx, k] of next) idx.change(slot, idx.keys(oldDoc), k);
    const key = docKey(this.id, slot);
    // A copy: the oplog record keeps it as the pre-image until the transaction commits.
    const before = this.env.docs.getBinary(key);
    this.env.docs.putSync(key, bytes as Buffer);
    this.meta.bytes += bytes.length - (before?.length ?? 0);
    this.catalog.touched(this);
    this.catalog.oplog.record({ op: 'u', ns: this.ns, documentKey: { _id: doc._id }, doc: bytes, before, replace: opts.replacement === true || undefined });
  }

  remove(slot: number, oldDoc?: Document): void {
    assertWriting(this.env);
    const key = docKey(this.id, slot);
    const bytes = this.env.docs.getBinary(key);
    if (!bytes) return;
    const doc = oldDoc ?? this.indexedFields(bytes);
    for (const idx of this.indexes.values()) idx.remove(slot, idx.keys(doc));
    this.env.docs.removeSync(key);
    this.meta.count--;
    this.meta.bytes -= bytes.length;
    this.catalog.touched(this);
    this.catalog.oplog.record({ op: 'd', ns: this.ns, documentKey: { _id: doc._id }, before: bytes });
  }

  /** Migration path: upsert by _id without unique checks (the old log only holds writes that succeeded). */
  putTrusted(bytes: Uint8Array): void {
    const doc = this.indexedFields(bytes);
    const slot = this.slotById(doc._id);
    if (slot === undefined) this.insert(bytes, doc, true);
    else this.update(slot, this.indexedFields(this.get(slot)!), bytes, doc, { trusted: true });
  }

  /** Enough of a stored document to compute its index keys (just _id when that is the only index). */
  private indexedFields(bytes: Uint8Array): Document {
    return (this.indexes.size === 1 && leadingId(bytes)) || decode(bytes);
  }

  private keysOf(doc: Document): Map<Index, DocKeys> {
    const all = new Map<Index, DocKeys>();
    for (const idx of this.indexes.values()) all.set(idx, idx.keys(doc));
    return all;
  }

  /** Builds a new index over existing documents; a unique violation or an oversized key aborts without attaching it. */
  addIndex(spec: IndexSpec, trusted = false): void {
    assertWriting(this.env);
    const meta: IndexMeta = { id: this.catalog.newId(), spec, multi: Object.keys(spec.key).map(() => 0), unordered: Object.keys(spec.key).map(() => 0) };
    const idx = new Index(this.env, meta);
    try {
      for (const [slot, bytes] of this.scan()) {
        const keys = idx.keys(decode(bytes));
        idx.checkSize(keys, this.ns);
        const clash = trusted ? undefined : idx.conflict(keys, slot);
        if (clash) throw duplicate(this.ns, idx, clash.values);
        idx.add(slot, keys);
      }
    } catch (e) {
      idx.clear();
      throw e;
    }
    this.indexes.set(spec.name, idx);
    this.meta.indexes.push(meta);
    this.catalog.touched(this);
    this.catalog.oplog.record({ op: 'c', ns: `${this.dbName}.$cmd`, o: { createIndexes: this.name, spec } });
  }

  dropIndex(name: string): void {
    assertWriting(this.env);
    const idx = this.indexes.get(name);
    if (!idx) return;
    idx.clear();
    this.indexes.delete(name);
    this.meta.indexes = this.meta.indexes.filter((m) => m.spec.name !== name);
    this.catalog.touched(this);
    this.catalog.oplog.record({ op: 'c', ns: `${this.dbName}.$cmd`, o: { dropIndexes: this.name, index: name } });
  }

  /** Deletes every document and index entry (the collection is being dropped). */
  clear(): void {
    assertWriting(this.env);
    for (const idx of this.indexes.values()) idx.clear();
    for (const k of keyRange(this.env.docs, docKey(this.id, 0), docKey(this.id + 1, 0))) this.env.docs.removeSync(k);
  }
}

function duplicate(ns: string, idx: Index, values: unknown[]): DuplicateKeyError {
  const keyValue: Document = {};
  idx.fields.forEach((f, i) => (keyValue[f] = values[i] ?? null));
  return new DuplicateKeyError(ns, idx.name, { ...idx.spec.key }, keyValue);
}
