// Keyset and offset paging over a sorted collection: a position is where the previous page ended.
import type { Document } from 'mongodb';

/** Sort order of a connection; the last field must be unique (`_id`) so positions are total. */
export type SortSpec = ReadonlyArray<readonly [field: string, dir: 1 | -1]>;

/**
 * The item a page starts after: its absolute offset, and (when known) its sort key values.
 * With keys the next page is found by a keyset filter (stable under inserts, index-friendly);
 * with only an offset (REST's `page`/`limit`) it is skipped to.
 */
export interface Position {
  offset: number;
  keys?: unknown[];
}

export interface PageSlice<T> {
  docs: T[];
  /** Offset of docs[0]. */
  startOffset: number;
  hasNextPage: boolean;
}

export const sortDocument = (sort: SortSpec): Record<string, 1 | -1> => Object.fromEntries(sort);

export const sortKeysOf = (sort: SortSpec, doc: Document): unknown[] => sort.map(([field]) => doc[field] ?? null);

/** Documents strictly after `keys` in `sort` order: (a < x) or (a = x and b < y) or ... */
export function keysetFilter(sort: SortSpec, keys: unknown[] | undefined): Document {
  if (!keys || keys.length !== sort.length) return {};
  const branches: Document[] = sort.map(([field, dir], i) => {
    const branch: Document = {};
    for (let j = 0; j < i; j++) branch[sort[j]![0]] = keys[j];
    branch[field] = { [dir === 1 ? '$gt' : '$lt']: keys[i] };
    return branch;
  });
  return { $or: branches };
}

/** How many documents to skip for a position, and the offset the next page starts at. */
export function skipFor(after: Position | null): { skip: number; startOffset: number } {
  if (!after) return { skip: 0, startOffset: 0 };
  return { skip: after.keys ? 0 : after.offset + 1, startOffset: after.offset + 1 };
}

export function slice<T>(docs: T[], first: number, after: Position | null): PageSlice<T> {
  return { docs: docs.slice(0, first), startOffset: skipFor(after).startOffset, hasNextPage: docs.length > first };
}
