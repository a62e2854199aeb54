// Turns a page of stored documents into a Relay connection of API objects with opaque cursors.
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import { sortKeysOf, type PageSlice } from '../../store/content/paging.js';
import type { ConnectionCursors } from '../connections.js';

/**
 * An edge whose cursor is signed when a query selects it (an HMAC per edge otherwise spent on every connection:
 * the nested page query reads edges without cursors).
 */
class Edge<D extends object, T> {
  private signed: string | undefined;

  constructor(
    readonly node: T,
    private readonly doc: D,
    private readonly offset: number,
    private readonly cursors: ConnectionCursors,
  ) {}

  get cursor(): string {
    return (this.signed ??= this.cursors.encode({ offset: this.offset, keys: sortKeysOf(this.cursors.sort, this.doc) }));
  }
}

export function connectionOf<D extends object, T>(
  page: PageSlice<D>,
  cursors: ConnectionCursors,
  map: (doc: D) => T,
  count: () => Promise<number>,
): ConnectionShape<T> {
  const edges = page.docs.map((doc, i) => new Edge(map(doc), doc, page.startOffset + i, cursors));
  let counted: Promise<number> | undefined;
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.startOffset > 0,
      get startCursor() {
        return edges[0]?.cursor ?? null;
      },
      get endCursor() {
        return edges.at(-1)?.cursor ?? null;
      },
    },
    // A getter, so the count runs only when the query selects `totalCount`.
    get totalCount() {
      return (counted ??= count());
    },
  };
}
