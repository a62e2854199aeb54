// Full-text search of articles over their text index (`articles_text`, ./indexes.ts): a ranked page, the count
// and the facets of one search. Every pipeline opens with the `$match` holding `$text`, as MongoDB requires, so
// the same reads run on the embedded engine and on MongoDB.
import { MongoServerError, type Document } from 'mongodb';
import { AppError } from '../../errors.js';
import type { Store } from '../store.js';
import type { ArticleDoc } from './article.doc.js';
import { keysetFilter, slice, type PageSlice, type Position, type SortSpec } from './paging.js';

/** The field a page's documents carry their relevance in (articles have no field of that name). */
export const SCORE = 'searchScore';

/** Most relevant first; equal scores newest first, as every other article list. */
export const searchOrder: SortSpec = [
  [SCORE, -1],
  ['firstPublishedDate', -1],
  ['_id', -1],
];

/** Buckets kept per facet: the largest ones. */
const FACET_SIZE = 20;

/**
 * One search: the text (handed to `$search` as a string, never as an operator), the rest of the filter, and how
 * long the store may spend on each of its reads.
 */
export interface ArticleSearch {
  text: string;
  filter: Document;
  maxTimeMS: number;
}

export type ScoredArticle = ArticleDoc & { [SCORE]: number };

/**
 * The result's stages: the `$text` match first and alone, the rest of the filter after it (MongoDB merges the
 * two; both stores test the other fields on the text index's matches).
 */
const matchOf = (search: ArticleSearch): Document[] => [
  { $match: { $text: { $search: search.text } } },
  { $match: search.filter },
];

/** MongoDB's (and the engine's) code for `$text` without a text index: ours is still being built. */
const INDEX_NOT_FOUND = 27;
/** MongoDB's code for a read stopped at its `maxTimeMS`. */
const MAX_TIME_EXPIRED = 50;

const REFUSALS: Record<number, string> = {
  [INDEX_NOT_FOUND]: 'The search index is still being built over the existing articles; try again in a few minutes',
  [MAX_TIME_EXPIRED]: 'The search ran past its time limit; try fewer or rarer words, or a filter',
};

/**
 * Runs a read of the text index, refusing with a 503 while the index is still being built over the archive or
 * when the store stopped the read at its time limit.
 */
async function overTextIndex<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    const detail = err instanceof MongoServerError && typeof err.code === 'number' ? REFUSALS[err.code] : undefined;
    if (detail) throw new AppError({ status: 503, code: 'SEARCH_UNAVAILABLE', title: 'Service Unavailable', detail });
    throw err;
  }
}

export async function searchPage(
  store: Store,
  search: ArticleSearch,
  page: { projection: Document; first: number; after: Position | null },
): Promise<PageSlice<ScoredArticle>> {
  const after = keysetFilter(searchOrder, page.after?.keys);
  const pipeline: Document[] = [
    ...matchOf(search),
    { $addFields: { [SCORE]: { $meta: 'textScore' } } },
    ...(Object.keys(after).length ? [{ $match: after }] : []),
    { $sort: Object.fromEntries(searchOrder) },
    // Cursors of this connection always carry keys: an offset alone is never skipped to.
    { $limit: page.first + 1 },
    { $project: { ...page.projection, [SCORE]: 1 } },
  ];
  const docs = await overTextIndex(
    store
      .collection('articles')
      .aggregate<ScoredArticle>(pipeline, { maxTimeMS: search.maxTimeMS, batchSize: page.first + 1 })
      .toArray(),
  );
  return slice(docs, page.first, page.after);
}

export async function searchCount(store: Store, search: ArticleSearch): Promise<number> {
  const [row] = await overTextIndex(
    store
      .collection('articles')
      .aggregate<{ n: number }>([...matchOf(search), { $count: 'n' }], { maxTimeMS: search.maxTimeMS })
      .toArray(),
  );
  return row?.n ?? 0;
}

export interface Bucket<V> {
  value: V;
  count: number;
}

export interface SearchFacets {
  total: number;
  categories: Bucket<string>[];
  authors: Bucket<string>[];
  keywords: Bucket<string>[];
  years: Bucket<number>[];
}

const byList = (field: keyof ArticleDoc): Document[] => [
  { $unwind: `$${field}` },
  { $group: { _id: `$${field}`, count: { $sum: 1 } } },
  { $sort: { count: -1, _id: 1 } },
  { $limit: FACET_SIZE },
];

/** Counts over the whole result, in one pass: the total, and the largest buckets by category, author, keyword, year. */
export async function searchFacets(store: Store, search: ArticleSearch): Promise<SearchFacets> {
  const [row] = await overTextIndex(
    store
      .collection('articles')
      .aggregate<{
        total: { n: number }[];
        categories: { _id: string; count: number }[];
        authors: { _id: string; count: number }[];
        keywords: { _id: string; count: number }[];
        years: { _id: number; count: number }[];
      }>(
        [
          ...matchOf(search),
          { $project: { _id: 0, categoryIds: 1, authorIds: 1, keywordIds: 1, firstPublishedDate: 1 } },
          {
            $facet: {
              total: [{ $count: 'n' }],
              categories: byList('categoryIds'),
              authors: byList('authorIds'),
              keywords: byList('keywordIds'),
              years: [
                { $match: { firstPublishedDate: { $type: 'date' } } },
                { $group: { _id: { $year: '$firstPublishedDate' }, count: { $sum: 1 } } },
                { $sort: { _id: -1 } },
              ],
            },
          },
        ],
        { maxTimeMS: search.maxTimeMS },
      )
      .toArray(),
  );
  const buckets = <V>(rows: { _id: V; count: number }[] = []): Bucket<V>[] =>
    rows.map((r) => ({ value: r._id, count: r.count }));
  return {
    total: row?.total[0]?.n ?? 0,
    categories: buckets(row?.categories),
    authors: buckets(row?.authors),
    keywords: buckets(row?.keywords),
    years: buckets(row?.years),
  };
}
