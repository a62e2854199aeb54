// What an issue shown whole (the REST issues list) shows to an anonymous reader, so that a representation kept
// between requests (src/cache/ready-parts.ts) is evicted by every change that can make it wrong. Asked after the
// issue was shown, from the same relations (related.ts, elements.ts): everything is read already and answers at once.
//
// Documents are named by id where the ids the issue and its articles list decide what is shown: an id is named
// whether or not its document was found visible, so that one published, activated or inserted later evicts too
// (the publication clock's scheduled changes are such writes, to the article or issue itself). A collection is
// named whole where a query decided: a live blog's newest messages (a range of the blog's messages), and, unless
// an open article the issue shows carries the blog, whether an anonymous reader may read it (the published
// articles carrying it, live-blog-access.ts). The one answer that changes without any write is a poll's `closed`,
// true once its end date passes: `until` is the first end date of an open poll shown.
//
// Only the anonymous reader's representation is described: a signed-in reader's shows its access to premium
// bodies and its votes, a preview's shows drafts, and neither is kept.
import type { Context } from '../../context.js';
import type { Shows } from '../../cache/ready-parts.js';
import type { Article } from '../../schema/content/article.type.js';
import type { Issue } from '../../schema/content/issue.type.js';
import type { DynamicSection } from '../../schema/content/section.type.js';
import { addArticleRefs, noRefs } from './article-refs.js';
import { articlesByIds } from './articles.js';
import { liveBlogsOf, pollsOf } from './elements.js';
import { categoryOf, channelOf, issueContents } from './related.js';

export interface IssueShows {
  shows: Shows[];
  /** When the representation stops being right without a write (ms since the epoch), if it does. */
  until?: number;
}

const sectionIds = (sections: readonly DynamicSection[]): string[] => sections.flatMap((s) => s.articleIds);

/** An article is open to every reader unless it is premium with access control (access.ts). */
const isOpen = (article: Article): boolean => !(article.accessControlEnabled && article.premium);

export async function issueShows(ctx: Context, issue: Issue): Promise<IssueShows> {
  const ids = {
    ...noRefs(),
    issues: new Set([issue.id]),
    articles: new Set<string>(),
    categoryTypes: new Set<string>(),
    channels: new Set<string>(),
  };
  for (const id of issue.authorIds) ids.authors.add(id);
  const add = (set: Set<string>, id: string | null): void => void (id && set.add(id));
  const whole = new Set<string>();
  /** The live blogs shown (a blog not found shows nothing, and one stored later is named by id). */
  const blogs = new Set<string>();
  let until: number | undefined;

  // Which categories' groups are shown is decided by the categories themselves (inactive ones are left out).
  for (const content of issue.contentRefs) ids.contentCategories.add(content.categoryId);
  add(ids.contentCategories, issue.frontPage?.categoryId ?? null);
  add(ids.channels, issue.channelId);
  const channel = await channelOf(ctx, issue);

  // Every article the issue lists, shown or not: one published later takes its place in a group or a section.
  const listed = [
    ...(await issueContents(ctx, issue)).flatMap((content) => content.articleIds),
    ...sectionIds(issue.dynamicSections),
    ...issue.repeatedArticleGroups.flatMap((group) => group.articleIds),
    ...(issue.frontPage?.articleIds ?? []),
  ];
  for (const id of [...listed, ...sectionIds(channel?.configuration.dynamicSections ?? [])]) ids.articles.add(id);

  // The channel's sections show only the articles' own fields; the issue's lists show them whole.
  const shown = await articlesByIds(ctx, [...new Set(listed)]);
  for (const a of shown) {
    addArticleRefs(ids, a);
    for (const poll of await pollsOf(ctx, a.elements))
      if (!poll.closed && poll.endDate) until = Math.min(until ?? Infinity, poll.endDate.getTime());
    for (const blog of await liveBlogsOf(ctx, a.elements)) blogs.add(blog.id);
  }
  if (blogs.size > 0) whole.add('liveBlogMessages');
  // A blog carried by an open article named here is open whatever the other carriers are; otherwise the rule
  // comes from every published article carrying it.
  const openCarried = new Set(shown.filter(isOpen).flatMap((a) => a.elements.liveBlogIds));
  if ([...blogs].some((id) => !openCarried.has(id))) whole.add('articles');

  // A category shown whole shows its type and its parent's name.
  for (const id of [...ids.contentCategories]) {
    const category = await categoryOf(ctx, id);
    add(ids.categoryTypes, category?.typeId ?? null);
    add(ids.contentCategories, category?.parentCategoryId ?? null);
  }

  const shows: Shows[] = [...whole].map((collection) => ({ collection }));
  for (const [collection, set] of Object.entries(ids))
    if (set.size > 0 && !whole.has(collection)) shows.push({ collection, ids: [...set] });
  return until === undefined ? { shows } : { shows, until };
}

/** The collections `issueShows` may name: a change stream on them evicts issue representations. */
export const ISSUE_SHOWS_COLLECTIONS = [
  'issues',
  'articles',
  'contentCategories',
  'categoryTypes',
  'channels',
  'contentTypes',
  'sponsors',
  'authors',
  'keywords',
  'videos',
  'liveBlogs',
  'liveBlogMessages',
  'polls',
  'quizzes',
] as const;
