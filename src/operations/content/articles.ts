// Use cases on articles: one by id or slug, the filtered list, and the article lists of categories,
// authors and keywords (batched through the request's loaders).
import type { Document } from 'mongodb';
import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import type { Article } from '../../schema/content/article.type.js';
import type { ArticlesFilter } from '../../schema/content/articles-filter.input.js';
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import * as c from '../../store/content/connections.js';
import { countOf, findPage } from '../../store/content/lists.js';
import type { ArticleDoc } from '../../store/content/article.doc.js';
import { articleById, articleBySlug } from '../../store/content/loaders.js';
import { toArticle } from '../../store/content/mappers/article.mapper.js';
import { articleProjection, articleType } from '../../store/content/projections.js';
import { visibleArticle } from '../../store/content/visibility.js';
import { connectionOf } from './connection.js';
import { connections, cursorsOf } from '../connections.js';
import { checkFirst, checkId } from './input.js';
import type { Selected } from '../../store/loaders.js';

export interface PageArgs {
  first: number;
  after?: string | null;
}

/** Exactly one of `id` and `slug`; slugs follow the id alphabet. */
export function oneOf(args: { id?: string | null; slug?: string | null }): { id: string } | { slug: string } {
  if ((args.id == null) === (args.slug == null)) {
    throw badRequest('Give exactly one of id and slug', [
      { field: args.id == null ? 'id' : 'slug', message: 'Exactly one of id and slug' },
    ]);
  }
  return args.id != null ? { id: checkId(args.id) } : { slug: checkId(args.slug!, 'slug') };
}

/** `selected`: what the field asking selects of the article (read ahead with it by id, store/content/loaders.ts). */
export async function getArticle(
  ctx: Context,
  args: { id?: string | null; slug?: string | null },
  selected?: Selected,
): Promise<Article | null> {
  const key = oneOf(args);
  const doc =
    'id' in key
      ? await ctx.loaders.get(articleById).load(key.id, selected)
      : await ctx.loaders.get(articleBySlug).load(key.slug);
  return doc ? toArticle(doc) : null;
}

export async function listArticles(
  ctx: Context,
  filter: ArticlesFilter | null | undefined,
  args: PageArgs,
): Promise<ConnectionShape<Article>> {
  const query: Document = { ...ctx.loaders.visible('articles', visibleArticle) };
  if (filter?.categoryId != null) query.categoryIds = checkId(filter.categoryId, 'filter.categoryId');
  if (filter?.authorId != null) query.authorIds = checkId(filter.authorId, 'filter.authorId');
  if (filter?.keywordId != null) query.keywordIds = checkId(filter.keywordId, 'filter.keywordId');
  if (filter?.premium != null) query.premium = filter.premium;
  // A cursor stands for a place in one filtered list: the filter is part of what it is bound to.
  const cursors = cursorsOf(ctx, connections.articles, undefined, [
    query.categoryIds ?? null,
    query.authorIds ?? null,
    query.keywordIds ?? null,
    query.premium ?? null,
  ]);
  const page = await findPage(ctx.store, 'articles', {
    filter: query,
    sort: c.articleOrder,
    projection: ctx.loaders.projection(
      articleProjection,
      articleType,
      c.articleOrder.map(([field]) => field),
    ),
    first: checkFirst(args.first),
    after: cursors.decode(args.after),
  });
  return connectionOf(page, cursors, toArticle, () => countOf(ctx.store, 'articles', query));
}

const byParent = {
  category: { page: c.articlesOfCategory, count: c.articleCountOfCategory, kind: connections.categoryArticles },
  author: { page: c.articlesOfAuthor, count: c.articleCountOfAuthor, kind: connections.authorArticles },
  keyword: { page: c.articlesOfKeyword, count: c.articleCountOfKeyword, kind: connections.keywordArticles },
} as const;

export type ArticleParent = keyof typeof byParent;

/** `selected`: what the field asking selects of the connection (read ahead below its articles). */
export async function articlesOf(
  ctx: Context,
  parent: ArticleParent,
  parentId: string,
  args: PageArgs,
  selected?: Selected,
): Promise<ConnectionShape<Article>> {
  const cursors = cursorsOf(ctx, byParent[parent].kind, parentId);
  const key = { parentId, first: checkFirst(args.first), after: cursors.decode(args.after), selected };
  const page = await ctx.loaders.get(byParent[parent].page).load(key);
  return connectionOf(page, cursors, toArticle, () => articleCountOf(ctx, parent, parentId));
}

/** Published articles of a category / author / keyword, counted now: the connections' `totalCount`. */
function articleCountOf(ctx: Context, parent: ArticleParent, parentId: string): Promise<number> {
  return ctx.loaders.get(byParent[parent].count).load(parentId);
}

/**
 * Visible articles for a list of ids, in the given order, absent ones dropped: at once when they have been read
 * (the follow-up of the issues that list them, store/content/loaders.ts), else through the request's loader, with
 * what the field asking selects of them (`selected`, asked only then) read ahead.
 */
export function articlesByIds(
  ctx: Context,
  ids: readonly string[],
  selected?: () => Selected,
): Article[] | Promise<Article[]> {
  const loader = ctx.loaders.get(articleById);
  const read = loader.readAlready(ids);
  if (read) return present(read);
  const below = selected?.();
  return Promise.all(ids.map((id) => loader.load(id, below))).then(present);
}

function present(docs: ReadonlyArray<ArticleDoc | null>): Article[] {
  const articles: Article[] = [];
  for (const doc of docs) if (doc) articles.push(toArticle(doc));
  return articles;
}
