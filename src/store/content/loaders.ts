// Per-request loaders of content documents by id or slug: one `$in` query per batch, visibility and
// projection applied in the query, nulls for misses and for what a reader may not see.
import DataLoader from 'dataloader';
import type { Document } from 'mongodb';
import type { CollectionName, DocOf } from '../collections.js';
import {
  byIdLoader,
  type FollowUp,
  type IdLoader,
  type LoaderFactory,
  type LoaderRequest,
  type Wanted,
} from '../loaders.js';
import type { ProjectedType } from '../projection.js';
import { findByKeys } from '../shared-reads.js';
import type { Store } from '../store.js';
import type { ArticleDoc } from './article.doc.js';
import type { IssueDoc } from './page.doc.js';
import * as p from './projections.js';
import { visibleArticle, visibleCategory, visibleIssue, visibleQuiz, visibleVideo } from './visibility.js';

/**
 * find with `batchSize` = the number of keys: the answer fits one reply (no getMore). `field` is unique (`_id`,
 * slugs) and `filter` a constant: the same reads of concurrent requests go out as one command (store/shared-reads.ts).
 */
function findIn<N extends CollectionName>(
  store: Store,
  name: N,
  field: string,
  values: readonly string[],
  filter: Document,
  projection: Document,
): Promise<DocOf<N>[]> {
  return findByKeys(store.collection(name), field, values, filter, projection) as Promise<DocOf<N>[]>;
}

/**
 * `type`: read only what the operation's selection of that API type needs (store/projection.ts), plus `always`
 * (what the operation reading them decides on).
 */
function byId<N extends CollectionName>(
  name: N,
  projection: Document,
  filter: Document = {},
  type?: ProjectedType,
  always: readonly string[] = [],
  followUp?: FollowUp<DocOf<N> & { _id: string }>,
) {
  return byIdLoader<DocOf<N> & { _id: string }>(
    (store, ids, request) =>
      findIn(
        store,
        name,
        '_id',
        ids,
        request.visible(name, filter),
        type ? request.projection(projection, type, always) : projection,
      ) as Promise<Array<DocOf<N> & { _id: string }>>,
    'byId',
    followUp,
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
        const docs = await findIn(
          store,
          name,
          field,
          values,
          request.visible(name, filter),
          type ? request.projection(projection, type, [field]) : projection,
        );
        const byValue = new Map(docs.map((d) => [(d as Document)[field] as string, d]));
        return values.map((v) => byValue.get(v) ?? null);
      },
      { maxBatchSize: 1000 },
    );
}

/** Pages regardless of `enabled`: callers decide between 403 and absent. */
export const pageById = byId('pages', p.pageProjection);
/** `pageId` always: an issue is visible only while its page is enabled (operations/content/issues.ts). */
export const issueById = byId('issues', p.issueProjection, visibleIssue, p.issueType, ['pageId'], readIssueFollowUps);
export const articleById = byId(
  'articles',
  p.articleProjection,
  visibleArticle,
  p.articleType,
  [],
  readArticleReferences,
);
export const articleBySlug = byUniqueField('articles', 'slug', p.articleProjection, visibleArticle, p.articleType);
export const contentTypeById = byId('contentTypes', p.contentTypeProjection);
export const sponsorById = byId('sponsors', p.sponsorProjection);
export const categoryById = byId('contentCategories', p.categoryProjection, visibleCategory, p.categoryType);
export const categoryBySlug = byUniqueField(
  'contentCategories',
  'slug',
  p.categoryProjection,
  visibleCategory,
  p.categoryType,
);
export const categoryTypeById = byId('categoryTypes', p.categoryTypeProjection);
export const authorById = byId('authors', p.authorProjection, {}, p.authorType);
export const keywordById = byId('keywords', p.keywordProjection, {}, p.keywordType);
export const keywordBySlug = byUniqueField('keywords', 'slug', p.keywordProjection, {}, p.keywordType);
export const videoById = byId('videos', p.videoProjection, visibleVideo);
export const liveBlogById = byId('liveBlogs', p.liveBlogProjection);
export const pollById = byId('polls', p.pollProjection);
export const quizById = byId('quizzes', p.quizProjection, visibleQuiz);
export const channelById = byId('channels', p.channelProjection);

// Follow-ups (store/loaders.ts): what the operation selects below a batch of documents, read level by level before
// the batch's keys resolve, one command per level and collection, the commands the field resolvers would have sent
// a moment later. The resolvers then find everything read and answer at once: no promise per object and id, and no
// pending field for the executor to wait on (docs/decisions.md, "Loaders read ahead"). Each group of
// documents gets what the place in the operation that asked for them selects (its `@skip`/`@include` applied), so
// a place that shows only the issues' ids reads nothing below them.

const nothing = Promise.resolve();

type References<D> = ReadonlyArray<{
  field: string;
  loader: () => (store: Store, request: LoaderRequest) => IdLoader<{ _id: string }>;
  ids: (doc: D) => readonly (string | null)[] | undefined;
}>;

/** Article fields that read other documents by id, and where each finds its ids in the stored article. */
const articleReferences: References<ArticleDoc> = [
  { field: 'authors', loader: () => authorById, ids: (a) => a.authorIds },
  { field: 'author', loader: () => authorById, ids: (a) => [a.authorId] },
  { field: 'categories', loader: () => categoryById, ids: (a) => a.categoryIds },
  { field: 'category', loader: () => categoryById, ids: (a) => [a.categoryId] },
  { field: 'keywords', loader: () => keywordById, ids: (a) => a.keywordIds },
];

/** Issue fields that read other documents by id (its contents are read by readIssueContents). */
const issueReferences: References<IssueDoc> = [
  { field: 'authors', loader: () => authorById, ids: (i) => i.authorIds },
  { field: 'page', loader: () => pageById, ids: (i) => [i.pageId] },
  { field: 'poll', loader: () => pollById, ids: (i) => [i.pollId] },
  { field: 'channel', loader: () => channelById, ids: (i) => [i.channelId] },
];

/** What each group selects of `references` for its documents, each collection in one read. */
function readReferences<D>(
  references: References<D>,
  wanted: ReadonlyArray<Wanted<D>>,
  request: LoaderRequest,
  also: Array<Promise<void>> = [],
): Promise<void> {
  const reads = also;
  if (request.answering()) {
    for (const reference of references) {
      let ids: Set<string> | undefined;
      for (const { docs, selected } of wanted) {
        if (!selected.has(reference.field)) continue;
        ids ??= new Set();
        for (const doc of docs) for (const id of reference.ids(doc) ?? []) if (id) ids.add(id);
      }
      if (ids && ids.size > 0) reads.push(request.get(reference.loader()).readNow(ids));
    }
  }
  return reads.length === 0 ? nothing : reads.length === 1 ? reads[0]! : Promise.all(reads).then(() => undefined);
}

/** The authors, categories and keywords each group selects of its articles. */
export function readArticleReferences(
  wanted: ReadonlyArray<Wanted<ArticleDoc>>,
  request: LoaderRequest,
): Promise<void> {
  return readReferences(articleReferences, wanted, request);
}

/** What each group selects of its issues: their contents (below) and the documents they point at. */
export function readIssueFollowUps(wanted: ReadonlyArray<Wanted<IssueDoc>>, request: LoaderRequest): Promise<void> {
  return readReferences(issueReferences, wanted, request, [readIssueContents(wanted, request)]);
}

/**
 * The categories of the contents of the issues whose group selects them (Issue.contents drops the groups of inactive
 * categories), then the articles of the groups kept where it selects those too (and, through the articles' own
 * follow-up, what it selects of them).
 */
async function readIssueContents(wanted: ReadonlyArray<Wanted<IssueDoc>>, request: LoaderRequest): Promise<void> {
  if (!request.answering()) return;
  const categoryIds = new Set<string>();
  for (const { docs, selected } of wanted) {
    if (selected.has('contents'))
      for (const issue of docs) for (const content of issue.contents ?? []) categoryIds.add(content.categoryId);
  }
  if (categoryIds.size === 0) return;
  const categories = request.get(categoryById);
  await categories.readNow(categoryIds);
  if (!request.answering()) return;
  const articles = request.get(articleById);
  const articleIds = new Set<string>();
  for (const { docs, selected } of wanted) {
    const contents = selected.has('contents') ? selected.of('contents') : undefined;
    if (!contents?.has('articles')) continue;
    const ids: string[] = [];
    for (const issue of docs) {
      for (const content of issue.contents ?? []) {
        if (categories.readAlready([content.categoryId])?.[0]) for (const id of content.articleIds ?? []) ids.push(id);
      }
    }
    articles.wantAhead(ids, contents.of('articles'));
    for (const id of ids) articleIds.add(id);
  }
  if (articleIds.size > 0) await articles.readNow(articleIds);
}
