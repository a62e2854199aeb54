// Root lists (pages, articles by filter): one indexed, limited find per page of results, counted on demand.
import type { Document, Filter } from 'mongodb';
import type { CollectionName, DocOf } from '../collections.js';
import { findAll } from '../read.js';
import type { Store } from '../store.js';
import { keysetFilter, skipFor, slice, sortDocument, type PageSlice, type Position, type SortSpec } from './paging.js';

export async function findPage<N extends CollectionName>(
  store: Store,
  name: N,
  query: { filter: Document; sort: SortSpec; projection: Document; first: number; after: Position | null },
): Promise<PageSlice<DocOf<N>>> {
  const { skip } = skipFor(query.after);
  const filter = { ...query.filter, ...keysetFilter(query.sort, query.after?.keys) } as Filter<DocOf<N>>;
  const docs = (await findAll(store.collection(name), filter, {
    sort: sortDocument(query.sort),
    skip,
    limit: query.first + 1,
    batchSize: query.first + 1,
    projection: query.projection,
  })) as DocOf<N>[];
  return slice(docs, query.first, query.after);
}

export function countOf<N extends CollectionName>(store: Store, name: N, filter: Document): Promise<number> {
  return store.collection(name).countDocuments(filter as Filter<DocOf<N>>);
}
