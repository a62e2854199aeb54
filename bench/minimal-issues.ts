// The least work the REST list's answer (GET /cms/page/{id}/issues?limit=N, first page) needs, written
// by hand: the documents the gateway reads (same collections, filters, projections, $in sets and
// count pipelines, through the same driver), each collection read once per wave of dependencies
// instead of once per loader batch, and the legacy JSON built directly in the order the gateway writes it.
//   1: page, issues, issue count            4: what full articles point at (types, sponsors, categories
//   2: content / front-page categories,        and their parents, authors, keywords, videos, live blogs,
//      channels, issue authors                  polls, quizzes)
//   3: every article                         5: parents not read yet, category types, live blog messages
import type { Db } from 'mongodb';
import type { ArticleDoc, ContentTypeDoc, SponsorDoc } from '../src/store/content/article.doc.js';
import type { ChannelDoc } from '../src/store/content/channel.doc.js';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc } from '../src/store/content/elements.doc.js';
import type { AttachmentDoc, VideoDoc } from '../src/store/content/media.doc.js';
import type { IssueDoc } from '../src/store/content/page.doc.js';
import * as p from '../src/store/content/projections.js';
import type { DynamicSectionDoc } from '../src/store/content/section.doc.js';
import type { AuthorDoc, CategoryTypeDoc, ContentCategoryDoc, KeywordDoc } from '../src/store/content/taxonomy.doc.js';
import { visibleArticle, visibleCategory, visibleQuiz, visibleVideo } from '../src/store/content/visibility.js';
import { sectionArticles } from './minimal-issues-articles.js';
import { issuesJson } from './minimal-issues-json.js';
import { byIds, findPage, issueCount, issuesOfPage, unique } from './minimal-nested.js';

const PREVIEW_MESSAGES = 5;

function previewMessages(db: Db, blogs: LiveBlogDoc[]): Promise<LiveBlogMessageDoc[]> {
  if (blogs.length === 0) return Promise.resolve([]);
  const n = blogs.length * PREVIEW_MESSAGES;
  return db
    .collection<LiveBlogMessageDoc>('liveBlogMessages')
    .find(
      { $or: blogs.map((b) => ({ liveBlogId: b._id, seq: { $gt: b.lastSeq - PREVIEW_MESSAGES } })) },
      { projection: p.liveBlogMessageProjection, sort: { liveBlogId: 1, seq: -1 }, limit: n, batchSize: n },
    )
    .toArray() as Promise<LiveBlogMessageDoc[]>;
}

export async function issuesAnswer(db: Db, pageId: string, limit: number): Promise<string> {
  // 1
  const [page, issueDocs, total] = await Promise.all([
    findPage(db, pageId),
    issuesOfPage(db, pageId, limit),
    issueCount(db, pageId),
  ]);
  if (!page || !page.enabled) throw new Error(`page ${pageId} absent or disabled`);
  const issues: IssueDoc[] = issueDocs.slice(0, limit);

  // 2
  const topCategoryIds = unique(
    issues.flatMap((i) => [
      ...i.contents.map((c) => c.categoryId),
      ...(i.frontPage?.categoryId ? [i.frontPage.categoryId] : []),
    ]),
  );
  const issueAuthorIds = unique(issues.flatMap((i) => i.authorIds));
  const [categoriesA, channels, issueAuthors] = await Promise.all([
    byIds<ContentCategoryDoc>(db, 'contentCategories', topCategoryIds, p.categoryProjection, visibleCategory),
    byIds<ChannelDoc>(
      db,
      'channels',
      unique(issues.flatMap((i) => (i.channelId ? [i.channelId] : []))),
      p.channelProjection,
    ),
    byIds<AuthorDoc>(db, 'authors', issueAuthorIds, p.authorProjection),
  ]);
  const kept = issues.map((i) => i.contents.filter((c) => categoriesA.has(c.categoryId)));

  // 3: the articles rendered in full, and those the channels' sections list in brief
  const sectionIds = (s: DynamicSectionDoc): string[] => (s.type === 'articles' ? s.articleIds : []);
  const fullIds = unique(
    issues.flatMap((issue, n) => [
      ...kept[n]!.flatMap((c) => c.articleIds),
      ...issue.dynamicSections.flatMap(sectionIds),
      ...issue.repeatedArticleGroups.flatMap((g) => g.articleIds),
      ...(issue.frontPage?.articleIds ?? []),
    ]),
  );
  const briefIds = [...channels.values()].flatMap((c) => c.configuration.dynamicSections.flatMap(sectionIds));
  const articles = await byIds<ArticleDoc>(
    db,
    'articles',
    unique([...fullIds, ...briefIds]),
    p.articleProjection,
    visibleArticle,
  );

  // What is rendered in full: contents, groups, front pages, and the part of each section it shows.
  const full = new Map<string, ArticleDoc>();
  const take = (a: ArticleDoc): void => void full.set(a._id, a);
  issues.forEach((issue, n) => {
    for (const c of kept[n]!) for (const id of c.articleIds) if (articles.has(id)) take(articles.get(id)!);
    for (const s of issue.dynamicSections) sectionArticles(s, articles).forEach(take);
    for (const g of issue.repeatedArticleGroups)
      for (const id of g.articleIds) if (articles.has(id)) take(articles.get(id)!);
    for (const id of issue.frontPage?.articleIds ?? []) if (articles.has(id)) take(articles.get(id)!);
  });
  const shown = [...full.values()];
  const attachmentsOf = (a: ArticleDoc): AttachmentDoc[] => [
    ...a.attachments,
    ...a.inlineAttachments,
    ...a.files,
    ...a.videos,
  ];

  // 4
  const categoriesBIds = unique([
    ...shown.flatMap((a) => [...a.categoryIds, ...(a.categoryId ? [a.categoryId] : [])]),
    ...[...categoriesA.values()].flatMap((c) => (c.parentCategoryId ? [c.parentCategoryId] : [])),
  ]).filter((id) => !topCategoryIds.includes(id));
  const authorIds = unique(shown.flatMap((a) => [...a.authorIds, ...(a.authorId ? [a.authorId] : [])])).filter(
    (id) => !issueAuthorIds.includes(id),
  );
  const [contentTypes, sponsors, categoriesB, articleAuthors, keywords, videos, liveBlogs, polls, quizzes] =
    await Promise.all([
      byIds<ContentTypeDoc>(
        db,
        'contentTypes',
        unique(shown.flatMap((a) => (a.contentTypeId ? [a.contentTypeId] : []))),
        p.contentTypeProjection,
      ),
      byIds<SponsorDoc>(
        db,
        'sponsors',
        unique(shown.flatMap((a) => (a.sponsorId ? [a.sponsorId] : []))),
        p.sponsorProjection,
      ),
      byIds<ContentCategoryDoc>(db, 'contentCategories', categoriesBIds, p.categoryProjection, visibleCategory),
      byIds<AuthorDoc>(db, 'authors', authorIds, p.authorProjection),
      byIds<KeywordDoc>(db, 'keywords', unique(shown.flatMap((a) => a.keywordIds)), p.keywordProjection),
      byIds<VideoDoc>(
        db,
        'videos',
        unique(shown.flatMap((a) => attachmentsOf(a).flatMap((x) => (x.videoId ? [x.videoId] : [])))),
        p.videoProjection,
        visibleVideo,
      ),
      byIds<LiveBlogDoc>(db, 'liveBlogs', unique(shown.flatMap((a) => a.elements.liveBlogIds)), p.liveBlogProjection),
      byIds<PollDoc>(db, 'polls', unique(shown.flatMap((a) => a.elements.pollIds)), p.pollProjection),
      byIds<QuizDoc>(db, 'quizzes', unique(shown.flatMap((a) => a.elements.quizIds)), p.quizProjection, visibleQuiz),
    ]);
  const category = (id: string | null): ContentCategoryDoc | null =>
    id ? (categoriesA.get(id) ?? categoriesB.get(id) ?? null) : null;
  const author = (id: string | null): AuthorDoc | null =>
    id ? (issueAuthors.get(id) ?? articleAuthors.get(id) ?? null) : null;

  // Categories rendered in full (they carry their type); parents only by id, name and slug.
  const fullCategories = unique([
    ...issues.flatMap((i, n) => [
      ...kept[n]!.map((c) => c.categoryId),
      ...(i.frontPage?.categoryId && category(i.frontPage.categoryId) ? [i.frontPage.categoryId] : []),
    ]),
    ...shown.flatMap((a) => [...a.categoryIds, ...(a.categoryId ? [a.categoryId] : [])].filter((id) => category(id))),
  ]);
  const read = new Set([...topCategoryIds, ...categoriesBIds]);
  const parentIds = unique(
    [...categoriesB.values()].flatMap((c) =>
      c.parentCategoryId && !read.has(c.parentCategoryId) ? [c.parentCategoryId] : [],
    ),
  );

  // 5
  const [parents, types, messages] = await Promise.all([
    byIds<ContentCategoryDoc>(db, 'contentCategories', parentIds, p.categoryProjection, visibleCategory),
    byIds<CategoryTypeDoc>(
      db,
      'categoryTypes',
      unique(fullCategories.flatMap((id) => (category(id)!.typeId ? [category(id)!.typeId!] : []))),
      p.categoryTypeProjection,
    ),
    previewMessages(db, [...liveBlogs.values()]),
  ]);

  return issuesJson({
    page,
    issues,
    total,
    limit,
    kept,
    channels,
    issueAuthors,
    articles,
    contentTypes,
    sponsors,
    keywords,
    videos,
    liveBlogs,
    polls,
    quizzes,
    types,
    parents,
    messages,
    category,
    author,
  });
}
