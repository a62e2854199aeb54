// The article generator: one call per article, all variation from the pools and the article's own
// random stream, so a million of them cost seconds of CPU, not faker calls.
import type { ArticleDoc } from '../store/content/article.doc.js';
import type { PublicationStatusValue } from '../store/content/page.doc.js';
import { makeAttachment } from './content-media.js';
import { capitalise, randFor, slugify, type Rand } from './content-random.js';
import { CONTENT_TYPES, SPAN_MS, id, issueOfArticle, pageOfIssue, type GenContext } from './content-sizes.js';

/** Published most of the time; the rest spread over the other states (docs/api.md). */
export function publicationStatus(r: Rand): PublicationStatusValue {
  const x = r.next();
  return x < 0.92 ? 'published' : x < 0.95 ? 'draft' : x < 0.97 ? 'scheduled' : 'archived';
}

/**
 * When a scheduled document of the demo goes live: minutes after seeding (the first a few minutes after start), so
 * the demo shows the clock at work. The `n`th document of its kind; no draw, so other generated values stay put.
 */
export const scheduledPublishAt = (ctx: GenContext, status: PublicationStatusValue, n: number): Date | null =>
  status === 'scheduled' ? new Date(ctx.now + (3 + (n % 240)) * 60_000) : null;

/** The primary category of an article: one of the categories of its issue's page. */
export function primaryCategory(ctx: GenContext, article: number): number {
  const page = pageOfIssue(ctx, issueOfArticle(ctx, article));
  const perPage = Math.max(1, Math.floor(ctx.sizes.categories / ctx.sizes.pages));
  return page + ctx.sizes.pages * randFor(ctx.seed, 'article-category', article).int(0, perPage - 1);
}

/** Articles are spread evenly over the span, oldest first. */
const publishedAt = (ctx: GenContext, article: number): number =>
  ctx.now - SPAN_MS + Math.floor((article * SPAN_MS) / ctx.sizes.articles);

/**
 * The article's own headline, composed from faker's word lists (a thousand verbs, adjectives and nouns each): a
 * million articles rarely share one, as a real archive's do not, so a search lists distinct stories and three
 * words of a title find its article. Drawn from a stream of its own, so the article's other fields do not move.
 */
export function articleTitle(ctx: GenContext, a: number): string {
  const r = randFor(ctx.seed, 'article-title', a);
  const { lastNames, verbs, adjectives, nouns, prepositions } = ctx.pools.titleWords;
  const city = r.pick(ctx.pools.cities);
  switch (r.int(0, 3)) {
    case 0:
      return `${r.pick(lastNames)} ${r.pick(verbs)}s ${r.pick(adjectives)} ${r.pick(nouns)}`;
    case 1:
      return `${city}: ${r.pick(adjectives)} ${r.pick(nouns)} ${r.pick(verbs)}s ${r.pick(nouns)}`;
    case 2:
      return capitalise(`${r.pick(adjectives)} ${r.pick(nouns)} ${r.pick(prepositions)} ${city}`);
    default:
      return `${r.pick(lastNames)} and the ${r.pick(adjectives)} ${r.pick(nouns)} of ${city}`;
  }
}

export function makeArticle(ctx: GenContext, a: number): ArticleDoc {
  const { pools, sizes } = ctx;
  const r = randFor(ctx.seed, 'article', a);
  const title = articleTitle(ctx, a);
  const slug = `${slugify(title)}-${a + 1}`;
  const status = publicationStatus(r);
  const category = primaryCategory(ctx, a);
  const categoryIds = [
    id('category', category),
    ...(r.chance(0.3) ? [id('category', r.int(0, sizes.categories - 1))] : []),
  ];
  const authorIds = [
    ...new Set([r.int(0, sizes.authors - 1), ...(r.chance(0.25) ? [r.int(0, sizes.authors - 1)] : [])]),
  ].map((n) => id('author', n));
  const keywordIds = [...new Set(Array.from({ length: r.int(1, 5) }, () => id('keyword', r.skewed(sizes.keywords))))];
  const paragraphs = Array.from({ length: r.int(2, 4) }, () => r.pick(pools.paragraphs));
  const body = paragraphs.map((p) => `<p>${p}</p>`).join('');
  const words = body.split(' ').length;
  const premium = r.chance(0.2);
  const published = status === 'published' || status === 'archived' ? publishedAt(ctx, a) : null;
  const updated = Math.min(ctx.now, (published ?? publishedAt(ctx, a)) + r.int(0, 48) * 3_600_000);
  const contentType = r.chance(0.7) ? 0 : r.int(1, CONTENT_TYPES.length - 1);
  return {
    _id: id('article', a),
    objectClassName: 'Article',
    signature: `ART-${(a + 1).toString(36).toUpperCase().padStart(6, '0')}`,
    absoluteUrl: `https://www.example-news.com/${slug}`,
    shortUrl: `https://exn.ws/${(a + 1).toString(36)}`,
    slug,
    contentTypeId: id('content-type', contentType),
    viewsCount: r.skewed(250_000),
    commentsCount: r.skewed(400),
    averageRatingByCustomers: Math.round((1 + r.next() * 4) * 10) / 10,
    totalRatingsCount: r.skewed(2_000),
    previewLimit: r.pick([200, 300, 500]),
    excludedFromSearchEngine: r.chance(0.02),
    title,
    firstPublishedDate: published === null ? null : new Date(published),
    lastUpdateDate: new Date(updated),
    categoryIds: [...new Set(categoryIds)],
    categoryId: categoryIds[0]!,
    contentLength: body.length,
    summary: r.pick(pools.sentences),
    introduction: paragraphs[0]!.split('. ')[0]! + '.',
    premium,
    free: !premium,
    credits: r.chance(0.5) ? `Photo: ${r.pick(pools.companies)}` : null,
    authorIds,
    authorId: authorIds[0]!,
    sponsorId: r.chance(0.05) ? id('sponsor', r.int(0, sizes.sponsors - 1)) : null,
    attachments: [makeAttachment(ctx, r, a, 0, 'image')],
    inlineAttachments: r.chance(0.3) ? [makeAttachment(ctx, r, a, 1, 'image')] : [],
    files: r.chance(0.05) ? [makeAttachment(ctx, r, a, 0, 'file')] : [],
    videos: contentType === 5 || r.chance(0.08) ? [makeAttachment(ctx, r, a, 0, 'video')] : [],
    keywordIds,
    elements: {
      liveBlogIds: r.chance(0.03) ? [id('live-blog', r.int(0, sizes.liveBlogs - 1))] : [],
      pollIds: r.chance(0.05) ? [id('poll', r.int(0, sizes.polls - 1))] : [],
      quizIds: r.chance(0.02) ? [id('quiz', r.int(0, sizes.quizzes - 1))] : [],
      videoPlatformVideoIds: r.chance(0.05) ? [`yt-${(a * 7919).toString(36)}`] : [],
    },
    seo: {
      searchTitle: r.chance(0.4) ? `${title} | Example News` : null,
      searchDescription: r.chance(0.4) ? r.pick(pools.sentences).slice(0, 155) : null,
      socialTitle: r.chance(0.3) ? title : null,
      socialDescription: r.chance(0.3) ? r.pick(pools.sentences) : null,
      socialImageUrl: r.chance(0.3) ? `https://cdn.example-news.com/social/${a + 1}.jpg` : null,
    },
    timeToRead: Math.max(30, Math.round((words / 220) * 60)),
    accessControlEnabled: premium && r.chance(0.95),
    accessGroups: premium && r.chance(0.1) ? ['digital-plus'] : [],
    status,
    publishAt: scheduledPublishAt(ctx, status, a),
    cached: r.chance(0.9),
    body,
    preview: paragraphs[0]!.slice(0, 600),
  };
}
