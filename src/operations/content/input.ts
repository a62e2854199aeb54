// Validation of content arguments shared by GraphQL and REST: ids, page sizes (docs/api.md). Cursors are
// signed and checked by src/cursors/codec.ts.
import { badRequest } from '../../errors.js';

const ID = /^[A-Za-z0-9_.:-]{1,64}$/;
const CHANNEL_ID = /^[0-9]{1,18}$/;

// Each check asks for a string first: a value that reaches a store filter is never an object or an operator,
// whatever a caller's types say it is.
const isValidId = (id: string): boolean => typeof id === 'string' && ID.test(id);

export function checkId(id: string, field = 'id'): string {
  if (!isValidId(id))
    throw badRequest(`${field} must be 1 to 64 characters of A-Z a-z 0-9 _ . : -`, [{ field, message: 'Invalid id' }]);
  return id;
}

export function checkChannelId(id: string, field = 'id'): string {
  if (typeof id !== 'string' || !CHANNEL_ID.test(id))
    throw badRequest(`${field} must be 1 to 18 digits`, [{ field, message: 'Invalid channel id' }]);
  return id;
}

const MAX_PAGE_SIZE = 100;

export function checkFirst(first: number, field = 'first'): number {
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw badRequest(`${field} must be between 1 and ${MAX_PAGE_SIZE}`, [{ field, message: 'Out of range' }]);
  }
  return first;
}
