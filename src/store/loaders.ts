// Per-request DataLoaders. A loader is declared once as a factory; each request builds its own
// instance on first use, so caches never outlive a request and batches never mix viewers.
import DataLoader from 'dataloader';
import type { Document } from 'mongodb';
import { loaderBatchSize } from '../metrics/metrics.js';
import { narrowProjection, type ProjectedType } from './projection.js';
import type { Store } from './store.js';

/** What a loader may ask of the request it serves. */
export interface LoaderRequest {
  /** `full` narrowed to the fields of `type` the request's GraphQL operation selects (`full` outside one). */
  projection(full: Document, type: ProjectedType, always?: readonly string[]): Document;
  /** The fields of the GraphQL type `typeName` the running operation selects; undefined outside an operation. */
  selection(typeName: string): ReadonlySet<string> | undefined;
  /** The request's instance of another loader (what a batch's documents point at is read through it). */
  get<L extends DataLoader<never, unknown>>(factory: (store: Store, request: LoaderRequest) => L): L;
}

/** For loaders built outside a request's Loaders: documents read with their full projection, nothing read ahead. */
export const outsideAnOperation: LoaderRequest = {
  projection: (full) => full,
  selection: () => undefined,
  get: () => {
    throw new Error('no request loaders outside an operation');
  },
};

/**
 * Reads what the running operation will ask of a batch's documents next (store/content/follow.ts), before the
 * batch's keys resolve: the fields resolving them then find it read and answer at once (resolvers/content/load.ts).
 */
export type FollowUp<T> = (docs: readonly T[], request: LoaderRequest) => Promise<void>;

export type LoaderFactory<K, V> = (store: Store, request: LoaderRequest) => DataLoader<K, V>;

/** The API fields per GraphQL type that the running operation selects; set once the operation is known. */
export interface OperationSelection {
  fields?: ReadonlyMap<string, ReadonlySet<string>>;
}

export class Loaders implements LoaderRequest {
  private readonly instances = new Map<LoaderFactory<unknown, unknown>, DataLoader<unknown, unknown>>();
  private builtFor: OperationSelection['fields'];
  private released = false;

  constructor(
    private readonly store: Store,
    private readonly operation: OperationSelection = {},
  ) {}

  get<L extends DataLoader<never, unknown>>(factory: (store: Store, request: LoaderRequest) => L): L {
    // Loaders built for one operation read that operation's fields: a second operation on the same request
    // (rare: a REST shim running two) gets loaders of its own.
    if (this.operation.fields !== this.builtFor) {
      this.instances.clear();
      this.builtFor = this.operation.fields;
    }
    let loader = this.instances.get(factory as LoaderFactory<unknown, unknown>);
    if (!loader) {
      loader = (factory as LoaderFactory<unknown, unknown>)(this.store, this);
      this.instances.set(factory as LoaderFactory<unknown, unknown>, loader);
    }
    return loader as unknown as L;
  }

  /**
   * Forgets what the loaders read, once the request is answered (later loads read again). What a finished request
   * leaves in the old generation stays there, dead or not, until the next full collection, and the scavenger keeps
   * every young object it points to: loader maps reached from there held every document read after, which were then
   * promoted in turn (docs/PERFORMANCE.md, fifth round: half of what each scavenge promoted).
   */
  release(): void {
    this.released = true;
    for (const loader of this.instances.values()) loader.clearAll();
    this.instances.clear();
  }

  projection(full: Document, type: ProjectedType, always: readonly string[] = []): Document {
    // A type the operation never selects may still be read for a check (does this category exist?): in full.
    return narrowProjection(full, type, this.operation.fields?.get(type.graphqlType), always);
  }

  selection(typeName: string): ReadonlySet<string> | undefined {
    // Once the request is answered nothing more is read ahead: a follow-up still under way (a disabled page's
    // issues, read beside the page) stops at its next step instead of reading for an answer already sent.
    return this.released ? undefined : this.operation.fields?.get(typeName);
  }
}

const settled = Promise.resolve();
const ignore = (): void => undefined;

/** Marks the ids one `readNow` is reading, in the map of what was read: one object and one promise for them all. */
class Reading {
  promise: Promise<void> = settled;
}

/**
 * A loader by id that also tells, without a promise, what it has already read: a field resolver whose documents were
 * read beforehand (what a batch's documents point at, read by its follow-up) returns them at once instead of one
 * promise per id plus the field's own. `clear` and `clearAll` forget what was read; `prime` is not reflected (an id
 * only primed is simply read through `load` as before).
 */
export class IdLoader<T extends { _id: string }> extends DataLoader<string, T | null> {
  /** What was read, by id (null: absent), or the read under way. */
  private readonly read: Map<string, T | null | Reading>;
  /** What `load` was asked for, by id, and what it answered. */
  private readonly asked = new Map<string, Promise<T | null>>();

  /** `fetch`: the documents of those of `ids` that exist, in any order (one command). */
  constructor(
    private readonly fetch: (ids: readonly string[]) => Promise<T[]>,
    private readonly options: DataLoader.Options<string, T | null>,
  ) {
    const read = new Map<string, T | null | Reading>();
    super(async (ids) => {
      const docs = await fetch(ids);
      for (const doc of docs) read.set(doc._id, doc);
      return ids.map((id) => {
        const doc = read.get(id);
        if (doc !== undefined && !(doc instanceof Reading)) return doc;
        read.set(id, null);
        return null;
      });
    }, options);
    this.read = read;
  }

  override load(id: string): Promise<T | null> {
    let promise = this.asked.get(id);
    if (promise) return promise;
    const doc = this.read.get(id);
    if (doc instanceof Reading) {
      promise = doc.promise.then(() => {
        const now = this.read.get(id);
        return now === undefined || now instanceof Reading ? super.load(id) : now;
      });
    } else promise = doc === undefined ? super.load(id) : Promise.resolve(doc);
    this.asked.set(id, promise);
    return promise;
  }

  override clear(id: string): this {
    this.asked.delete(id);
    this.read.delete(id);
    return super.clear(id);
  }

  override clearAll(): this {
    this.asked.clear();
    this.read.clear();
    return super.clearAll();
  }

  /**
   * Reads those of `ids` not read yet now, in batches of the loader's size, with the function DataLoader's batches
   * call (the same commands); resolves once every one of `ids` is read. For a follow-up, which has every id of a
   * level at once and so needs no scheduling: no promise per id (DataLoader makes one for each key it is given,
   * and waiting on them one more each). Never rejects: a failed read is left to whoever loads the ids later.
   */
  readNow(ids: Iterable<string>): Promise<void> {
    const marker = new Reading();
    const missing: string[] = [];
    const waits = new Set<Promise<unknown>>();
    for (const id of ids) {
      const doc = this.read.get(id);
      if (doc === marker) continue;
      if (doc instanceof Reading) waits.add(doc.promise);
      else if (doc === undefined) {
        const asked = this.asked.get(id);
        if (asked) waits.add(asked);
        else {
          this.read.set(id, marker);
          missing.push(id);
        }
      }
    }
    if (missing.length > 0) {
      const size = this.options.maxBatchSize ?? Infinity;
      const parts: Array<Promise<void>> = [];
      for (let from = 0; from < missing.length; from += size) parts.push(this.readPart(missing.length <= size ? missing : missing.slice(from, from + size), marker));
      marker.promise = parts.length === 1 ? parts[0]! : Promise.all(parts).then(ignore);
      waits.add(marker.promise);
    }
    if (waits.size === 0) return settled;
    return waits.size === 1 ? waits.values().next().value!.then(ignore, ignore) : Promise.all(waits).then(ignore, ignore);
  }

  private readPart(ids: readonly string[], marker: Reading): Promise<void> {
    return this.fetch(ids).then(
      (docs) => {
        for (const doc of docs) if (this.read.get(doc._id) === marker) this.read.set(doc._id, doc);
        for (const id of ids) if (this.read.get(id) === marker) this.read.set(id, null);
      },
      () => {
        for (const id of ids) if (this.read.get(id) === marker) this.read.delete(id);
      },
    );
  }

  /** The documents of `ids` (null for absent ones) when every one of them has been read, else undefined. */
  readAlready(ids: readonly string[]): Array<T | null> | undefined {
    const docs: Array<T | null> = [];
    for (const id of ids) {
      const doc = this.read.get(id);
      if (doc === undefined || doc instanceof Reading) return undefined;
      docs.push(doc);
    }
    return docs;
  }
}

/**
 * A loader of documents by `_id`: one `$in` query per batch, results aligned to the keys, null for misses.
 * `filter` narrows what counts as found (e.g. visibility), `projection` trims what is read. `followUp` reads what
 * the documents point at before the keys resolve (it must not reject: what it fails to read is read again later).
 */
export function byIdLoader<T extends { _id: string }>(
  fetch: (store: Store, ids: readonly string[], request: LoaderRequest) => Promise<T[]>,
  name = 'byId',
  followUp?: FollowUp<T>,
): (store: Store, request: LoaderRequest) => IdLoader<T> {
  return (store, request) =>
    new IdLoader<T>(
      instrumentBatch(name, async (ids) => {
        const docs = await fetch(store, ids, request);
        if (followUp && docs.length > 0) await readAhead(followUp, docs, request);
        return docs;
      }),
      { maxBatchSize: 1000 },
    );
}

/**
 * Runs a follow-up without letting it fail the batch: what it could not read (a store error, a document of an
 * unexpected shape) the fields read again when they run, and report there, each for its own part of the answer.
 */
export async function readAhead<T>(followUp: FollowUp<T>, docs: readonly T[], request: LoaderRequest): Promise<void> {
  try {
    await followUp(docs, request);
  } catch {
    // read again, and reported, by the fields that need it
  }
}

/** Wraps a batch function so its batch sizes show in the `dataloader_batch_size` metric. */
export function instrumentBatch<K, R>(name: string, fn: (keys: readonly K[]) => R): (keys: readonly K[]) => R {
  return (keys) => {
    loaderBatchSize.observe({ loader: name }, keys.length);
    return fn(keys);
  };
}
