// Loading what an object points at through a request loader, keeping what the reader may see. What a batch has
// already read (store/loaders.ts, IdLoader) is returned at once, without a promise per id.
import type DataLoader from 'dataloader';
import { IdLoader } from '../../store/loaders.js';

/** A field resolver's value: at once when the data is already read, else a promise (graphql-js takes both). */
export type MaybePromise<T> = T | Promise<T>;

function present<D, T>(docs: ReadonlyArray<D | null>, map: (doc: D) => T): T[] {
  const out: T[] = [];
  for (const doc of docs) if (doc) out.push(map(doc));
  return out;
}

/** Loads `ids` in order, drops absent ones, maps the rest. A failed batch rejects (never silently empty). */
export function loadVisible<D, T>(
  loader: DataLoader<string, D | null>,
  ids: readonly string[],
  map: (doc: D) => T,
): MaybePromise<T[]> {
  const read = loader instanceof IdLoader ? (loader as IdLoader<D & { _id: string }>).readAlready(ids) : undefined;
  if (read) return present(read, map);
  return Promise.all(ids.map((id) => loader.load(id))).then((docs) => present(docs, map));
}

export function loadOne<D, T>(
  loader: DataLoader<string, D | null>,
  id: string | null,
  map: (doc: D) => T,
): MaybePromise<T | null> {
  if (!id) return null;
  const read = loader instanceof IdLoader ? (loader as IdLoader<D & { _id: string }>).readAlready([id]) : undefined;
  if (read) return read[0] ? map(read[0]) : null;
  return loader.load(id).then((doc) => (doc ? map(doc) : null));
}
