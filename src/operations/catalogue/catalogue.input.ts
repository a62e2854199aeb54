// Shared input rules of the catalogue operations (CONTRACT.md §1, §4.3): ids, language codes, filters.
import { badRequest } from '../../errors.js';

export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const LANGUAGE_PATTERN = /^[a-z]{2}$/;

export interface CategoryFilter {
  /** `root` for top-level categories; unset for every level. */
  parentId?: string;
  featured?: boolean;
  /** Defaults to true. */
  available: boolean;
  /** ISO 639-1; unset for the default language. */
  lang: string | null;
}

export function checkId(value: string, field: string): string {
  if (!ID_PATTERN.test(value)) throw badRequest(`${field} must be 1 to 64 characters of A-Z a-z 0-9 _ . : -`, [{ field, message: 'Invalid id' }]);
  return value;
}

/** Null for no language; 400 for anything that is not an ISO 639-1 code. */
export function checkLang(value: string | null | undefined, field = 'lang'): string | null {
  if (value === null || value === undefined) return null;
  if (!LANGUAGE_PATTERN.test(value)) throw badRequest(`${field} must be an ISO 639-1 code such as "de"`, [{ field, message: 'Invalid language code' }]);
  return value;
}

export function checkCategoryFilter(filter: CategoryFilter): CategoryFilter {
  if (filter.parentId !== undefined && filter.parentId !== 'root') checkId(filter.parentId, 'parentId');
  return { ...filter, lang: checkLang(filter.lang) };
}
