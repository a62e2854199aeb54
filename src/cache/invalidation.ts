// Invalidation of the response cache on writes: one change stream per process on the database, its own
// connection (Store.watchClient). Each change names a collection; the GraphQL types that can show that
// collection (src/cache/shown-by.ts) select the cached answers to evict: GraphQL entries by the types their
// operation selects, REST entries by their route. Writes through any process, or straight into MongoDB by
// another system, reach every process this way, so the service keeps answers longer than the max-age it sends
// (RESPONSE_CACHE_TTL_SECONDS). A stream that fails evicts everything (what it missed is unknown) and is reopened
// from its resume token (src/store/resumable-watch.ts), evicting everything again when it had to start without
// one; a store that cannot watch (a standalone mongod) is logged once and entries simply
// expire at their max-age as before.
import type { ChangeStreamDocument, Document } from 'mongodb';
import { MongoServerError } from 'mongodb';
import type { Logger } from '../logger.js';
import { ResumableWatch } from '../store/resumable-watch.js';
import type { Store } from '../store/store.js';
import type { ReadyParts } from './ready-parts.js';
import type { ResponseCache } from './response-cache.js';
import type { EntryFacts } from './stored-answer.js';
import { EVERYTHING, REST_SHOWS, SHARED_ONLY, SHOWN_BY, SHOWN_COLLECTIONS } from './shown-by.js';

/** Change stream events that only name a collection or database: drop, rename, invalidate evict everything. */
const DATA_EVENTS = new Set(['insert', 'update', 'replace', 'delete']);

/**
 * Which entries a change to `collection` can make wrong, or undefined for none (EVERYTHING: all). `staticPrefixes`
 * (lower case) are the paths of answers no write changes (the OpenAPI document, its viewer, the playground's files).
 */
function shownBy(collection: string, staticPrefixes: readonly string[]): ((entry: EntryFacts) => boolean) | undefined {
  const shown: readonly string[] | undefined = (SHOWN_BY as Record<string, readonly string[]>)[collection];
  if (!shown || shown.length === 0) return undefined;
  if (shown.includes(EVERYTHING)) return () => true;
  const touched = new Set(shown);
  const sharedOnly = SHARED_ONLY.has(collection);
  return (entry) => {
    if (sharedOnly && !entry.shared) return false;
    if (entry.graphql) return !entry.types || [...entry.types].some((type) => touched.has(type));
    // Routes match in any case (`/CMS/...` is `/cms/...`). An entry of no known family may show anything: evicted.
    const path = entry.key.toLowerCase();
    if (staticPrefixes.some((prefix) => path.startsWith(prefix))) return false;
    const rest = REST_SHOWS.find((r) => path.startsWith(r.prefix));
    return rest === undefined || rest.types.some((type) => touched.has(type));
  };
}

/** Evicts the entries a change to `collection` can make wrong; returns how many. */
function evictFor(cache: ResponseCache, collection: string, staticPrefixes: readonly string[]): number {
  const match = shownBy(collection, staticPrefixes);
  return match ? cache.evict(match) : 0;
}

export class CacheInvalidation {
  private constructor(
    private readonly cache: ResponseCache,
    private readonly watch: ResumableWatch,
  ) {}

  /**
   * Opens the stream and, once it runs, lets the cache keep answers `ttlSeconds`; a store that cannot watch
   * leaves the cache as it is (logged). `staticPaths`: the path prefixes of answers no write changes, never
   * evicted by a data change. Returns the running invalidation, to stop before the store closes.
   */
  static async start(
    store: Store,
    cache: ResponseCache,
    log: Logger,
    ttl: { seconds: number; defaultMaxAge: number },
    staticPaths: readonly string[],
    ready?: ReadyParts,
  ): Promise<CacheInvalidation> {
    const staticPrefixes = staticPaths.map((path) => path.toLowerCase());
    const collections = [...new Set([...SHOWN_COLLECTIONS, ...(ready?.collections ?? [])])];
    // Ready parts (REST objects the answers are assembled from) are evicted first, in the same turn: an answer
    // assembled after the cache's eviction never comes from a part the change made wrong.
    const evictAll = (): void => {
      ready?.evictAll();
      cache.evict(() => true);
    };
    const watch = await ResumableWatch.start(store, log, {
      name: 'response cache invalidation stream',
      pipeline: [
        { $match: { $or: [{ 'ns.coll': { $in: collections } }, { operationType: { $nin: [...DATA_EVENTS] } }] } },
        { $project: { ns: 1, operationType: 1, ...(ready ? { documentKey: 1 } : {}) } },
      ],
      options: { maxAwaitTimeMS: 500 },
      forgetsToken: (err) => err instanceof MongoServerError && !err.hasErrorLabel('ResumableChangeStreamError'),
      onChange: (change) => {
        ready?.changed(change);
        apply(cache, log, change, staticPrefixes);
      },
      // What the stream missed is unknown: nothing stored can be trusted past its max-age.
      onFailure: evictAll,
      // Answers cached between the failure's eviction and now may show writes nobody reported.
      onReopened: ({ gap }) => {
        if (gap) evictAll();
      },
      onUnsupported: (err) =>
        log.warn(
          { code: err.code },
          'response cache invalidation is unavailable: the store cannot run change streams; cached answers expire at their max-age',
        ),
    });
    if (watch.watching) {
      cache.keepLonger(ttl);
      ready?.follow();
    }
    return new CacheInvalidation(cache, watch);
  }

  async stop(): Promise<void> {
    if (!this.watch.watching) return;
    this.cache.keepLonger(undefined);
    await this.watch.close();
  }
}

function apply(
  cache: ResponseCache,
  log: Logger,
  change: ChangeStreamDocument<Document>,
  staticPrefixes: readonly string[],
): void {
  const coll = 'ns' in change && change.ns && 'coll' in change.ns ? change.ns.coll : undefined;
  const evicted =
    DATA_EVENTS.has(change.operationType) && coll ? evictFor(cache, coll, staticPrefixes) : cache.evict(() => true);
  if (evicted > 0 && log.isLevelEnabled('debug'))
    log.debug({ collection: coll, operation: change.operationType, evicted }, 'response cache entries evicted');
}

/** Entries that can show articles or issues: those a scheduled publication changes without anyone writing. */
export function showsPublishedContent(staticPaths: readonly string[]): (entry: EntryFacts) => boolean {
  const staticPrefixes = staticPaths.map((path) => path.toLowerCase());
  const matches = ['articles', 'issues'].flatMap((collection) => shownBy(collection, staticPrefixes) ?? []);
  return (entry) => matches.some((match) => match(entry));
}
