// Index builds over a collection's documents that run while other commands do, in three phases, a step per write
// transaction, as MongoDB's hybrid builds: the scan reads the documents in the collection's order and hands their
// entries to an external sorter (sorter.ts); the load appends them to the index in key order, each page of the
// index written once; the drain applies the writes made meanwhile. Until it ends, the index is held here, not
// among the collection's indexes (no query uses it, listIndexes does not show it). A write to a document the
// scan has passed keeps its change aside (index-table.ts keepAside: the document's entries are in the sorter, not
// in the index yet), in the order made, and the drain applies them on top of the loaded entries, which is
// exact whatever version of the document the scan read; a document not yet passed gets its entries when the
// scan reaches it, and one written past the scan after it ended gets them when the build ends. The sorter lives
// in memory and in files of this run only: a build the engine was stopped in starts over at its next start.
// The command side (commands/index-builds.ts) opens the sorter, runs the steps, waits for them and reports them
// in currentOp.
import type { Document } from 'bson';
import { decode } from './bsonio.js';
import { decodeFields } from './rawdoc.js';
import { Index } from './indexes.js';
import type { IndexMeta, IndexSpec, Rid } from './index-keys.js';
import { naturalOrder } from './order.js';
import type { StorageEnv } from './env.js';
import type { ExternalSorter } from './sorter.js';

/** What a build needs of its collection (collection.ts). */
export interface BuildHost {
  readonly env: StorageEnv;
  readonly ns: string;
  readonly size: number;
  readonly indexMetas: IndexMeta[];
  newIndexId(): number;
  touched(): void;
  /** Up to `limit` documents after the record id `after` (from the first when null), in the collection's order. */
  docsAfter(after: Rid | null, limit: number): Array<[Rid, Buffer]>;
  /** Makes a built index one of the collection's indexes (and records its creation in the oplog). */
  attach(idx: Index): void;
}

/** Documents read per LMDB range read while building. */
const READ_CHUNK = 64;
/** Entries loaded, or writes kept aside applied, between two looks at the clock. */
const LOAD_CHUNK = 256;

/** The sorters of the builds under way, per environment, by index id (commands/index-builds.ts opens them: they
 *  outlive the in-heap catalog, which an aborted transaction reloads). */
const sorters = new WeakMap<StorageEnv, Map<number, { sorter: ExternalSorter; begun: boolean }>>();

/** Gives the build of the index `id` its sorter (before its first step). */
export function useSorter(env: StorageEnv, id: number, sorter: ExternalSorter): void {
  let m = sorters.get(env);
  if (!m) sorters.set(env, (m = new Map()));
  m.set(id, { sorter, begun: false });
}

/** Forgets the sorter of the build of the index `id` (the build has ended). */
export function dropSorter(env: StorageEnv, id: number): void {
  sorters.get(env)?.delete(id);
}

export class IndexBuilds {
  private readonly building = new Map<string, Index>();

  constructor(private readonly host: BuildHost) {}

  /** An index whose build was under way when the catalog was last committed. */
  load(idx: Index): void {
    this.building.set(idx.name, idx);
  }

  /** Whether any index is being built. */
  get active(): boolean {
    return this.building.size > 0;
  }

  get(name: string): Index | undefined {
    return this.building.get(name);
  }

  all(): IterableIterator<Index> {
    return this.building.values();
  }

  /** The indexes being built that hold entries for `rid` already (a write to it must keep them). */
  *covering(rid: Rid): Generator<Index> {
    for (const idx of this.building.values()) {
      const scanned = idx.meta.build!.scanned;
      if (scanned !== null && naturalOrder(rid, scanned) <= 0) yield idx;
    }
  }

  /** Starts building `spec`: the index exists from now on, with no entries yet. */
  start(spec: IndexSpec): Index {
    const meta: IndexMeta = {
      id: this.host.newIndexId(),
      spec,
      multi: Object.keys(spec.key).map(() => 0),
      unordered: Object.keys(spec.key).map(() => 0),
      build: { phase: 'scan', scanned: null, done: 0, total: this.host.size, keys: 0, loaded: 0, side: 0 },
    };
    const idx = new Index(this.host.env, meta);
    this.building.set(spec.name, idx);
    this.host.indexMetas.push(meta);
    this.host.touched();
    return idx;
  }

  /**
   * Runs the build of `name` until `until` (a performance.now() time) has passed, or its sorter needs time
   * (ExternalSorter.whenReady); returns true once every entry is in the index (the build can then `finish`).
   * Throws KeyTooLongError when a document's key cannot be stored (the transaction, and so the step, is then
   * discarded).
   */
  step(name: string, until: number): boolean {
    const idx = this.building.get(name)!;
    const progress = idx.meta.build!;
    const held = sorters.get(this.host.env)?.get(idx.id);
    if (!held) throw new Error(`index build of ${name}: no sorter`);
    this.host.touched();
    if (!held.begun) {
      // A build begun by an earlier run of the engine: its sorter's entries went with that run.
      if (progress.scanned !== null || progress.phase !== 'scan' || progress.side > 0) this.restart(idx);
      held.begun = true;
    }
    const sorter = held.sorter;
    if (progress.phase === 'scan') {
      const names = idx.readFields;
      const prefix = idx.keyPrefix;
      do {
        if (!sorter.accepting) return false;
        const docs = this.host.docsAfter(progress.scanned, READ_CHUNK);
        for (const [rid, bytes] of docs) {
          const doc = (names && decodeFields(bytes, names)) ?? decode(bytes);
          const keys = idx.keys(doc as Document);
          idx.checkSize(keys, this.host.ns, rid);
          idx.tally(keys);
          for (const e of keys.entries) sorter.add(prefix, e.key, rid);
          progress.scanned = rid;
          progress.done++;
        }
        if (docs.length < READ_CHUNK) {
          sorter.end();
          progress.keys = sorter.count;
          progress.phase = 'load';
          return false;
        }
      } while (performance.now() < until);
      return false;
    }
    if (progress.phase === 'load') {
      // Entries of an earlier start of this build, given back by `restart`, are still being deleted.
      if (progress.loaded === 0 && idx.reclaiming) return false;
      do {
        for (let i = 0; i < LOAD_CHUNK; i++) {
          const key = sorter.take();
          if (key === undefined) return false;
          if (key === null) {
            progress.phase = 'drain';
            return false;
          }
          idx.load(key);
          progress.loaded++;
        }
      } while (performance.now() < until);
      return false;
    }
    do if (idx.applyAside(LOAD_CHUNK) < LOAD_CHUNK) return true;
    while (performance.now() < until);
    return false;
  }

  /** Starts the build of `idx` over: no document counted, nothing kept aside, and the entries an earlier start
   *  loaded given back in the background (reclaim.ts; the load waits for them to be gone), so that a restart
   *  during the load of a large index does not hold the engine while they are deleted. */
  private restart(idx: Index): void {
    const { side } = idx.meta.build!;
    idx.discard(side);
    idx.meta.multi.fill(0);
    idx.meta.unordered.fill(0);
    idx.meta.build = { phase: 'scan', scanned: null, done: 0, total: this.host.size, keys: 0, loaded: 0, side };
  }

  /** Whether the build of `name` waits for the entries of an earlier start of it to be deleted. */
  waitsForReclaim(name: string): boolean {
    const idx = this.building.get(name);
    return idx?.meta.build?.phase === 'load' && idx.meta.build.loaded === 0 && idx.reclaiming;
  }

  /**
   * Ends the build of `name` (its steps are done): the writes still kept aside are applied, and the documents
   * written past the scan since it ended, whose entries no write kept, are indexed, in the same transaction; the
   * index becomes one of the collection's.
   */
  finish(name: string): Index {
    const idx = this.building.get(name)!;
    const { scanned } = idx.meta.build!;
    while (idx.applyAside(LOAD_CHUNK) === LOAD_CHUNK);
    delete idx.meta.build;
    const names = idx.readFields;
    for (let after = scanned; ;) {
      const docs = this.host.docsAfter(after, READ_CHUNK);
      for (const [rid, bytes] of docs) {
        const keys = idx.keys(((names && decodeFields(bytes, names)) ?? decode(bytes)) as Document);
        idx.checkSize(keys, this.host.ns, rid);
        idx.add(rid, keys);
        after = rid;
      }
      if (docs.length < READ_CHUNK) break;
    }
    this.building.delete(name);
    this.host.touched();
    this.host.attach(idx);
    return idx;
  }

  /** Abandons the build of `name`: its entries and the writes it kept aside are deleted in the background. */
  abort(name: string): void {
    const idx = this.building.get(name);
    if (!idx) return;
    idx.discard();
    this.building.delete(name);
    const metas = this.host.indexMetas;
    metas.splice(metas.indexOf(idx.meta), 1);
    this.host.touched();
  }

  /** Gives back the entries of every build (the collection is being dropped). */
  discard(): void {
    for (const idx of this.building.values()) idx.discard();
  }
}
