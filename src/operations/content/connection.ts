// Turns a page of stored documents into a Relay connection of API objects with opaque cursors.
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import { sortKeysOf, type PageSlice } from '../../store/content/paging.js';
import type { ConnectionCursors } from '../connections.js';

export function connectionOf<D extends object, T>(
  page: PageSlice<D>,
  cursors: ConnectionCursors,
  map: (doc: D) => T,
  count: () => Promise<number>,
): ConnectionShape<T> {
  const edges = page.docs.map((doc, i) => ({
    cursor: cursors.encode({ offset: page.startOffset + i, keys: sortKeysOf(cursors.sort, doc) }),
    node: map(doc),
  }));
  let counted: Promise<number> | undefined;
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.startOffset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    // A getter, so the count runs only when the query selects `totalCount`.
    get totalCount() {
      return (counted ??= count());
    },
  };
}
