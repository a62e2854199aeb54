// The catalog: databases -> collections. A database exists while it has at least one collection, as in
// MongoDB. The catalog's few records (per collection: name, options, uuid, next slot, counts, index specs
// and statistics) live in LMDB's `meta` database and are mirrored in the heap; a write transaction writes
// back the collections it touched just before it commits, and an aborted one reloads them.
import { UUID } from 'bson';
import type { Binary, Document } from 'bson';
import { decode, encode } from './bsonio.js';
import { Collection, ID_INDEX, type CollMeta } from './collection.js';
import { assertWriting, type StorageEnv } from './env.js';
import type { IndexMeta } from './indexes.js';
import { Oplog } from './oplog.js';

const COLL_PREFIX = 'catalog:';
const IDS_KEY = 'ids';
/** Layout version of the environment: 2 = unique indexes keep the slot as the value (indexes.ts). */
const FORMAT_KEY = 'format';
const FORMAT = 2;
/** Zero-padded so collections load in creation order. */
const collKey = (id: number): string => COLL_PREFIX + String(id).padStart(10, '0');

export interface CatalogOptions {
  /** Oplog retention in records. */
  maxChanges?: number;
}

export class Catalog {
  readonly dbs = new Map<string, Map<string, Collection>>();
  readonly oplog: Oplog;
  private nextId = 1;
  private readonly dirty = new Set<Collection>();

  constructor(
    readonly env: StorageEnv,
    opts: CatalogOptions = {},
  ) {
    this.load();
    this.oplog = new Oplog(env, opts.maxChanges);
    env.onBeforeCommit(() => this.flush());
    env.onAbort(() => this.load());
    this.upgrade();
  }

  /** Brings an environment written by an earlier layout up to FORMAT, in one transaction (once). */
  private upgrade(): void {
    const stored = this.env.meta.getBinary(FORMAT_KEY);
    const version = stored ? Number(decode(stored).version) : 1;
    if (version >= FORMAT) return;
    this.env.write(() => {
      // 1 -> 2: unique index entries lose their slot suffix, which becomes the value.
      for (const c of this.all()) for (const idx of c.indexes.values()) if (idx.unique) idx.moveSlotsToValues();
      this.env.meta.putSync(FORMAT_KEY, encode({ version: FORMAT }));
    });
  }

  /** (Re)reads the catalog from `meta`. */
  private load(): void {
    this.dbs.clear();
    this.dirty.clear();
    const ids = this.env.meta.getBinary(IDS_KEY);
    this.nextId = ids ? Number(decode(ids).next) : 1;
    for (const { value } of this.env.meta.getRange({ start: COLL_PREFIX, end: COLL_PREFIX + '\uffff' })) {
      const d = decode(value as Buffer);
      const meta: CollMeta = {
        id: Number(d.id),
        db: d.db as string,
        name: d.name as string,
        options: (d.options as Document) ?? {},
        uuid: d.uuid as Binary,
        nextSlot: Number(d.nextSlot),
        count: Number(d.count),
        bytes: Number(d.bytes),
        indexes: (d.indexes as Document[]).map((i) => ({
          id: Number(i.id),
          spec: i.spec as IndexMeta['spec'],
          multi: (i.multi as number[]).map(Number),
          unordered: (i.unordered as number[]).map(Number),
        })),
      };
      this.attach(new Collection(this, meta));
    }
  }

  private attach(c: Collection): void {
    let colls = this.dbs.get(c.dbName);
    if (!colls) this.dbs.set(c.dbName, (colls = new Map()));
    colls.set(c.name, c);
  }

  /** A new collection or index id (ids are never reused). */
  newId(): number {
    return this.nextId++;
  }

  /** A collection's metadata changed in this transaction: write it back before commit. */
  touched(c: Collection): void {
    this.dirty.add(c);
  }

  private flush(): void {
    for (const c of this.dirty) {
      if (this.get(c.dbName, c.name) !== c) continue; // dropped in the same transaction
      this.env.meta.putSync(collKey(c.id), encode({ ...c.meta }));
    }
    this.dirty.clear();
    this.env.meta.putSync(IDS_KEY, encode({ next: this.nextId }));
  }

  get(db: string, name: string): Collection | undefined {
    return this.dbs.get(db)?.get(name);
  }

  /** Existing collection or a newly created one (implicit creation by writes and createIndexes). */
  ensure(db: string, name: string, options: Document = {}): Collection {
    const existing = this.get(db, name);
    if (existing) return existing;
    assertWriting(this.env);
    const id = this.newId();
    const idIndex: IndexMeta = { id: this.newId(), spec: ID_INDEX, multi: [0], unordered: [0] };
    const coll = new Collection(this, { id, db, name, options, uuid: new UUID(), nextSlot: 1, count: 0, bytes: 0, indexes: [idIndex] });
    this.attach(coll);
    this.touched(coll);
    this.oplog.record({ op: 'c', ns: `${db}.$cmd`, o: { create: name } });
    return coll;
  }

  drop(db: string, name: string): boolean {
    const colls = this.dbs.get(db);
    const coll = colls?.get(name);
    if (!colls || !coll) return false;
    assertWriting(this.env);
    coll.clear();
    this.env.meta.removeSync(collKey(coll.id));
    colls.delete(name);
    if (colls.size === 0) this.dbs.delete(db);
    this.oplog.record({ op: 'c', ns: `${db}.$cmd`, o: { drop: name } });
    return true;
  }

  dropDatabase(db: string): void {
    const colls = this.dbs.get(db);
    if (!colls) return;
    for (const name of [...colls.keys()]) this.drop(db, name);
    this.oplog.record({ op: 'c', ns: `${db}.$cmd`, o: { dropDatabase: 1 } });
  }

  collections(db: string): Collection[] {
    return [...(this.dbs.get(db)?.values() ?? [])];
  }

  *all(): Iterable<Collection> {
    for (const colls of this.dbs.values()) yield* colls.values();
  }
}
