// The least work the nested query's answer needs, written by hand: the same store reads the gateway
// makes (same collections, filters, projections and $in sets, read with the same driver) issued with
// as much parallelism as the data dependencies allow, and the same JSON built directly. The gateway narrows
// its reads of issues, articles, authors, keywords and categories to what the operation selects
// (src/store/projection.ts); the projections below are those it computes for NESTED_QUERY.
//   round 1: the page, the page of issues and their count
//   round 2: the issues' content categories
//   round 3: the articles of the contents whose category is visible
//   round 4: the articles' authors, their categories not read yet, their keywords
import type { Db, Document } from 'mongodb';
import type { ArticleDoc } from '../src/store/content/article.doc.js';
import type { IssueDoc, PageDoc } from '../src/store/content/page.doc.js';
import type { AuthorDoc, ContentCategoryDoc, KeywordDoc } from '../src/store/content/taxonomy.doc.js';
import { issueProjection, pageProjection } from '../src/store/content/projections.js';

const ref = { _id: 1, name: 1, slug: 1 } as const;
const articleProjection = {
  _id: 1,
  title: 1,
  slug: 1,
  firstPublishedDate: 1,
  premium: 1,
  summary: 1,
  authorIds: 1,
  categoryIds: 1,
  keywordIds: 1,
} as const;
const [authorProjection, categoryProjection, keywordProjection] = [ref, ref, ref];
/** The issue fields the nested query reads (its selection plus the sort keys), as the gateway narrows them. */
const nestedIssueProjection = { _id: 1, title: 1, date: 1, issueNumber: 1, contents: 1 } as const;
import { visibleArticle, visibleCategory, visibleIssue } from '../src/store/content/visibility.js';

/** find by `_id` $in, sized like the gateway's loaders (one reply, no getMore). */
export function byIds<T extends { _id: string }>(
  db: Db,
  collection: string,
  ids: readonly string[],
  projection: Document,
  filter: Document = {},
): Promise<Map<string, T>> {
  if (ids.length === 0) return Promise.resolve(new Map());
  const size = ids.length;
  return db
    .collection(collection)
    .find({ ...filter, _id: { $in: [...ids] } } as Document, { projection, limit: size, batchSize: size })
    .toArray()
    .then((docs) => new Map(docs.map((d) => [d._id as unknown as string, d as unknown as T])));
}

export const unique = (ids: Iterable<string>): string[] => [...new Set(ids)];

const ISSUE_SORT = { date: -1, issueNumber: -1, _id: -1 } as const;

/** Published issues of a page, newest first: the gateway's pipeline for one parent. */
export function issuesOfPage(
  db: Db,
  pageId: string,
  first: number,
  projection: Document = issueProjection,
): Promise<IssueDoc[]> {
  return db
    .collection('issues')
    .aggregate<IssueDoc>(
      [{ $match: { ...visibleIssue, pageId } }, { $sort: ISSUE_SORT }, { $limit: first + 1 }, { $project: projection }],
      { batchSize: first + 1 },
    )
    .toArray();
}

/** The page's published issue count: the gateway's count pipeline for one parent. */
export async function issueCount(db: Db, pageId: string): Promise<number> {
  const parents = { $in: [pageId] };
  const rows = await db
    .collection('issues')
    .aggregate<{ _id: string; n: number }>(
      [
        { $match: { ...visibleIssue, pageId: parents } },
        { $project: { _id: 0, __branch: '$pageId' } },
        { $unwind: '$__branch' },
        { $match: { __branch: parents } },
        { $group: { _id: '$__branch', n: { $sum: 1 } } },
      ],
      { batchSize: 1 },
    )
    .toArray();
  return rows[0]?.n ?? 0;
}

export const findPage = (db: Db, id: string): Promise<PageDoc | undefined> =>
  byIds<PageDoc>(db, 'pages', [id], pageProjection).then((m) => m.get(id));

const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
const present = <T>(ids: readonly string[], docs: Map<string, T>): T[] =>
  ids.flatMap((id) => (docs.has(id) ? [docs.get(id)!] : []));
const toRef = (d: { _id: string; name: string; slug: string }) => ({ id: d._id, name: d.name, slug: d.slug });

/** The nested query's answer as the bytes of `{"data":{...}}` (as the gateway sends it); null page when there is none. */
export async function nestedAnswer(db: Db, pageId: string, first: number): Promise<string> {
  const [page, issueDocs, total] = await Promise.all([
    findPage(db, pageId),
    issuesOfPage(db, pageId, first, nestedIssueProjection),
    issueCount(db, pageId),
  ]);
  if (!page) return JSON.stringify({ data: { page: null } });
  if (!page.enabled) throw new Error('page not enabled');
  const issues = issueDocs.slice(0, first);

  // Like the gateway: contents of inactive categories are dropped before their articles are read.
  const contentCategoryIds = unique(issues.flatMap((i) => i.contents.map((c) => c.categoryId)));
  const contentCategories = await byIds<ContentCategoryDoc>(
    db,
    'contentCategories',
    contentCategoryIds,
    categoryProjection,
    visibleCategory,
  );
  const kept = issues.map((i) => i.contents.filter((c) => contentCategories.has(c.categoryId)));
  const articles = await byIds<ArticleDoc>(
    db,
    'articles',
    unique(kept.flatMap((contents) => contents.flatMap((c) => c.articleIds))),
    articleProjection,
    visibleArticle,
  );
  const shown = [...articles.values()];
  const moreCategoryIds = unique(shown.flatMap((a) => a.categoryIds)).filter((id) => !contentCategoryIds.includes(id));
  const [authors, moreCategories, keywords] = await Promise.all([
    byIds<AuthorDoc>(db, 'authors', unique(shown.flatMap((a) => a.authorIds)), authorProjection),
    byIds<ContentCategoryDoc>(db, 'contentCategories', moreCategoryIds, categoryProjection, visibleCategory),
    byIds<KeywordDoc>(db, 'keywords', unique(shown.flatMap((a) => a.keywordIds)), keywordProjection),
  ]);
  const category = (id: string) => contentCategories.get(id) ?? moreCategories.get(id);

  const article = (a: ArticleDoc) => ({
    id: a._id,
    title: a.title,
    slug: a.slug,
    firstPublishedDate: iso(a.firstPublishedDate),
    premium: a.premium,
    summary: a.summary ?? null,
    authors: present(a.authorIds, authors).map(toRef),
    categories: a.categoryIds.flatMap((id) => {
      const c = category(id);
      return c ? [toRef(c)] : [];
    }),
    keywords: present(a.keywordIds, keywords).map(toRef),
  });

  const data = {
    page: {
      id: page._id,
      name: page.name,
      issues: {
        totalCount: total,
        edges: issues.map((issue, n) => ({
          node: {
            id: issue._id,
            title: issue.title,
            date: iso(issue.date),
            issueNumber: issue.issueNumber,
            contents: kept[n]!.map((c) => ({
              categoryId: c.categoryId,
              category: toRef(contentCategories.get(c.categoryId)!),
              articles: present(c.articleIds, articles).map(article),
            })),
          },
        })),
      },
    },
  };
  // Apollo Server ends its JSON with a newline.
  return JSON.stringify({ data });
}
