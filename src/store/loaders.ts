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
}

/** For loaders built outside a request's Loaders: documents read with their full projection. */
export const outsideAnOperation: LoaderRequest = { projection: (full) => full };

export type LoaderFactory<K, V> = (store: Store, request: LoaderRequest) => DataLoader<K, V>;

/** The API fields per GraphQL type that the running operation selects; set once the operation is known. */
export interface OperationSelection {
  fields?: ReadonlyMap<string, ReadonlySet<string>>;
}

export class Loaders implements LoaderRequest {
  private readonly instances = new Map<LoaderFactory<unknown, unknown>, DataLoader<unknown, unknown>>();
  private builtFor: OperationSelection['fields'];

  constructor(
    private readonly store: Store,
    private readonly operation: OperationSelection = {},
  ) {}

  get<K, V>(factory: LoaderFactory<K, V>): DataLoader<K, V> {
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
    return loader as DataLoader<K, V>;
  }

  /**
   * Forgets what the loaders read, once the request is answered (later loads read again). What a finished request
   * leaves in the old generation stays there, dead or not, until the next full collection, and the scavenger keeps
   * every young object it points to: loader maps reached from there held every document read after, which were then
   * promoted in turn (docs/PERFORMANCE.md, fifth round: half of what each scavenge promoted).
   */
  release(): void {
    for (const loader of this.instances.values()) loader.clearAll();
    this.instances.clear();
  }

  projection(full: Document, type: ProjectedType, always: readonly string[] = []): Document {
    // A type the operation never selects may still be read for a check (does this category exist?): in full.
    return narrowProjection(full, type, this.operation.fields?.get(type.graphqlType), always);
  }
}

/**
 * A loader by id that also tells, without a promise, what its batches have already read: a field resolver whose
 * documents were loaded beforehand (a list's references, preloaded by the operation that read the list) returns
 * them at once instead of one promise per id plus the field's own. `prime` and `clear` are not reflected (`clearAll`
 * is): an id only primed is simply read through `load` as before.
 */
export class IdLoader<T> extends DataLoader<string, T | null> {
  private readonly read: Map<string, T | null>;
  /** What `load` was asked for, by id: `preload` waits for these without asking DataLoader again. */
  private readonly asked = new Map<string, Promise<T | null>>();

  constructor(batch: (ids: readonly string[]) => Promise<Array<T | null>>, options: DataLoader.Options<string, T | null>) {
    const read = new Map<string, T | null>();
    super(async (ids) => {
      const docs = await batch(ids);
      ids.forEach((id, i) => read.set(id, docs[i]!));
      return docs;
    }, options);
    this.read = read;
  }

  override load(id: string): Promise<T | null> {
    let promise = this.asked.get(id);
    if (!promise) this.asked.set(id, (promise = super.load(id)));
    return promise;
  }

  override clear(id: string): this {
    this.asked.delete(id);
    return super.clear(id);
  }

  override clearAll(): this {
    this.asked.clear();
    this.read.clear();
    return super.clearAll();
  }

  /**
   * Has `ids` read, and resolves once they are (a failed read is left to whoever loads them later). Ids already
   * read cost nothing and ids already asked for are awaited as they are: DataLoader answers a second `load` of a key
   * with a new promise that settles only with the next batch, three reactions more per key.
   */
  preload(ids: Iterable<string>, into: Array<Promise<unknown>>): void {
    for (const id of ids) {
      if (this.read.has(id)) continue;
      into.push(this.asked.get(id) ?? this.load(id));
    }
  }

  /** The documents of `ids` (null for absent ones) when a batch has read every one of them, else undefined. */
  readAlready(ids: readonly string[]): Array<T | null> | undefined {
    const docs: Array<T | null> = [];
    for (const id of ids) {
      const doc = this.read.get(id);
      if (doc === undefined) return undefined;
      docs.push(doc);
    }
    return docs;
  }
}

/**
 * A loader of documents by `_id`: one `$in` query per batch, results aligned to the keys, null for misses.
 * `filter` narrows what counts as found (e.g. visibility), `projection` trims what is read.
 */
export function byIdLoader<T extends { _id: string }>(
  fetch: (store: Store, ids: readonly string[], request: LoaderRequest) => Promise<T[]>,
  name = 'byId',
): LoaderFactory<string, T | null> {
  return (store, request) =>
    new IdLoader<T>(
      instrumentBatch(name, async (ids) => {
        const docs = await fetch(store, ids, request);
        const byId = new Map(docs.map((d) => [d._id, d]));
        return ids.map((id) => byId.get(id) ?? null);
      }) as (ids: readonly string[]) => Promise<Array<T | null>>,
      { maxBatchSize: 1000 },
    );
}

/** Wraps a batch function so its batch sizes show in the `dataloader_batch_size` metric. */
export function instrumentBatch<K, V>(name: string, fn: DataLoader.BatchLoadFn<K, V>): DataLoader.BatchLoadFn<K, V> {
  return (keys) => {
    loaderBatchSize.observe({ loader: name }, keys.length);
    return fn(keys);
  };
}
