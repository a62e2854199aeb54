// Ready parts: the JSON bytes of one object's legacy representation (a category with its products and items),
// kept between requests so that a REST page is assembled from them instead of read and shaped again. Each part
// names what it shows: documents by id (`{ collection, ids }`) or a whole collection (`{ collection }`, for what a
// query decided: which products a category lists, how many). A change stream evicts exactly the parts that name
// the changed document or its collection; writes from any process or system reach every process this way. With a
// response cache, that is the cache's own stream (cache/invalidation.ts), which evicts parts before answers: an
// answer assembled from a part the stream has not evicted yet would otherwise be kept by a cache that has. Without
// one, the parts have a stream of their own. A part computed while a change that touches it was reported is not
// kept (it may show the document as it was); changes to other documents do not stop it being kept, so parts are
// still kept while collections they name are written all the time (votes, posts). A stream that fails evicts
// everything, and so does one reopened without a resume token; a store that cannot watch keeps nothing (nothing
// would tell a part is stale).
import type { ChangeStreamDocument, Document } from 'mongodb';
import { MongoServerError } from 'mongodb';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.js';
import { ResumableWatch } from '../store/resumable-watch.js';
import type { Store } from '../store/store.js';

/** What a part shows: these documents of `collection`, or (no `ids`) anything in it. */
export interface Shows {
  collection: string;
  ids?: readonly string[];
}

interface Part {
  bytes: Buffer;
  /** Collection -> ids shown, or null for the whole collection. */
  shows: Map<string, Set<string> | null>;
  /** When the part stops being right without a write (ms since the epoch): not served from then on. */
  until?: number;
}

/** Change stream events that only name a collection or database (drop, rename, invalidate) evict everything. */
const DATA_EVENTS = new Set(['insert', 'update', 'replace', 'delete']);

/** A change reported: to one document (`id` a string), to a collection, or (no `collection`) to anything. */
interface Reported {
  collection?: string;
  id?: unknown;
}

/** How many of the latest changes are remembered; a part computed across more is not kept. */
const REMEMBERED = 1024;

function touches(shows: Map<string, Set<string> | null>, change: Reported): boolean {
  if (change.collection === undefined) return true;
  const shown = shows.get(change.collection);
  if (shown === undefined) return false;
  return shown === null || typeof change.id !== 'string' || shown.has(change.id);
}

export class ReadyParts {
  private readonly parts: LRUCache<string, Part>;
  /** Counts the changes reported; the latest REMEMBERED of them, oldest first, in `reported`. */
  private changes = 0;
  private reported: Reported[] = [];
  /** Whether a stream evicts the parts (nothing is kept otherwise). */
  private followed = false;
  private watch: ResumableWatch | undefined;

  private constructor(
    maxBytes: number,
    /** The collections whose changes evict parts. */
    readonly collections: readonly string[] = [],
  ) {
    this.parts = new LRUCache<string, Part>({
      maxSize: Math.max(1, maxBytes),
      sizeCalculation: (part) => part.bytes.length + 256,
    });
  }

  /**
   * Opens the stream on `collections` and keeps up to `maxBytes` of parts; a store that cannot watch gives a
   * cache that keeps nothing (logged).
   */
  static async start(store: Store, log: Logger, maxBytes: number, collections: readonly string[]): Promise<ReadyParts> {
    const ready = new ReadyParts(maxBytes, collections);
    const watch = await ResumableWatch.start(store, log, {
      name: 'ready parts invalidation stream',
      pipeline: [
        { $match: { $or: [{ 'ns.coll': { $in: [...collections] } }, { operationType: { $nin: [...DATA_EVENTS] } }] } },
        { $project: { ns: 1, operationType: 1, documentKey: 1 } },
      ],
      options: { maxAwaitTimeMS: 500 },
      forgetsToken: (err) => err instanceof MongoServerError && !err.hasErrorLabel('ResumableChangeStreamError'),
      onChange: (change) => ready.changed(change),
      onFailure: () => ready.evictAll(),
      onReopened: ({ gap }) => {
        if (gap) ready.evictAll();
      },
      onUnsupported: (err) => log.warn({ code: err.code }, 'ready parts are off: the store cannot run change streams'),
    });
    if (watch.watching) {
      ready.watch = watch;
      ready.followed = true;
    }
    return ready;
  }

  /**
   * Parts evicted by another stream (the response cache's): they are kept once `follow` says that stream runs,
   * and evicted through `changed` and `evictAll`.
   */
  static following(maxBytes: number, collections: readonly string[]): ReadyParts {
    return new ReadyParts(maxBytes, collections);
  }

  /** The stream that evicts these parts runs. */
  follow(): void {
    this.followed = true;
  }

  /** A cache that keeps nothing (ready parts turned off). */
  static off(): ReadyParts {
    return new ReadyParts(1);
  }

  /** Taken before reading what a part shows; hand it to `keep`. */
  mark(): number {
    return this.changes;
  }

  get(key: string): Buffer | undefined {
    if (!this.followed) return undefined;
    const part = this.parts.get(key);
    if (part?.until !== undefined && Date.now() >= part.until) {
      this.parts.delete(key);
      return undefined;
    }
    return part?.bytes;
  }

  /**
   * Keeps `bytes` under `key` unless a change was reported since `mark` (the part may show what it changed).
   * `until`: when what the part shows changes with time alone (ms since the epoch), if it does.
   */
  keep(key: string, bytes: Buffer, shows: readonly Shows[], mark: number, until?: number): void {
    if (!this.followed) return;
    const since = this.changes - mark;
    if (since > this.reported.length) return;
    const map = new Map<string, Set<string> | null>();
    for (const { collection, ids } of shows) {
      const known = map.get(collection);
      if (known === null) continue;
      if (!ids) map.set(collection, null);
      else map.set(collection, new Set([...(known ?? []), ...ids]));
    }
    for (let i = this.reported.length - since; i < this.reported.length; i++)
      if (touches(map, this.reported[i]!)) return;
    this.parts.set(key, until === undefined ? { bytes, shows: map } : { bytes, shows: map, until });
  }

  async stop(): Promise<void> {
    this.followed = false;
    await this.watch?.close();
    this.watch = undefined;
    this.parts.clear();
  }

  /** Evicts every part (what the stream missed is unknown). */
  evictAll(): void {
    this.report({});
    this.parts.clear();
  }

  /** Evicts the parts a change can make wrong (it must carry `ns`, `operationType` and `documentKey`). */
  changed(change: ChangeStreamDocument<Document>): void {
    const coll = 'ns' in change && change.ns && 'coll' in change.ns ? change.ns.coll : undefined;
    if (!DATA_EVENTS.has(change.operationType) || !coll) return this.evictAll();
    const reported = {
      collection: coll,
      id: 'documentKey' in change ? (change.documentKey as { _id?: unknown })._id : undefined,
    };
    this.report(reported);
    for (const [key, part] of this.parts.entries()) if (touches(part.shows, reported)) this.parts.delete(key);
  }

  private report(change: Reported): void {
    this.changes++;
    this.reported.push(change);
    if (this.reported.length >= 2 * REMEMBERED) this.reported = this.reported.slice(-REMEMBERED);
  }
}
