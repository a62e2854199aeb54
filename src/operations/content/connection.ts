// Turns a page of stored documents into a Relay connection of API objects with opaque cursors.
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import { sortKeysOf, type PageSlice } from '../../store/content/paging.js';
import type { ConnectionCursors } from '../connections.js';

/**
 * An edge whose cursor is signed when a query selects it (an HMAC per edge otherwise spent on every connection:
 * the nested page query reads edges without cursors).
 */
export class Edge<D extends object, T> {
  private signed: string | undefined;

  constructor(
    readonly node: T,
    protected readonly doc: D,
    private readonly offset: number,
    private readonly cursors: ConnectionCursors,
  ) {}

  get cursor(): string {
    return (this.signed ??= this.cursors.encode({
      offset: this.offset,
      keys: sortKeysOf(this.cursors.sort, this.doc),
    }));
  }
}

/** Where the page sits: its cursors are signed only when selected (see `Edge`). */
export class PageInfoOf {
  constructor(
    readonly hasNextPage: boolean,
    readonly hasPreviousPage: boolean,
    private readonly edges: readonly Edge<object, unknown>[],
  ) {}

  get startCursor(): string | null {
    return this.edges[0]?.cursor ?? null;
  }

  get endCursor(): string | null {
    return this.edges.at(-1)?.cursor ?? null;
  }
}

/**
 * A page of a connection; the count runs only when the query selects `totalCount`.
 *
 * Getters on classes, not in object literals: V8 gives each object literal's accessors a pair of its own, made in
 * the old generation, whose functions capture the page (its documents and API objects); dead after the request,
 * that pair keeps them alive across young-generation collections until the next full one (docs/decisions.md,
 * "What a finished request leaves behind"). A class's getters are made once.
 */
class ConnectionOf<T> implements ConnectionShape<T> {
  readonly #count: () => Promise<number>;
  #counted: Promise<number> | undefined;

  constructor(
    readonly edges: Edge<object, T>[],
    readonly pageInfo: PageInfoOf,
    count: () => Promise<number>,
  ) {
    this.#count = count;
  }

  get totalCount(): Promise<number> {
    return (this.#counted ??= this.#count());
  }
}

export function connectionOf<D extends object, T>(
  page: PageSlice<D>,
  cursors: ConnectionCursors,
  map: (doc: D) => T,
  count: () => Promise<number>,
): ConnectionShape<T> {
  const edges = page.docs.map((doc, i) => new Edge(map(doc), doc, page.startOffset + i, cursors));
  return new ConnectionOf(edges, new PageInfoOf(page.hasNextPage, page.startOffset > 0, edges), count);
}
