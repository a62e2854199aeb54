// Invalidation of the response cache on writes: one change stream per process on the database, its own
// connection (Store.watchClient). Each change names a collection; the GraphQL types that can show that
// collection (src/schema/shown-by.ts) select the cached answers to evict: GraphQL entries by the types their
// operation selects, REST entries by their route. Writes through any process, or straight into MongoDB by
// another system, reach every process this way, so the service keeps answers longer than the max-age it sends
// (RESPONSE_CACHE_TTL_SECONDS). A stream that fails evicts everything (what it missed is unknown) and reopens
// from its resume token; a store that cannot watch (a standalone mongod) is logged once and entries simply
// expire at their max-age as before.
import type { ChangeStream, ChangeStreamDocument, Document, MongoClient, ResumeToken } from 'mongodb';
import { MongoServerError, MongoServerSelectionError } from 'mongodb';
import type { Logger } from '../logger.js';
import { EVERYTHING, REST_SHOWS, SHOWN_BY, SHOWN_COLLECTIONS } from '../schema/shown-by.js';
import type { Store } from '../store/store.js';
import type { ResponseCache } from './response-cache.js';

/** A server that cannot run change streams (a standalone mongod). */
const NOT_SUPPORTED = new Set([40573, 115]);
const RETRY_MS = 500;
/** Change stream events that only name a collection or database: drop, rename, invalidate evict everything. */
const DATA_EVENTS = new Set(['insert', 'update', 'replace', 'delete']);

/** Evicts the entries a change to `collection` can make wrong; returns how many. */
export function evictFor(cache: ResponseCache, collection: string): number {
  const shown: readonly string[] | undefined = (SHOWN_BY as Record<string, readonly string[]>)[collection];
  if (!shown || shown.length === 0) return 0;
  if (shown.includes(EVERYTHING)) return cache.evict(() => true);
  const touched = new Set(shown);
  return cache.evict((entry) => {
    if (entry.graphql) return !entry.types || [...entry.types].some((type) => touched.has(type));
    const rest = REST_SHOWS.find((r) => entry.key.startsWith(r.prefix));
    return rest !== undefined && rest.types.some((type) => touched.has(type));
  });
}

export class CacheInvalidation {
  private stream: ChangeStream<Document> | undefined;
  private running: Promise<void> | undefined;
  private closed = false;

  private constructor(
    private readonly store: Store,
    private readonly cache: ResponseCache,
    private readonly log: Logger,
    private client: MongoClient,
  ) {}

  /**
   * Opens the stream and, once it runs, lets the cache keep answers `ttlSeconds`; a store that cannot watch
   * leaves the cache as it is (logged). Returns the running invalidation, to stop before the store closes.
   */
  static async start(store: Store, cache: ResponseCache, log: Logger, ttl: { seconds: number; defaultMaxAge: number }): Promise<CacheInvalidation> {
    const client = store.watchClient();
    try {
      await client.connect();
    } catch (err) {
      await client.close().catch(() => undefined);
      throw err;
    }
    const self = new CacheInvalidation(store, cache, log, client);
    const stream = self.open(undefined);
    try {
      const first = await stream.tryNext(); // the server accepts the stream (or says it cannot)
      if (first) self.apply(first);
    } catch (err) {
      await stream.close().catch(() => undefined);
      await client.close().catch(() => undefined);
      self.closed = true;
      if (err instanceof MongoServerError && NOT_SUPPORTED.has(Number(err.code))) {
        log.warn({ code: err.code }, 'response cache invalidation is unavailable: the store cannot run change streams; cached answers expire at their max-age');
        return self;
      }
      throw err;
    }
    cache.keepLonger(ttl);
    self.running = self.run(stream);
    return self;
  }

  async stop(): Promise<void> {
    if (this.closed && !this.running) return;
    this.closed = true;
    this.cache.keepLonger(undefined);
    // The client is closed before the loop is awaited: whatever the stream waits on (a getMore, a server
    // selection while the store is away) then ends at once.
    await this.stream?.close().catch(() => undefined);
    await this.client.close().catch(() => undefined);
    await this.running;
  }

  private open(resumeAfter: ResumeToken | undefined): ChangeStream<Document> {
    const pipeline = [
      { $match: { $or: [{ 'ns.coll': { $in: SHOWN_COLLECTIONS } }, { operationType: { $nin: [...DATA_EVENTS] } }] } },
      { $project: { ns: 1, operationType: 1 } },
    ];
    this.stream = this.client.db(this.store.db.databaseName).watch(pipeline, { maxAwaitTimeMS: 500, ...(resumeAfter ? { resumeAfter } : {}) });
    return this.stream;
  }

  private async run(first: ChangeStream<Document>): Promise<void> {
    let stream = first;
    let token: ResumeToken | undefined;
    /** The stream was opened anew without a resume token: writes made before it started were not seen. */
    let blind = false;
    while (!this.closed) {
      try {
        if (blind) {
          const change = await stream.tryNext(); // the server has the stream from here on
          // Answers cached between the failure's eviction and now may show writes nobody reported.
          this.cache.evict(() => true);
          blind = false;
          if (change) this.apply(change);
        }
        for await (const change of stream) this.apply(change);
        token = stream.resumeToken ?? token;
      } catch (err) {
        if (this.closed) return;
        token = stream.resumeToken ?? token;
        // What the stream missed is unknown: nothing stored can be trusted past its max-age.
        this.cache.evict(() => true);
        this.log.warn({ err }, 'response cache invalidation stream failed; reopening');
        await stream.close().catch(() => undefined);
        if (err instanceof MongoServerSelectionError) {
          await this.client.close().catch(() => undefined);
          // stop() may have closed the old client meanwhile: a new one would then never be closed.
          if (this.closed) return;
          this.client = this.store.watchClient();
        }
        await new Promise((r) => setTimeout(r, RETRY_MS));
        if (err instanceof MongoServerError && !err.hasErrorLabel('ResumableChangeStreamError')) token = undefined;
      }
      if (this.closed) return;
      blind = token === undefined;
      stream = this.open(token);
    }
  }

  private apply(change: ChangeStreamDocument<Document>): void {
    const coll = 'ns' in change && change.ns && 'coll' in change.ns ? change.ns.coll : undefined;
    const evicted = DATA_EVENTS.has(change.operationType) && coll ? evictFor(this.cache, coll) : this.cache.evict(() => true);
    if (evicted > 0 && this.log.isLevelEnabled('debug')) this.log.debug({ collection: coll, operation: change.operationType, evicted }, 'response cache entries evicted');
  }
}
