// Opaque connection cursors: a position (offset and sort keys) as base64url JSON. A cursor that does
// not decode is the client's mistake (400), never a 500.
import { badRequest } from '../../errors.js';
import type { Position } from '../../store/content/paging.js';

export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.offset, position.keys ?? null])).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined, field = 'after'): Position | null {
  if (cursor === null || cursor === undefined) return null;
  try {
    const [offset, keys] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (Number.isSafeInteger(offset) && (offset as number) >= 0 && (keys === null || Array.isArray(keys))) {
      return { offset: offset as number, ...(keys ? { keys: keys as unknown[] } : {}) };
    }
  } catch {
    // fall through
  }
  throw badRequest(`${field} is not a cursor this API issued`, [{ field, message: 'Invalid cursor' }]);
}

export function checkFirst(first: number, field = 'first'): number {
  if (!Number.isInteger(first) || first < 1 || first > 100) throw badRequest(`${field} must be between 1 and 100`, [{ field, message: 'Out of range' }]);
  return first;
}
