// The page and its issues in the legacy REST representation (docs/api.md), from the API objects and what the
// shared operations say they point at (the same rules GraphQL's fields answer with): keyed objects where the
// interface says "keyed by", values lower-case as stored, articles whole in contents, sections, groups and front
// pages, and in brief in the channel's sections.
import type { Context } from '../context.js';
import { articlesByIds } from '../operations/content/articles.js';
import { authorsOf, categoryOf, channelOf, issueContents, sectionArticles } from '../operations/content/related.js';
import type { Article } from '../schema/content/article.type.js';
import type { Issue } from '../schema/content/issue.type.js';
import { SectionType } from '../schema/content/enums.js';
import type { Page } from '../schema/content/page.type.js';
import type { DynamicSection } from '../schema/content/section.type.js';
import { iso, legacyArticle, legacyAuthor, legacyCategory, type Json } from './page-issues.legacy-article.js';

export const legacyPage = (page: Page): Json => {
  const m = page.publicFacingMetadata;
  return {
    id: page.id,
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
  };
};

async function articles(ctx: Context, list: Article[] | Promise<Article[]>): Promise<Json[]> {
  const out: Json[] = [];
  for (const article of await list) out.push(await legacyArticle(ctx, article));
  return out;
}

const briefArticle = (a: Article): Json => ({
  id: a.id,
  title: a.title,
  slug: a.slug,
  absoluteUrl: a.absoluteUrl,
  shortUrl: a.shortUrl,
  firstPublishedDate: iso(a.firstPublishedDate),
  premium: a.premium,
});

/** A section carries `articles` or `linkables`, whichever its type holds; keyed by name. */
async function sections(
  ctx: Context,
  list: readonly DynamicSection[],
  show: (articles: Article[]) => Json[] | Promise<Json[]>,
): Promise<Record<string, Json>> {
  const keyed: Record<string, Json> = {};
  for (const s of list) {
    const shown =
      s.type === SectionType.ARTICLES
        ? { articles: await show(await sectionArticles(ctx, s)) }
        : { linkables: s.linkables.map((l) => ({ name: l.name, url: l.url, objectType: l.objectType })) };
    keyed[s.name] = {
      name: s.name,
      displayName: s.displayName,
      limit: s.limit,
      direction: s.direction,
      type: s.type,
      ...shown,
    };
  }
  return keyed;
}

async function legacyChannel(ctx: Context, issue: Issue): Promise<Json | null> {
  const channel = await channelOf(ctx, issue);
  if (!channel) return null;
  const linkables: Record<string, Json[]> = {};
  for (const list of channel.configuration.linkables)
    linkables[list.key] = list.linkables.map((x) => ({ name: x.name, url: x.url, objectType: x.objectType }));
  return {
    id: channel.id,
    name: channel.name,
    image: channel.image,
    description: channel.description,
    objectType: channel.objectType,
    configuration: {
      linkables,
      dynamicSections: await sections(ctx, channel.configuration.dynamicSections, (list) => list.map(briefArticle)),
    },
  };
}

export async function legacyIssue(ctx: Context, i: Issue): Promise<Json> {
  const contents: Record<string, Json> = {};
  for (const c of await issueContents(ctx, i)) {
    contents[c.categoryId] = {
      category: await legacyCategory(ctx, await categoryOf(ctx, c.categoryId)),
      articles: await articles(ctx, articlesByIds(ctx, c.articleIds)),
    };
  }
  const pdfFiles: Record<string, string> = {};
  for (const f of i.pdfFiles) pdfFiles[f.name] = f.url;
  const front = i.frontPage;
  return {
    id: i.id,
    title: i.title,
    date: iso(i.date),
    status: i.status,
    contents,
    timestamp: iso(i.timestamp),
    lastModifierUserId: i.lastModifierUserId,
    issueNumber: i.issueNumber,
    pdfFiles,
    imageUrl: i.imageUrl,
    topImageUrl: i.topImageUrl,
    pollId: i.pollId,
    pageId: i.pageId,
    dynamicSections: await sections(ctx, i.dynamicSections, (list) => articles(ctx, list)),
    repeatedArticleGroups: await Promise.all(
      i.repeatedArticleGroups.map(async (g) => ({
        name: g.name,
        articles: await articles(ctx, articlesByIds(ctx, g.articleIds)),
      })),
    ),
    frontPage: front
      ? {
          categoryId: front.categoryId,
          category: await legacyCategory(ctx, await categoryOf(ctx, front.categoryId)),
          articles: await articles(ctx, articlesByIds(ctx, front.articleIds)),
        }
      : null,
    authors: (await authorsOf(ctx, i.authorIds)).map((x) => legacyAuthor(ctx, x)),
    channelId: i.channelId,
    channel: await legacyChannel(ctx, i),
  };
}
