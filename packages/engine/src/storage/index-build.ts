// Index builds over a collection's documents that run while other commands do: the build reads the documents
// in the collection's order a chunk per write transaction and writes their entries; until it ends, the index
// is held here, not among the collection's indexes (no query uses it, listIndexes does not show it), and every
// write keeps its entries for the documents the build has passed (a document not yet passed gets its entries
// when the build reaches it). Its progress (the last record id passed, documents done of the total) is
// persisted with the catalog in each transaction, so an aborted transaction leaves it as committed and a
// restart continues where the last commit left it. The command side (commands/index-builds.ts) runs the
// steps, waits for them and reports them in currentOp.
import type { Document } from 'bson';
import { decode } from './bsonio.js';
import { decodeFields } from './rawdoc.js';
import { Index } from './indexes.js';
import type { IndexMeta, IndexSpec, Rid } from './index-keys.js';
import { naturalOrder } from './order.js';
import type { StorageEnv } from './env.js';

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
      build: { scanned: null, done: 0, total: this.host.size },
    };
    const idx = new Index(this.host.env, meta);
    this.building.set(spec.name, idx);
    this.host.indexMetas.push(meta);
    this.host.touched();
    return idx;
  }

  /**
   * Writes the entries of the next documents of the build of `name` until `until` (a performance.now() time) has
   * passed (one chunk of documents at least); returns true once every document has its entries (the build can
   * then `finish`). Throws KeyTooLongError when a document's key cannot be stored (the transaction, and so the
   * step, is then discarded).
   */
  step(name: string, until: number): boolean {
    const idx = this.building.get(name)!;
    const progress = idx.meta.build!;
    this.host.touched();
    const names = idx.readFields;
    do {
      const docs = this.host.docsAfter(progress.scanned, READ_CHUNK);
      for (const [rid, bytes] of docs) {
        const doc = (names && decodeFields(bytes, names)) ?? decode(bytes);
        const keys = idx.keys(doc as Document);
        idx.checkSize(keys, this.host.ns, rid);
        idx.add(rid, keys);
        progress.scanned = rid;
        progress.done++;
      }
      if (docs.length < READ_CHUNK) return true;
    } while (performance.now() < until);
    return false;
  }

  /**
   * Ends the build of `name`: the index becomes one of the collection's. Documents written since the build's last
   * step lie past the last record id it passed, so no write kept their entries: they are indexed here, in the
   * same transaction.
   */
  finish(name: string): Index {
    this.step(name, Infinity);
    const idx = this.building.get(name)!;
    this.building.delete(name);
    delete idx.meta.build;
    this.host.touched();
    this.host.attach(idx);
    return idx;
  }

  /** Abandons the build of `name`, deleting the entries written so far. */
  abort(name: string): void {
    const idx = this.building.get(name);
    if (!idx) return;
    idx.clear();
    this.building.delete(name);
    const metas = this.host.indexMetas;
    metas.splice(metas.indexOf(idx.meta), 1);
    this.host.touched();
  }

  /** Deletes the entries of every build (the collection is being dropped). */
  clear(): void {
    for (const idx of this.building.values()) idx.clear();
  }
}
