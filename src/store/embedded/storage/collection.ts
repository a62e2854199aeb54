// A collection: documents kept as their raw BSON bytes in slot order (insertion order = natural order),
// plus its indexes. Every mutation is all-or-nothing per document: unique constraints are checked on all
// indexes before any index or the document map is touched. Changes are reported to the journal sink.
import { Binary, UUID } from 'bson';
import type { Document } from 'bson';
import { decode, leadingId } from './bsonio.js';
import { DuplicateKeyError } from './dupkey.js';
import { Index, type IndexSpec, type KeyEntry } from './indexes.js';
import { EntryKind, type JournalSink } from './journal.js';
import { encodeKey } from './keys.js';
import { SlabStore } from './slabs.js';

export const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

export class Collection {
  readonly docs = new Map<number, Buffer>();
  readonly indexes = new Map<string, Index>();
  readonly uuid: Binary = new UUID();
  private nextSlot = 1;
  private readonly memory = new SlabStore();

  constructor(
    readonly dbName: string,
    readonly name: string,
    private readonly sink: () => JournalSink | undefined,
    readonly options: Document = {},
  ) {
    this.indexes.set('_id_', new Index(ID_INDEX));
  }

  get ns(): string {
    return `${this.dbName}.${this.name}`;
  }

  get idIndex(): Index {
    return this.indexes.get('_id_')!;
  }

  slotById(id: unknown): number | undefined {
    for (const s of this.idIndex.lookup(1, encodeKey(id))) return s;
    return undefined;
  }

  private check(doc: Document, self: number | undefined): Map<Index, KeyEntry[]> {
    const all = new Map<Index, KeyEntry[]>();
    for (const idx of this.indexes.values()) {
      const entries = idx.entries(doc);
      const clash = idx.conflict(entries, self);
      if (clash) {
        const keyValue: Document = {};
        idx.fields.forEach((f, i) => (keyValue[f] = clash.values[i] ?? null));
        throw new DuplicateKeyError(this.ns, idx.name, { ...idx.spec.key }, keyValue);
      }
      all.set(idx, entries);
    }
    return all;
  }

  /**
   * Inserts a document (bytes must already have _id first; they are copied, so they may be a view into a
   * network buffer). Throws DuplicateKeyError, changing nothing.
   */
  insert(bytes: Uint8Array, doc: Document, trusted = false): number {
    const slot = this.nextSlot;
    const entries = trusted ? this.entriesOf(doc) : this.check(doc, undefined);
    this.nextSlot++;
    for (const [idx, e] of entries) idx.add(slot, e, doc);
    const stored = this.memory.alloc(bytes);
    this.docs.set(slot, stored);
    this.sink()?.put(this.dbName, this.name, stored);
    return slot;
  }

  /** Replaces the document in `slot` (same _id). Throws DuplicateKeyError, changing nothing. */
  update(slot: number, oldDoc: Document, bytes: Uint8Array, doc: Document, trusted = false): void {
    const next = trusted ? this.entriesOf(doc) : this.check(doc, slot);
    for (const [idx, e] of next) {
      const old = idx.entries(oldDoc);
      if (!idx.ttl && sameKeys(old, e)) continue;
      idx.remove(slot, old);
      idx.add(slot, e, doc);
    }
    const stored = this.memory.alloc(bytes);
    this.memory.free(this.docs.get(slot)!);
    this.docs.set(slot, stored);
    this.sink()?.put(this.dbName, this.name, stored);
    this.maybeCompact();
  }

  remove(slot: number, oldDoc?: Document): void {
    const bytes = this.docs.get(slot);
    if (!bytes) return;
    const doc = oldDoc ?? this.indexedFields(bytes);
    for (const idx of this.indexes.values()) idx.remove(slot, idx.entries(doc));
    this.docs.delete(slot);
    this.memory.free(bytes);
    this.sink()?.del(this.dbName, this.name, { _id: doc._id });
    this.maybeCompact();
  }

  private maybeCompact(): void {
    if (this.memory.needsCompaction) this.memory.compact(this.docs);
  }

  /** Replay path: upsert by _id without unique checks (the log only holds writes that succeeded). */
  putTrusted(bytes: Uint8Array): void {
    const doc = this.indexedFields(bytes);
    const slot = this.slotById(doc._id);
    if (slot === undefined) this.insert(bytes, doc, true);
    else this.update(slot, this.indexedFields(this.docs.get(slot)!), bytes, doc, true);
  }

  /** Enough of a stored document to compute its index keys (just _id when that is the only index). */
  private indexedFields(bytes: Uint8Array): Document {
    return (this.indexes.size === 1 && leadingId(bytes)) || decode(bytes);
  }

  private entriesOf(doc: Document): Map<Index, KeyEntry[]> {
    const all = new Map<Index, KeyEntry[]>();
    for (const idx of this.indexes.values()) all.set(idx, idx.entries(doc));
    return all;
  }

  /** Builds a new index over existing documents; a unique violation aborts without attaching it. */
  addIndex(spec: IndexSpec, trusted = false): void {
    const idx = new Index(spec);
    for (const [slot, bytes] of this.docs) {
      const doc = decode(bytes);
      const e = idx.entries(doc);
      const clash = trusted ? undefined : idx.conflict(e, slot);
      if (clash) {
        const keyValue: Document = {};
        idx.fields.forEach((f, i) => (keyValue[f] = clash.values[i] ?? null));
        throw new DuplicateKeyError(this.ns, spec.name, { ...spec.key }, keyValue);
      }
      idx.add(slot, e, doc);
    }
    this.indexes.set(spec.name, idx);
    this.sink()?.ddl(EntryKind.CreateIndex, this.dbName, this.name, { spec });
  }

  dropIndex(name: string): void {
    if (this.indexes.delete(name)) this.sink()?.ddl(EntryKind.DropIndex, this.dbName, this.name, { name });
  }
}

function sameKeys(a: KeyEntry[], b: KeyEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const pa = a[i]!.prefixes;
    const pb = b[i]!.prefixes;
    if (pa[pa.length - 1] !== pb[pb.length - 1]) return false;
  }
  return true;
}
