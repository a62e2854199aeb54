// What articles, issues and categories point at, through the request's loaders: one rule per relation, answered
// by GraphQL's field resolvers and the REST issues list alike. At once when the documents were read ahead (a
// batch's follow-up, or page-issues.read.ts), else a promise.
import type { Context } from '../../context.js';
import type { ContentType, Sponsor } from '../../schema/content/article-parts.type.js';
import type { Article } from '../../schema/content/article.type.js';
import type { Author } from '../../schema/content/author.type.js';
import type { CategoryType, ContentCategory } from '../../schema/content/category.type.js';
import type { Channel } from '../../schema/content/channel.type.js';
import { SectionDirection } from '../../schema/content/enums.js';
import type { Issue, IssueContent } from '../../schema/content/issue.type.js';
import type { Keyword } from '../../schema/content/keyword.type.js';
import type { DynamicSection } from '../../schema/content/section.type.js';
import {
  authorById,
  categoryById,
  categoryTypeById,
  channelById,
  contentTypeById,
  keywordById,
  sponsorById,
} from '../../store/content/loaders.js';
import { toContentType, toSponsor } from '../../store/content/mappers/article.mapper.js';
import { toChannel } from '../../store/content/mappers/elements.mapper.js';
import { toAuthor, toCategory, toCategoryType, toKeyword } from '../../store/content/mappers/taxonomy.mapper.js';
import type { Selected } from '../../store/loaders.js';
import { articlesByIds } from './articles.js';
import { loadOne, loadVisible, type MaybePromise } from './load.js';

export const contentTypeOf = (ctx: Context, article: Article): MaybePromise<ContentType | null> =>
  loadOne(ctx.loaders.get(contentTypeById), article.contentTypeId, toContentType);

export const sponsorOf = (ctx: Context, article: Article): MaybePromise<Sponsor | null> =>
  loadOne(ctx.loaders.get(sponsorById), article.sponsorId, toSponsor);

/** A category by id (an article's primary one, a content entry's, a front page's, a parent): null when inactive. */
export const categoryOf = (ctx: Context, id: string | null): MaybePromise<ContentCategory | null> =>
  loadOne(ctx.loaders.get(categoryById), id, toCategory);

/** Active categories of `ids`, in order. */
export const categoriesOf = (ctx: Context, ids: readonly string[]): MaybePromise<ContentCategory[]> =>
  loadVisible(ctx.loaders.get(categoryById), ids, toCategory);

export const categoryTypeOf = (ctx: Context, category: ContentCategory): MaybePromise<CategoryType | null> =>
  loadOne(ctx.loaders.get(categoryTypeById), category.typeId, toCategoryType);

export const authorOf = (ctx: Context, id: string | null): MaybePromise<Author | null> =>
  loadOne(ctx.loaders.get(authorById), id, toAuthor);

/** Authors of `ids` (an article's byline, an issue's credits), in order, absent ones dropped. */
export const authorsOf = (ctx: Context, ids: readonly string[]): MaybePromise<Author[]> =>
  loadVisible(ctx.loaders.get(authorById), ids, toAuthor);

export const keywordsOf = (ctx: Context, ids: readonly string[]): MaybePromise<Keyword[]> =>
  loadVisible(ctx.loaders.get(keywordById), ids, toKeyword);

export const channelOf = (ctx: Context, issue: Issue): MaybePromise<Channel | null> =>
  loadOne(ctx.loaders.get(channelById), issue.channelId, toChannel);

/** An issue's contents without the groups of inactive categories (their categories were read with the issue). */
export function issueContents(ctx: Context, issue: Issue): MaybePromise<IssueContent[]> {
  const loader = ctx.loaders.get(categoryById);
  const read = loader.readAlready(issue.contentRefs.map((c) => c.categoryId));
  if (read) return issue.contentRefs.filter((_, i) => read[i] !== null);
  return Promise.all(issue.contentRefs.map((c) => loader.load(c.categoryId))).then((categories) =>
    issue.contentRefs.filter((_, i) => categories[i] !== null),
  );
}

const newestFirst = (a: Article, b: Article): number =>
  (b.firstPublishedDate?.getTime() ?? 0) - (a.firstPublishedDate?.getTime() ?? 0) ||
  (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The published articles of an `articles` section: `append` newest first, `append-unsorted` in editorial order,
 * cut to `limit` after visibility (docs/decisions.md, "Dynamic sections").
 */
export function sectionArticles(
  ctx: Context,
  section: DynamicSection,
  selected?: () => Selected,
): MaybePromise<Article[]> {
  if (section.articleIds.length === 0) return [];
  const found = articlesByIds(ctx, section.articleIds, selected);
  const ordered = (articles: Article[]): Article[] => {
    if (section.direction === SectionDirection.APPEND) articles.sort(newestFirst);
    return articles.slice(0, Math.max(0, section.limit));
  };
  return found instanceof Promise ? found.then(ordered) : ordered(found);
}
