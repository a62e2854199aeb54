// Reads ahead everything a page of whole issues shows, wave by wave, each collection once per wave through the
// request's loaders (the documents a wave needs are named by the ones before it):
//   1 (pageWithIssues) the page, its issues and their count
//   2 the contents' and front pages' categories, the channels, the issues' authors
//   3 every article the issues and their channels' sections list
//   4 what the articles shown point at: content types, sponsors, categories and the parents of those of wave 2,
//     authors, keywords, videos, live blogs, polls, quizzes, and who may read the live blogs (those an open
//     article shown carries are open: asked only for the others)
//   5 parents not read yet, category types, live blogs' newest messages, the viewer's votes
// Then related.ts and elements.ts find everything read and answer at once; what a wave missed they still read.
import type { Context } from '../../context.js';
import type { Article } from '../../schema/content/article.type.js';
import type { ContentCategory } from '../../schema/content/category.type.js';
import type { Issue } from '../../schema/content/issue.type.js';
import type { DynamicSection } from '../../schema/content/section.type.js';
import {
  articleById,
  authorById,
  categoryById,
  categoryTypeById,
  channelById,
  contentTypeById,
  keywordById,
  liveBlogById,
  pollById,
  quizById,
  sponsorById,
  videoById,
} from '../../store/content/loaders.js';
import { knownCarriers, mayReadLiveBlog } from '../live/live-blog-access.js';
import { addArticleRefs, noRefs } from './article-refs.js';
import { articlesByIds } from './articles.js';
import { liveBlogsOf, pollsOf, previewMessages, viewerVote } from './elements.js';
import { categoryOf, channelOf, issueContents, sectionArticles } from './related.js';

/** Resolves a value the reads before made synchronous; a promise (something not read ahead) is awaited. */
type Sync<T> = T | Promise<T>;
const settle = async <T>(value: Sync<T>): Promise<T> => value;

const sectionIds = (sections: readonly DynamicSection[]): string[] => sections.flatMap((s) => s.articleIds);

/** The articles an issue shows whole: its contents, sections (as they cut them), groups and front page. */
async function shownArticles(ctx: Context, issue: Issue, into: Map<string, Article>): Promise<void> {
  const lists: Array<Sync<Article[]>> = [];
  for (const content of await settle(issueContents(ctx, issue))) lists.push(articlesByIds(ctx, content.articleIds));
  for (const section of issue.dynamicSections) lists.push(sectionArticles(ctx, section));
  for (const group of issue.repeatedArticleGroups) lists.push(articlesByIds(ctx, group.articleIds));
  if (issue.frontPage) lists.push(articlesByIds(ctx, issue.frontPage.articleIds));
  for (const list of lists) for (const article of await settle(list)) into.set(article.id, article);
}

export async function readIssuesAhead(ctx: Context, issues: readonly Issue[]): Promise<void> {
  if (issues.length === 0) return;
  const get = ctx.loaders.get.bind(ctx.loaders);

  // 2
  const topCategoryIds = new Set<string>();
  for (const issue of issues) {
    for (const content of issue.contentRefs) topCategoryIds.add(content.categoryId);
    if (issue.frontPage?.categoryId) topCategoryIds.add(issue.frontPage.categoryId);
  }
  await Promise.all([
    get(categoryById).readNow(topCategoryIds),
    get(channelById).readNow(issues.flatMap((i) => (i.channelId ? [i.channelId] : []))),
    get(authorById).readNow(issues.flatMap((i) => i.authorIds)),
  ]);

  // 3
  const articleIds = new Set<string>();
  for (const issue of issues) {
    for (const content of await settle(issueContents(ctx, issue)))
      for (const id of content.articleIds) articleIds.add(id);
    for (const id of sectionIds(issue.dynamicSections)) articleIds.add(id);
    for (const group of issue.repeatedArticleGroups) for (const id of group.articleIds) articleIds.add(id);
    for (const id of issue.frontPage?.articleIds ?? []) articleIds.add(id);
    const channel = await settle(channelOf(ctx, issue));
    for (const id of sectionIds(channel?.configuration.dynamicSections ?? [])) articleIds.add(id);
  }
  await get(articleById).readNow(articleIds);

  // 4
  const shown = new Map<string, Article>();
  for (const issue of issues) await shownArticles(ctx, issue, shown);
  const topCategories: ContentCategory[] = [];
  for (const id of topCategoryIds) {
    const category = await settle(categoryOf(ctx, id));
    if (category) topCategories.push(category);
  }
  const ids = noRefs();
  for (const c of topCategories) if (c.parentCategoryId) ids.contentCategories.add(c.parentCategoryId);
  for (const a of shown.values()) addArticleRefs(ids, a);
  knownCarriers(ctx, shown.values());
  await Promise.all([
    get(contentTypeById).readNow(ids.contentTypes),
    get(sponsorById).readNow(ids.sponsors),
    get(categoryById).readNow(ids.contentCategories),
    get(authorById).readNow(ids.authors),
    get(keywordById).readNow(ids.keywords),
    get(videoById).readNow(ids.videos),
    get(liveBlogById).readNow(ids.liveBlogs),
    get(pollById).readNow(ids.polls),
    get(quizById).readNow(ids.quizzes),
    Promise.all([...ids.liveBlogs].map((id) => mayReadLiveBlog(ctx, id))),
  ]);

  // 5
  const categories: ContentCategory[] = [...topCategories];
  for (const id of ids.contentCategories) {
    const category = await settle(categoryOf(ctx, id));
    if (category) categories.push(category);
  }
  const elements = [...shown.values()].map((a) => a.elements);
  const blogs = (await Promise.all(elements.map((e) => settle(liveBlogsOf(ctx, e))))).flat();
  const polls = ctx.viewer ? (await Promise.all(elements.map((e) => settle(pollsOf(ctx, e))))).flat() : [];
  await Promise.all([
    get(categoryById).readNow(categories.flatMap((c) => (c.parentCategoryId ? [c.parentCategoryId] : []))),
    get(categoryTypeById).readNow(categories.flatMap((c) => (c.typeId ? [c.typeId] : []))),
    Promise.all(blogs.map((blog) => previewMessages(ctx, blog))),
    Promise.all(polls.map((poll) => viewerVote(ctx, poll))),
  ]);
}
