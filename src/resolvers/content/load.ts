// Helpers for field resolvers: load many ids through a request loader and keep what the reader may see.
import type DataLoader from 'dataloader';

/** Loads `ids` in order, drops absent ones, maps the rest. A failed batch rejects (never silently empty). */
export async function loadVisible<D, T>(loader: DataLoader<string, D | null>, ids: readonly string[], map: (doc: D) => T): Promise<T[]> {
  const docs = await Promise.all(ids.map((id) => loader.load(id)));
  return docs.flatMap((d) => (d ? [map(d)] : []));
}

export async function loadOne<D, T>(loader: DataLoader<string, D | null>, id: string | null, map: (doc: D) => T): Promise<T | null> {
  if (!id) return null;
  const doc = await loader.load(id);
  return doc ? map(doc) : null;
}
