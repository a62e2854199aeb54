// The catalog: databases -> collections. A database exists while it has at least one collection, as in
// MongoDB. The catalog's few records (per collection: name, options, uuid, next slot, counts, index specs
// and statistics) live in LMDB's `meta` database and are mirrored in the heap; a write transaction writes
// back the collections it touched just before it commits, and an aborted one reloads them.
import { UUID } from 'bson';
import type { Binary, Document } from 'bson';
import { decode, encode } from './bsonio.js';
import { Collection, ID_INDEX, type CollMeta } from './collection.js';
import { assertWriting, type StorageEnv } from './env.js';
import type { Index } from './indexes.js';
import type { BuildProgress, IndexMeta } from './index-keys.js';
import { Oplog } from './oplog.js';

const COLL_PREFIX = 'catalog:';
const IDS_KEY = 'ids';
/** Layout version of the environment: 2 = unique indexes keep the slot as the value; 3 = documents keyed by
 *  `_id` in every collection but capped ones, index entries ending with (or holding) record ids (indexes.ts). */
export const FORMAT_KEY = 'format';
export const FORMAT = 3;
/** Zero-padded so collections load in creation order. */
const collKey = (id: number): string => COLL_PREFIX + String(id).padStart(10, '0');

/** The indexes' kept counts as of a clean close (see saveKeptCounts). */
const KEPT_COUNTS_KEY = 'keptCounts';

export interface CatalogOptions {
  /** Oplog retention in records. */
  maxChanges?: number;
}

export class Catalog {
  readonly dbs = new Map<string, Map<string, Collection>>();
  readonly oplog: Oplog;
  private nextId = 1;
  private readonly dirty = new Set<Collection>();

  /** Throws OldLayoutError for an environment written by an earlier layout (persist/layout.ts converts it). */
  constructor(
    readonly env: StorageEnv,
    opts: CatalogOptions = {},
  ) {
    const version = storedFormat(env);
    if (version < FORMAT) throw new OldLayoutError(env.dir, version);
    if (version > FORMAT)
      throw new Error(
        `the data directory ${env.dir} was written by a newer version of the engine (format ${version}; this one reads ${FORMAT})`,
      );
    this.load();
    this.oplog = new Oplog(env, opts.maxChanges);
    this.restoreKeptCounts();
    env.onBeforeCommit(() => this.flush());
    env.onAbort((aborted) => this.load(aborted));
    if (!env.meta.getBinary(FORMAT_KEY)) env.write(() => env.meta.putSync(FORMAT_KEY, encode({ version: FORMAT })));
  }

  /**
   * Stores every index's kept counts (indexes.ts `count`) for the next open, at a clean close, stamped with the
   * newest change of the oplog, which every change of a document records: the next open takes them only when
   * the oplog has not moved since (after a crash that followed writes, or writes by any build or tool, it has,
   * and every count is walked again). Spares the first counts after a restart their walk over the index: at
   * `large`, all published articles' 920,159 keys take 3–5 s from a cold page cache, blocking the engine.
   */
  async saveKeptCounts(): Promise<void> {
    if (this.env.temporary) return;
    const indexes: Document[] = [];
    for (const coll of this.all()) {
      for (const idx of coll.indexes.values()) {
        const counts = idx.keptCounts();
        if (counts?.length) indexes.push({ id: idx.id, counts });
      }
    }
    const at = this.oplog.latestChangeTs();
    await this.env.writeAsync(() => this.env.meta.putSync(KEPT_COUNTS_KEY, encode({ at, indexes })));
  }

  private restoreKeptCounts(): void {
    const stored = this.env.meta.getBinary(KEPT_COUNTS_KEY);
    if (!stored) return;
    const saved = decode(stored);
    if (Number(saved.at) !== this.oplog.latestChangeTs()) return;
    const byId = new Map<number, Index>();
    for (const coll of this.all()) for (const idx of coll.indexes.values()) byId.set(idx.id, idx);
    for (const entry of saved.indexes as Document[])
      byId.get(Number(entry.id))?.restoreCounts(entry.counts as Array<[string, number]>);
  }

  /** (Re)reads the catalog from `meta`; after an aborted write (`aborted`: its number) the indexes keep their
   *  kept counts, less that write's changes (when a whole commit failed, none are kept). */
  private load(aborted?: number): void {
    const before = new Map<number, Index>();
    if (aborted !== undefined)
      for (const coll of this.all()) for (const idx of coll.indexes.values()) before.set(idx.id, idx);
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
        clustered: d.clustered === true,
        nextSlot: Number(d.nextSlot),
        count: Number(d.count),
        bytes: Number(d.bytes),
        indexes: (d.indexes as Document[]).map((i) => ({
          id: Number(i.id),
          spec: i.spec as IndexMeta['spec'],
          multi: (i.multi as number[]).map(Number),
          unordered: (i.unordered as number[]).map(Number),
          ...(i.build ? { build: buildProgress(i.build as Document) } : {}),
        })),
      };
      const coll = new Collection(this, meta);
      this.attach(coll);
      for (const idx of coll.indexes.values()) {
        const was = before.get(idx.id);
        if (was) idx.adopt(was, aborted!);
      }
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
    // Capped collections drop their oldest documents, so they keep insertion order (collection.ts).
    const clustered = options.capped !== true;
    const coll = new Collection(this, {
      id,
      db,
      name,
      options,
      uuid: new UUID(),
      clustered,
      nextSlot: 1,
      count: 0,
      bytes: 0,
      indexes: [idIndex],
    });
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
    coll.discard();
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

/** A build's progress as stored (index-keys.ts BuildProgress). */
function buildProgress(d: Document): BuildProgress {
  const phase = d.phase === 'load' || d.phase === 'drain' ? d.phase : 'scan';
  return {
    phase,
    scanned: (d.scanned as string | null) ?? null,
    done: Number(d.done),
    total: Number(d.total),
    keys: Number(d.keys ?? 0),
    loaded: Number(d.loaded ?? 0),
    side: Number(d.side ?? 0),
  };
}

/**
 * The layout version of an environment's data: FORMAT_KEY's, else 1 when it holds collections (the first
 * layout kept no version), else FORMAT (an empty environment takes the current layout).
 */
function storedFormat(env: StorageEnv): number {
  const stored = env.meta.getBinary(FORMAT_KEY);
  if (stored) return Number(decode(stored).version);
  for (const _ of env.meta.getKeys({ start: COLL_PREFIX, end: COLL_PREFIX + '\uffff', limit: 1 })) return 1;
  return FORMAT;
}

/** A data directory written by an earlier LMDB layout: refused with the command that converts it. */
class OldLayoutError extends Error {
  constructor(
    readonly dir: string,
    readonly version: number,
  ) {
    super(
      `the data directory ${dir} is in an earlier layout of the engine's storage (format ${version}; this version ` +
        `reads format ${FORMAT}, documents keyed by _id); convert it once with: npm run engine -- --migrate ${dir}`,
    );
  }
}
