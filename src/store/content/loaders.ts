// Per-request loaders of content documents by id or slug: one `$in` query per batch, visibility and
// projection applied in the query, nulls for misses and for what a reader may not see.
import DataLoader from 'dataloader';
import type { Document, Filter } from 'mongodb';
import type { CollectionName, DocOf } from '../collections.js';
import { byIdLoader, type LoaderFactory } from '../loaders.js';
import type { ProjectedType } from '../projection.js';
import { findAll } from '../read.js';
import type { Store } from '../store.js';
import * as p from './projections.js';
import { visibleArticle, visibleCategory, visibleIssue, visibleQuiz, visibleVideo } from './visibility.js';

/** find with `limit` = `batchSize` = the number of keys: the answer always fits one reply (no getMore). */
export function findIn<N extends CollectionName>(
  store: Store,
  name: N,
  field: string,
  values: readonly unknown[],
  filter: Document,
  projection: Document,
): Promise<DocOf<N>[]> {
  const query = { ...filter, [field]: { $in: [...values] } } as Filter<DocOf<N>>;
  const size = Math.max(1, values.length);
  return findAll(store.collection(name), query, { projection, limit: size, batchSize: size }) as Promise<DocOf<N>[]>;
}

/**
 * `type`: read only what the operation's selection of that API type needs (store/projection.ts), plus `always`
 * (what the operation reading them decides on).
 */
function byId<N extends CollectionName>(name: N, projection: Document, filter: Document = {}, type?: ProjectedType, always: readonly string[] = []) {
  return byIdLoader<DocOf<N> & { _id: string }>(
    (store, ids, request) =>
      findIn(store, name, '_id', ids, filter, type ? request.projection(projection, type, always) : projection) as Promise<Array<DocOf<N> & { _id: string }>>,
  );
}

/** Loader of documents by a unique field other than `_id` (slugs). */
function byUniqueField<N extends CollectionName>(
  name: N,
  field: string,
  projection: Document,
  filter: Document = {},
  type?: ProjectedType,
): LoaderFactory<string, DocOf<N> | null> {
  return (store, request) =>
    new DataLoader<string, DocOf<N> | null>(
      async (values) => {
        const docs = await findIn(store, name, field, values, filter, type ? request.projection(projection, type, [field]) : projection);
        const byValue = new Map(docs.map((d) => [(d as Document)[field] as string, d]));
        return values.map((v) => byValue.get(v) ?? null);
      },
      { maxBatchSize: 1000 },
    );
}

/** Pages regardless of `enabled`: callers decide between 403 and absent. */
export const pageById = byId('pages', p.pageProjection);
/** `pageId` always: an issue is visible only while its page is enabled (operations/content/issues.ts). */
export const issueById = byId('issues', p.issueProjection, visibleIssue, p.issueType, ['pageId']);
export const articleById = byId('articles', p.articleProjection, visibleArticle, p.articleType);
export const articleBySlug = byUniqueField('articles', 'slug', p.articleProjection, visibleArticle, p.articleType);
export const contentTypeById = byId('contentTypes', p.contentTypeProjection);
export const sponsorById = byId('sponsors', p.sponsorProjection);
export const categoryById = byId('contentCategories', p.categoryProjection, visibleCategory, p.categoryType);
export const categoryBySlug = byUniqueField('contentCategories', 'slug', p.categoryProjection, visibleCategory, p.categoryType);
export const categoryTypeById = byId('categoryTypes', p.categoryTypeProjection);
export const authorById = byId('authors', p.authorProjection, {}, p.authorType);
export const keywordById = byId('keywords', p.keywordProjection, {}, p.keywordType);
export const keywordBySlug = byUniqueField('keywords', 'slug', p.keywordProjection, {}, p.keywordType);
export const videoById = byId('videos', p.videoProjection, visibleVideo);
export const liveBlogById = byId('liveBlogs', p.liveBlogProjection);
export const pollById = byId('polls', p.pollProjection);
export const quizById = byId('quizzes', p.quizProjection, visibleQuiz);
export const channelById = byId('channels', p.channelProjection);
