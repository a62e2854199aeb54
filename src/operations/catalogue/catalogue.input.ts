// Input rules of the catalogue operations (docs/api.md): language codes and category filters;
// ids, page sizes and cursors follow the content operations' rules (../content/input.ts).
import { badRequest } from '../../errors.js';
import { checkId } from '../content/input.js';

export { checkId };

/** The id rule (1 to 64 characters of `[A-Za-z0-9_.:-]`), as a pattern for the REST schemas (and their OpenAPI document). */
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

/** Null for no language; 400 for anything that is not an ISO 639-1 code. */
export function checkLang(value: string | null | undefined, field = 'lang'): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || !LANGUAGE_PATTERN.test(value))
    throw badRequest(`${field} must be an ISO 639-1 code such as "de"`, [{ field, message: 'Invalid language code' }]);
  return value;
}

/** Paging of the REST category list: categories per page, products embedded per category (docs/api.md). */
export const CATEGORY_PAGING = {
  /** The deepest page; beyond it the answer would be empty at any real size. */
  maxPage: 1_000_000,
  limit: { default: 20, max: 100 },
  productsLimit: { default: 10, max: 100 },
} as const;

export interface CategoryPage {
  /** 1-based. */
  page: number;
  limit: number;
}

const inRange = (value: number, max: number, field: string): number => {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw badRequest(`${field} must be between 1 and ${max}`, [{ field, message: 'Out of range' }]);
  return value;
};

export function checkCategoryPage(page: CategoryPage): CategoryPage {
  return {
    page: inRange(page.page, CATEGORY_PAGING.maxPage, 'page'),
    limit: inRange(page.limit, CATEGORY_PAGING.limit.max, 'limit'),
  };
}

export function checkProductsLimit(value: number): number {
  return inRange(value, CATEGORY_PAGING.productsLimit.max, 'productsLimit');
}

export function checkCategoryFilter(filter: CategoryFilter): CategoryFilter {
  if (filter.parentId !== undefined && filter.parentId !== 'root') checkId(filter.parentId, 'parentId');
  if (filter.featured !== undefined && typeof filter.featured !== 'boolean')
    throw badRequest('featured must be a boolean', [{ field: 'featured', message: 'Invalid boolean' }]);
  if (typeof filter.available !== 'boolean')
    throw badRequest('available must be a boolean', [{ field: 'available', message: 'Invalid boolean' }]);
  return { ...filter, lang: checkLang(filter.lang) };
}
