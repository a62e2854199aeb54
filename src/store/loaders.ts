// Per-request DataLoaders. A loader is declared once as a factory; each request builds its own
// instance on first use, so caches never outlive a request and batches never mix viewers.
import DataLoader from 'dataloader';
import { loaderBatchSize } from '../metrics/metrics.js';
import type { Store } from './store.js';

export type LoaderFactory<K, V> = (store: Store) => DataLoader<K, V>;

export class Loaders {
  private readonly instances = new Map<LoaderFactory<unknown, unknown>, DataLoader<unknown, unknown>>();

  constructor(private readonly store: Store) {}

  get<K, V>(factory: LoaderFactory<K, V>): DataLoader<K, V> {
    let loader = this.instances.get(factory as LoaderFactory<unknown, unknown>);
    if (!loader) {
      loader = (factory as LoaderFactory<unknown, unknown>)(this.store);
      this.instances.set(factory as LoaderFactory<unknown, unknown>, loader);
    }
    return loader as DataLoader<K, V>;
  }
}

/**
 * A loader of documents by `_id`: one `$in` query per batch, results aligned to the keys, null for misses.
 * `filter` narrows what counts as found (e.g. visibility), `projection` trims what is read.
 */
export function byIdLoader<T extends { _id: string }>(
  fetch: (store: Store, ids: readonly string[]) => Promise<T[]>,
  name = 'byId',
): LoaderFactory<string, T | null> {
  return (store) =>
    new DataLoader<string, T | null>(
      instrumentBatch(name, async (ids) => {
        const docs = await fetch(store, ids);
        const byId = new Map(docs.map((d) => [d._id, d]));
        return ids.map((id) => byId.get(id) ?? null);
      }),
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
