// The one owner of the MongoClient: connects (to MONGODB_URI or an in-process embedded engine),
// creates indexes, hands out typed collections, and closes everything on shutdown.
import { MongoClient, MongoServerError, type Collection, type Db } from 'mongodb';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { CollectionName, DocOf } from './collections.js';
import type { RunningEngine } from '@gateway/engine';
import type { EngineThread } from '@gateway/engine/thread';
import { startEmbeddedEngine, type StartingEngine } from './engine.js';
import { isIndexOf, isTextIndex } from './index-def.js';
import { allIndexes, type IndexDef } from './indexes.js';
import { instrumentStore } from '../metrics/store-metrics.js';

export interface StoreStatus {
  reachable: boolean;
  latencyMs: number | null;
  embedded: boolean;
}

/** How long a driver waits for the handshake of a store that may be slow to give one (see Store.open). */
const PATIENT_HANDSHAKE_MS = 10_000;

/** MongoDB's code for a collection that does not exist (listIndexes on one). */
const NAMESPACE_NOT_FOUND = 26;
/** MongoDB's code for dropping an index that does not exist. */
const INDEX_NOT_FOUND = 27;

export class Store {
  /** The driver's collection objects, made once per name (each `db.collection()` resolves options anew). */
  private readonly collections = new Map<string, Collection<never>>();

  private constructor(
    readonly client: MongoClient,
    readonly db: Db,
    private readonly engine: RunningEngine | EngineThread | undefined,
    private readonly timeoutMs: number,
    /** The connection string the client was made from (for watchClient). */
    private readonly uri: string,
  ) {}

  /**
   * A client of its own, with no socket timeout, for long-lived commands: change streams (src/live), whose
   * waiting getMores stay out of the request pool, the command metrics and the per-request command counts, and
   * index builds over existing documents. The caller closes it.
   */
  watchClient(): MongoClient {
    return new MongoClient(this.uri, {
      // A store that has just restarted, or is busy (a start under load), may be slow to answer its first
      // handshakes: give it time. Nothing a client waits for is behind these; requests keep the store timeout.
      serverSelectionTimeoutMS: Math.max(this.timeoutMs, PATIENT_HANDSHAKE_MS),
      connectTimeoutMS: Math.max(this.timeoutMs, PATIENT_HANDSHAKE_MS),
      socketTimeoutMS: 0,
      heartbeatFrequencyMS: 2_000,
      maxPoolSize: 4,
      appName: 'gateway-live',
    });
  }

  /**
   * Connects to MONGODB_URI, or to the embedded engine: the one given (started earlier by the process entry, see
   * engine.ts) or one started here.
   */
  static async open(
    config: Config['store'],
    log: Logger,
    opts: {
      indexes?: IndexDef[];
      engine?: StartingEngine;
      /** How long a command may wait for its answer; 0 for no limit (the seed's bulk writes under load). */
      socketTimeoutMs?: number;
    } = {},
  ): Promise<Store> {
    let engine: RunningEngine | EngineThread | undefined;
    let uri = config.uri;
    if (!uri) {
      const starting = opts.engine ?? startEmbeddedEngine(config, (msg, fields) => log.info(fields ?? {}, msg));
      try {
        engine = await starting.running;
      } catch (err) {
        throw new Error(
          `the embedded store engine did not start (${starting.dbPath ?? 'in memory'}): ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      uri = engine.socketUri ?? engine.uri;
      log.info(
        { dbPath: starting.dbPath ?? '(memory)', port: engine.port, thread: starting.thread },
        'embedded store engine started',
      );
    }
    const client = new MongoClient(uri, {
      serverSelectionTimeoutMS: config.timeoutMs,
      // The driver's monitor clears the pool when a handshake takes longer than this. The embedded engine runs in
      // this process (its thread stopping ends the process, see boot.ts): a late answer means its thread is
      // reading pages from a cold disk (a start after a reboot holds it for a second or two at a time), not that
      // it has gone, so it gets the time a restarted store gets.
      connectTimeoutMS: engine ? Math.max(config.timeoutMs, PATIENT_HANDSHAKE_MS) : config.timeoutMs,
      socketTimeoutMS: opts.socketTimeoutMs ?? 30_000,
      maxPoolSize: 50,
      appName: 'gateway',
      monitorCommands: true,
      // Notice a store that came back within a couple of seconds, not the default ten.
      heartbeatFrequencyMS: 2_000,
    });
    instrumentStore(client);
    try {
      await client.connect();
    } catch (err) {
      await engine?.close();
      throw err;
    }
    const store = new Store(client, client.db(config.dbName), engine, config.timeoutMs, uri);
    await store.ensureIndexes(opts.indexes ?? allIndexes);
    store.logIndexBuilds(log);
    return store;
  }

  /** Opens a store on an existing client/database (tests). */
  static async onDb(
    client: MongoClient,
    db: Db,
    opts: { indexes?: IndexDef[]; timeoutMs?: number } = {},
  ): Promise<Store> {
    // The driver keeps the connection string it was given; tests hand over clients made from a plain URI.
    const uri = (client as unknown as { s: { url: string } }).s.url;
    const store = new Store(client, db, undefined, opts.timeoutMs ?? 2000, uri);
    await store.ensureIndexes(opts.indexes ?? allIndexes);
    return store;
  }

  get embedded(): boolean {
    return this.engine !== undefined;
  }

  /** Resolves with the reason if the embedded engine's thread stops on its own: the store is gone for good. */
  get engineFailure(): Promise<Error> | undefined {
    return this.engine && 'failed' in this.engine ? this.engine.failed : undefined;
  }

  collection<N extends CollectionName>(name: N): Collection<DocOf<N>> {
    let collection = this.collections.get(name) as Collection<DocOf<N>> | undefined;
    if (!collection) {
      collection = this.db.collection<DocOf<N>>(name);
      this.collections.set(name, collection as unknown as Collection<never>);
    }
    return collection;
  }

  async ensureIndexes(defs: IndexDef[]): Promise<void> {
    const byCollection = new Map<string, IndexDef[]>();
    for (const def of defs.filter((d) => !d.deferred))
      byCollection.set(def.collection, [...(byCollection.get(def.collection) ?? []), def]);
    // One command per collection, all on their way at once: at start-up these are a round trip each, and on a
    // store that has them already each is only a check.
    await Promise.all([...byCollection].map(([name, list]) => this.createIndexes(name, list)));
    await Promise.all(defs.filter((d) => d.deferred).map((def) => this.ensureDeferred(def)));
  }

  /**
   * Drops those of the deferred indexes `defs` whose collection is empty, and returns them: a bulk load (the seed)
   * then builds them once over what it wrote (ensureIndexes, then indexBuilds), in key order, instead of every
   * insert keeping them entry by entry.
   */
  async setAsideDeferred(defs: IndexDef[]): Promise<IndexDef[]> {
    const aside: IndexDef[] = [];
    for (const def of defs.filter((d) => d.deferred)) {
      const collection = this.db.collection(def.collection);
      if ((await collection.estimatedDocumentCount()) > 0) continue;
      const name = def.options?.name ?? JSON.stringify(def.key);
      await collection.dropIndex(name).catch((err: unknown) => {
        if (!(err instanceof MongoServerError && (err.code === INDEX_NOT_FOUND || err.code === NAMESPACE_NOT_FOUND)))
          throw err;
      });
      aside.push(def);
    }
    return aside;
  }

  /**
   * Index builds left running after the store opened (deferred indexes on collections that had documents), each
   * settled with its index's name and the error it ended with, if any.
   */
  get indexBuilds(): Promise<Array<{ name: string; error?: unknown }>> {
    return Promise.all(this.building);
  }

  private readonly building: Array<Promise<{ name: string; error?: unknown }>> = [];

  /** Indexes dropped at start because the service's own list replaced them (logged with the builds). */
  private readonly replaced: string[] = [];

  private logIndexBuilds(log: Logger): void {
    if (this.building.length === 0) return;
    const started = Date.now();
    log.info(
      { indexes: this.building.length, ...(this.replaced.length ? { replaced: this.replaced } : {}) },
      'building indexes over existing documents; reads needing them are refused until built',
    );
    // Each as it ends: a failed one is known at once, not after the longest build.
    for (const build of this.building)
      void build.then(({ name, error }) => {
        // A stop cuts the build's connection, not the build: it goes on (MongoDB) or starts again at the next start.
        if (this.closing) return;
        if (error) log.error({ err: error, index: name }, 'index build failed; it is tried again at the next start');
        else log.info({ index: name, ms: Date.now() - started }, 'index built');
      });
  }

  private createIndexes(name: string, list: IndexDef[], db = this.db): Promise<unknown> {
    return db.collection(name).createIndexes(list.map((d) => ({ key: d.key as Record<string, 1 | -1>, ...d.options })));
  }

  /**
   * Built at once when its collection is empty or it exists already, otherwise left building. An index it
   * replaces (its name with another key, or the collection's one text index) is dropped first: reads needing it
   * are refused until the new one is built.
   */
  private async ensureDeferred(def: IndexDef): Promise<void> {
    const collection = this.db.collection(def.collection);
    const name = def.options?.name ?? JSON.stringify(def.key);
    const existing = await collection
      .listIndexes()
      .toArray()
      .catch((err: unknown) => {
        if (err instanceof MongoServerError && err.code === NAMESPACE_NOT_FOUND) return [];
        throw err;
      });
    if (existing.some((index) => index.name === name && isIndexOf(index, def))) return;
    const text = Object.values(def.key as Record<string, unknown>).includes('text');
    for (const old of existing.filter((index) => index.name === name || (text && isTextIndex(index)))) {
      // Another gateway starting on the same store may have dropped it first.
      await collection.dropIndex(old.name as string).catch((err: unknown) => {
        if (!(err instanceof MongoServerError && err.code === INDEX_NOT_FOUND)) throw err;
      });
      this.replaced.push(old.name as string);
    }
    if ((await collection.estimatedDocumentCount()) === 0) {
      await this.createIndexes(def.collection, [def]);
      return;
    }
    // createIndexes answers when the build ends, minutes later over a large archive: on a client with no socket
    // timeout (the request pool's 30 s would report a build that goes on as failed).
    const client = this.watchClient();
    this.builders.add(client);
    this.building.push(
      this.createIndexes(def.collection, [def], client.db(this.db.databaseName))
        .then(
          () => ({ name }),
          (error: unknown) => ({ name, error }),
        )
        .finally(() => {
          this.builders.delete(client);
          void client.close();
        }),
    );
  }

  private readonly builders = new Set<MongoClient>();

  async status(): Promise<StoreStatus> {
    const started = performance.now();
    try {
      await this.db.command({ ping: 1 }, { timeoutMS: this.timeoutMs });
      return {
        reachable: true,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        embedded: this.embedded,
      };
    } catch {
      return { reachable: false, latencyMs: null, embedded: this.embedded };
    }
  }

  private closing = false;

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([...this.builders].map((client) => client.close()));
    await this.client.close();
    await this.engine?.close();
  }
}
