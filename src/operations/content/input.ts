// Validation of content arguments shared by GraphQL and REST: ids, page sizes, cursors (CONTRACT.md §1, §5).
// Cursors are opaque to clients: base64url of EJSON `[offset, sortKeys]`, so dates survive the trip.
import { EJSON } from 'bson';
import { badRequest } from '../../errors.js';
import type { Position, SortSpec } from '../../store/content/paging.js';

const ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const CHANNEL_ID = /^[0-9]{1,18}$/;

export const isValidId = (id: string): boolean => ID.test(id);

export function checkId(id: string, field = 'id'): string {
  if (!ID.test(id)) throw badRequest(`${field} must be 1 to 64 characters of A-Z a-z 0-9 _ . : -`, [{ field, message: 'Invalid id' }]);
  return id;
}

export function checkChannelId(id: string, field = 'id'): string {
  if (!CHANNEL_ID.test(id)) throw badRequest(`${field} must be 1 to 18 digits`, [{ field, message: 'Invalid channel id' }]);
  return id;
}

export const MAX_PAGE_SIZE = 100;

export function checkFirst(first: number, field = 'first'): number {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw badRequest(`${field} must be between 1 and ${MAX_PAGE_SIZE}`, [{ field, message: 'Out of range' }]);
  }
  return first;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(EJSON.stringify([position.offset, position.keys ?? null], { relaxed: true })).toString('base64url');
}

/** The position a cursor stands for; `order` is the connection's sort, whose keys a keyset cursor must carry. */
export function decodeCursor(cursor: string | null | undefined, order: SortSpec, field = 'after'): Position | null {
  if (cursor === null || cursor === undefined) return null;
  try {
    const [offset, keys] = EJSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'), { relaxed: true }) as [unknown, unknown];
    const n = typeof offset === 'number' ? offset : Number((offset as { valueOf(): unknown })?.valueOf());
    // A cursor of another connection (other sort keys) would silently restart the list: refuse it.
    if (Number.isSafeInteger(n) && n >= 0 && (keys === null || (Array.isArray(keys) && keys.length === order.length))) {
      return keys ? { offset: n, keys: keys as unknown[] } : { offset: n };
    }
  } catch {
    // not one of ours: answered below
  }
  throw badRequest(`${field} is not a cursor this API issued`, [{ field, message: 'Invalid cursor' }]);
}

/** The cursor of the item just before `offset`: how REST's `page`/`limit` enter a connection. */
export const cursorBeforeOffset = (offset: number): string | null => (offset > 0 ? encodeCursor({ offset: offset - 1 }) : null);
