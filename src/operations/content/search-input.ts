// Validation of searchArticles' arguments (docs/api.md): the query's size, and the filter turned into a store
// filter plus the values a cursor is bound to. The query text reaches the store only as `$text.$search`'s string.
import type { Document } from 'mongodb';
import { badRequest } from '../../errors.js';
import type { ArticleSearchFilter } from '../../schema/content/article-search.input.js';
import { checkId } from './input.js';
import { wordCount } from './search-terms.js';

/** A query's limits: its characters after trimming, and its words (each is one read of the text index). */
const MAX_QUERY_LENGTH = 200;
const MAX_QUERY_WORDS = 32;
/** Ids per list of the filter. */
const MAX_IDS = 20;

export function checkQuery(query: string): string {
  const text = typeof query === 'string' ? query.trim() : '';
  if (text.length > MAX_QUERY_LENGTH)
    throw badRequest(`query must be at most ${MAX_QUERY_LENGTH} characters`, [{ field: 'query', message: 'Too long' }]);
  const words = wordCount(text);
  if (words === 0) throw badRequest('query must hold at least one word', [{ field: 'query', message: 'Empty' }]);
  if (words > MAX_QUERY_WORDS)
    throw badRequest(`query must hold at most ${MAX_QUERY_WORDS} words`, [
      { field: 'query', message: 'Too many words' },
    ]);
  return text;
}

function checkIds(ids: readonly string[] | null | undefined, field: string): string[] | undefined {
  if (ids == null) return undefined;
  if (ids.length > MAX_IDS)
    throw badRequest(`${field} must list at most ${MAX_IDS} ids`, [{ field, message: 'Too many ids' }]);
  return ids.map((id, i) => checkId(id, `${field}[${i}]`));
}

/** The store filter of a search's filters, and the same values as a cursor's binding (lists as comma-joined ids). */
export function checkSearchFilter(filter: ArticleSearchFilter | null | undefined): {
  filter: Document;
  binding: Array<string | boolean | null>;
} {
  const query: Document = {};
  const lists = {
    categoryIds: checkIds(filter?.categoryIds, 'filter.categoryIds'),
    authorIds: checkIds(filter?.authorIds, 'filter.authorIds'),
    keywordIds: checkIds(filter?.keywordIds, 'filter.keywordIds'),
  };
  for (const [field, ids] of Object.entries(lists)) if (ids) query[field] = { $in: ids };
  const from = filter?.publishedFrom ?? null;
  const before = filter?.publishedBefore ?? null;
  if (from || before)
    query.firstPublishedDate = { ...(from ? { $gte: from } : {}), ...(before ? { $lt: before } : {}) };
  if (filter?.premium != null) query.premium = filter.premium;
  const binding = [
    ...Object.values(lists).map((ids) => ids?.join(',') ?? null),
    from?.toISOString() ?? null,
    before?.toISOString() ?? null,
    filter?.premium ?? null,
  ];
  return { filter: query, binding };
}
