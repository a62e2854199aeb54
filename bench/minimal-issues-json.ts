// The REST list's answer in the legacy JSON: the page, its issues with their contents, sections, groups,
// front pages and channels, in the order the gateway writes them.
import type { ArticleDoc } from '../src/store/content/article.doc.js';
import type { DynamicSectionDoc } from '../src/store/content/section.doc.js';
import { iso, legacyShapes, present, sectionArticles, type IssuesRead, type Json } from './minimal-issues-articles.js';

function sectionLinkables(section: DynamicSectionDoc): Json[] {
  if (section.type !== 'linkables') return [];
  const items = section.linkables.map((l) => ({ name: l.name, url: l.url, objectType: l.objectType }));
  if (section.direction === 'append') items.sort((a, b) => a.name.localeCompare(b.name));
  return items.slice(0, Math.max(0, section.limit));
}

export function issuesJson(r: IssuesRead): string {
  const { page, issues, total, limit, kept, channels, issueAuthors, articles } = r;
  const { legacyCategory, legacyAuthor, legacyArticle } = legacyShapes(r);
  const articleList = (ids: readonly string[]): Json[] => present(ids, articles).map(legacyArticle);
  const section = (s: DynamicSectionDoc, render: (a: ArticleDoc) => Json): Json => ({
    name: s.name,
    displayName: s.displayName,
    limit: s.limit,
    direction: s.direction,
    type: s.type,
    ...(s.type === 'articles'
      ? { articles: sectionArticles(s, articles).map(render) }
      : { linkables: sectionLinkables(s) }),
  });
  const briefArticle = (a: ArticleDoc): Json => ({
    id: a._id,
    title: a.title,
    slug: a.slug,
    absoluteUrl: a.absoluteUrl,
    shortUrl: a.shortUrl,
    firstPublishedDate: iso(a.firstPublishedDate),
    premium: a.premium,
  });

  const legacyIssues = issues.map((i, n) => {
    const channel = i.channelId ? channels.get(i.channelId) : undefined;
    return {
      id: i._id,
      title: i.title,
      date: iso(i.date),
      status: i.status,
      contents: Object.fromEntries(
        kept[n]!.map((c) => [
          c.categoryId,
          { category: legacyCategory(c.categoryId), articles: articleList(c.articleIds) },
        ]),
      ),
      timestamp: iso(i.timestamp),
      lastModifierUserId: i.lastModifierUserId,
      issueNumber: i.issueNumber,
      pdfFiles: Object.fromEntries(i.pdfFiles.map((f) => [f.name, f.url])),
      imageUrl: i.imageUrl,
      topImageUrl: i.topImageUrl,
      pollId: i.pollId,
      pageId: i.pageId,
      dynamicSections: Object.fromEntries(i.dynamicSections.map((s) => [s.name, section(s, legacyArticle)])),
      repeatedArticleGroups: i.repeatedArticleGroups.map((g) => ({
        name: g.name,
        articles: articleList(g.articleIds),
      })),
      frontPage: i.frontPage
        ? {
            categoryId: i.frontPage.categoryId,
            category: legacyCategory(i.frontPage.categoryId),
            articles: articleList(i.frontPage.articleIds),
          }
        : null,
      authors: present(i.authorIds, issueAuthors).map(legacyAuthor),
      channelId: i.channelId,
      channel: channel
        ? {
            id: channel._id,
            name: channel.name,
            image: channel.image,
            description: channel.description,
            objectType: channel.objectType,
            configuration: {
              linkables: Object.fromEntries(
                channel.configuration.linkables.map((l) => [
                  l.key,
                  l.linkables.map((x) => ({ name: x.name, url: x.url, objectType: x.objectType })),
                ]),
              ),
              dynamicSections: Object.fromEntries(
                channel.configuration.dynamicSections.map((s) => [s.name, section(s, briefArticle)]),
              ),
            },
          }
        : null,
    };
  });

  const m = page.publicFacingMetadata;
  return JSON.stringify({
    page: {
      id: page._id,
      name: page.name,
      previewUrl: page.previewUrl,
      publicFacingMetadata: {
        title: m.title,
        description: m.description,
        language: m.language,
        imageUrl: m.imageUrl,
        canonicalUrl: m.canonicalUrl,
        keywords: m.keywords,
      },
    },
    issues: legacyIssues,
    pagination: { page: 1, limit, total, totalPages: Math.ceil(total / limit) },
  });
}
