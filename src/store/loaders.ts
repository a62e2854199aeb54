// Per-request DataLoaders. A loader is declared once as a factory; each request builds its own
// instance on first use, so caches never outlive a request and batches never mix viewers.
import DataLoader from 'dataloader';
import type { Document } from 'mongodb';
import { loaderBatchSize } from '../metrics/metrics.js';
import { narrowProjection, type ProjectedType } from './projection.js';
import type { Store } from './store.js';

/**
 * What the operation selects, at one place in it, of the objects a load returns (graphql/selection.ts makes them):
 * what a loader's follow-up reads ahead below the documents loaded for that place, and nothing more.
 */
export interface Selected {
  /** Whether `field` (an API field of the objects) is selected here. */
  has(field: string): boolean;
  /** What is selected below `field` (every alias of it merged). */
  of(field: string): Selected;
  /** Of a connection: what is selected of its nodes (through `edges { node }` and `nodes`). */
  nodes(): Selected;
}

/** What a loader may ask of the request it serves. */
export interface LoaderRequest {
  /** `full` narrowed to the fields of `type` the request's GraphQL operation selects (`full` outside one). */
  projection(full: Document, type: ProjectedType, always?: readonly string[]): Document;
  /** False once the request is answered (and outside an operation): nothing more is read ahead then. */
  answering(): boolean;
  /** The request's instance of another loader (what a batch's documents point at is read through it). */
  get<L extends DataLoader<never, unknown>>(factory: (store: Store, request: LoaderRequest) => L): L;
  /** The filter a read of `collection` applies for this request: readers' `visible`, or wider for a preview. */
  visible(collection: string, visible: Document): Document;
}

/**
 * What a request may see beyond readers' visibility rules (a preview, src/operations/content/preview.ts): the filter
 * to apply instead of `visible` to a read of `collection`. A constant per collection and request, so that reads merge.
 */
export type Sight = (collection: string, visible: Document) => Document;

/** For loaders built outside a request's Loaders: documents read with their full projection, nothing read ahead. */
export const outsideAnOperation: LoaderRequest = {
  projection: (full) => full,
  answering: () => false,
  get: () => {
    throw new Error('no request loaders outside an operation');
  },
  visible: (_collection, visible) => visible,
};

/** Documents of one batch loaded for one place in the operation, and what that place selects of them. */
export interface Wanted<T> {
  docs: readonly T[];
  selected: Selected;
}

/**
 * Reads what the running operation will ask of a batch's documents next (store/content/loaders.ts), before the
 * batch's keys resolve: the fields resolving them then find it read and answer at once (resolvers/content/load.ts).
 * Each group of documents gets what the place that loaded them selects.
 */
export type FollowUp<T> = (wanted: ReadonlyArray<Wanted<T>>, request: LoaderRequest) => Promise<void>;

/** Adds `selected` to what is wanted of `key`'s documents (one selection nearly always: kept without an array). */
export function want<K>(wanted: Map<K, Selected | Selected[]>, key: K, selected: Selected): void {
  const now = wanted.get(key);
  if (now === undefined) wanted.set(key, selected);
  else if (Array.isArray(now)) {
    if (!now.includes(selected)) now.push(selected);
  } else if (now !== selected) wanted.set(key, [now, selected]);
}

export type LoaderFactory<K, V> = (store: Store, request: LoaderRequest) => DataLoader<K, V>;

/** The API fields per GraphQL type that the running operation selects; set once the operation is known. */
export interface OperationSelection {
  fields?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Every type the operation can show an object of (src/graphql/selection.ts `shownTypes`): what writes evict by. */
  types?: ReadonlySet<string>;
}

export class Loaders implements LoaderRequest {
  private readonly instances = new Map<LoaderFactory<unknown, unknown>, DataLoader<unknown, unknown>>();
  private builtFor: OperationSelection['fields'];
  private released = false;
  private sight: Sight | undefined;

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
   * promoted in turn (half of what each scavenge promoted; docs/decisions.md, "What a finished request leaves behind").
   */
  release(): void {
    this.released = true;
    for (const loader of this.instances.values()) loader.clearAll();
    this.instances.clear();
  }

  /** Lets this request's reads see what `sight` allows (set before anything is read). */
  see(sight: Sight): void {
    this.sight = sight;
  }

  visible(collection: string, visible: Document): Document {
    return this.sight ? this.sight(collection, visible) : visible;
  }

  projection(full: Document, type: ProjectedType, always: readonly string[] = []): Document {
    // A type the operation never selects may still be read for a check (does this category exist?): in full.
    return narrowProjection(full, type, this.operation.fields?.get(type.graphqlType), always);
  }

  answering(): boolean {
    // Once the request is answered nothing more is read ahead: a follow-up still under way (a disabled page's
    // issues, read beside the page) stops at its next step instead of reading for an answer already sent.
    return !this.released;
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
  /** What the places that asked for ids not read yet select of them (their follow-up reads it with them). */
  private readonly wanted: Map<string, Selected | Selected[]>;
  /** The documents of those of `ids` that exist, in any order (one command), and the follow-up's reads. */
  private readonly fetch: (ids: readonly string[]) => Promise<T[]>;

  /** `fetch`: the documents of those of `ids` that exist, in any order (one command). */
  constructor(
    fetch: (ids: readonly string[]) => Promise<T[]>,
    private readonly options: DataLoader.Options<string, T | null>,
    followUp?: FollowUp<T>,
    request: LoaderRequest = outsideAnOperation,
  ) {
    const read = new Map<string, T | null | Reading>();
    const wanted = new Map<string, Selected | Selected[]>();
    const fetchAndFollow = followUp
      ? async (ids: readonly string[]): Promise<T[]> => {
          const docs = await fetch(ids);
          const groups = wantedOf(wanted, docs);
          if (wanted.size > 0) for (const id of ids) wanted.delete(id);
          if (groups.length > 0) await readAhead(followUp, groups, request);
          return docs;
        }
      : fetch;
    super(async (ids) => {
      const docs = await fetchAndFollow(ids);
      for (const doc of docs) read.set(doc._id, doc);
      return ids.map((id) => {
        const doc = read.get(id);
        if (doc !== undefined && !(doc instanceof Reading)) return doc;
        read.set(id, null);
        return null;
      });
    }, options);
    this.read = read;
    this.wanted = wanted;
    this.fetch = fetchAndFollow;
  }

  /** `selected`: what the place asking selects of the document, read ahead with it if it is not read yet. */
  override load(id: string, selected?: Selected): Promise<T | null> {
    let promise = this.asked.get(id);
    if (promise) return promise;
    const doc = this.read.get(id);
    if (selected && (doc === undefined || doc instanceof Reading)) want(this.wanted, id, selected);
    if (doc instanceof Reading) {
      promise = doc.promise.then(() => {
        const now = this.read.get(id);
        return now === undefined || now instanceof Reading ? super.load(id) : now;
      });
    } else promise = doc === undefined ? super.load(id) : Promise.resolve(doc);
    this.asked.set(id, promise);
    return promise;
  }

  /**
   * Records what a place in the operation selects of the documents of `ids` not read yet: the read that brings them
   * (`readNow`, a batch, or one under way whose documents have not come back) reads that ahead with them.
   */
  wantAhead(ids: Iterable<string>, selected: Selected): void {
    for (const id of ids) {
      const doc = this.read.get(id);
      if (doc === undefined || doc instanceof Reading) want(this.wanted, id, selected);
    }
  }

  override clear(id: string): this {
    this.asked.delete(id);
    this.read.delete(id);
    this.wanted.delete(id);
    return super.clear(id);
  }

  override clearAll(): this {
    this.asked.clear();
    this.read.clear();
    this.wanted.clear();
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
      for (let from = 0; from < missing.length; from += size)
        parts.push(this.readPart(missing.length <= size ? missing : missing.slice(from, from + size), marker));
      marker.promise = parts.length === 1 ? parts[0]! : Promise.all(parts).then(ignore);
      waits.add(marker.promise);
    }
    if (waits.size === 0) return settled;
    return waits.size === 1
      ? waits.values().next().value!.then(ignore, ignore)
      : Promise.all(waits).then(ignore, ignore);
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
      instrumentBatch(name, (ids) => fetch(store, ids, request)),
      { maxBatchSize: 1000 },
      followUp,
      request,
    );
}

/** A batch's documents grouped by what the places that asked for them select (a document in each group it is wanted by). */
function wantedOf<T extends { _id: string }>(
  wanted: ReadonlyMap<string, Selected | Selected[]>,
  docs: readonly T[],
): Array<Wanted<T>> {
  if (wanted.size === 0) return [];
  const groups = new Map<Selected, T[]>();
  const add = (selected: Selected, doc: T): void => {
    const docs = groups.get(selected);
    if (docs) docs.push(doc);
    else groups.set(selected, [doc]);
  };
  for (const doc of docs) {
    const selected = wanted.get(doc._id);
    if (selected === undefined) continue;
    if (Array.isArray(selected)) for (const one of selected) add(one, doc);
    else add(selected, doc);
  }
  const found: Array<Wanted<T>> = [];
  for (const [selected, docs] of groups) found.push({ docs, selected });
  return found;
}

/**
 * Runs a follow-up without letting it fail the batch: what it could not read (a store error, a document of an
 * unexpected shape) the fields read again when they run, and report there, each for its own part of the answer.
 */
export async function readAhead<T>(
  followUp: FollowUp<T>,
  wanted: ReadonlyArray<Wanted<T>>,
  request: LoaderRequest,
): Promise<void> {
  try {
    await followUp(wanted, request);
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
