// An article in the legacy REST representation (docs/api.md), from the API object and what the shared operations
// say it points at: the v3 fields in the legacy order, keyed objects where the interface says "keyed by", values
// lower-case as stored. Everything is normally read ahead (operations/content/page-issues.read.ts), so the awaits
// below answer at once.
import type { Context } from '../context.js';
import { accessAllowed, articleBody, articlePreview } from '../operations/content/access.js';
import {
  liveBlogsOf,
  pollsOf,
  previewMessages,
  quizzesOf,
  videoOf,
  viewerVote,
} from '../operations/content/elements.js';
import {
  authorOf,
  authorsOf,
  categoriesOf,
  categoryOf,
  categoryTypeOf,
  contentTypeOf,
  keywordsOf,
  sponsorOf,
} from '../operations/content/related.js';
import type { Article } from '../schema/content/article.type.js';
import type { Attachment } from '../schema/content/attachment.type.js';
import type { Author } from '../schema/content/author.type.js';
import type { ContentCategory } from '../schema/content/category.type.js';
import type { LiveBlog } from '../schema/content/live-blog.type.js';
import type { Poll } from '../schema/content/poll.type.js';
import type { Quiz } from '../schema/content/quiz.type.js';
import type { Video } from '../schema/content/video.type.js';

export type Json = Record<string, unknown>;

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/**
 * One answer shows the same article, category or author in many places (an issue's contents, sections, groups and
 * front page; every article's categories and authors): each is shaped once per request and the same object written
 * at every place. A shape depends only on the object and the reader, both fixed for the request.
 */
const shapedFor = new WeakMap<Context, Map<string, unknown>>();
function once<T>(ctx: Context, key: string, shape: () => T): T {
  let shaped = shapedFor.get(ctx);
  if (!shaped) shapedFor.set(ctx, (shaped = new Map()));
  if (!shaped.has(key)) shaped.set(key, shape());
  return shaped.get(key) as T;
}

const transforms = (list: ReadonlyArray<{ width: number; height: number; url: string }>): Json[] =>
  list.map((t) => ({ width: t.width, height: t.height, url: t.url }));

export function legacyCategory(ctx: Context, c: ContentCategory | null): Promise<Json | null> {
  return c ? once(ctx, `category\u0000${c.id}`, () => categoryShape(ctx, c)) : Promise.resolve(null);
}

async function categoryShape(ctx: Context, c: ContentCategory): Promise<Json> {
  const [type, parent] = [await categoryTypeOf(ctx, c), await categoryOf(ctx, c.parentCategoryId)];
  return {
    id: c.id,
    name: c.name,
    signature: c.signature,
    slug: c.slug,
    typeId: c.typeId,
    type: type ? { id: type.id, name: type.name, slug: type.slug } : null,
    parentCategoryId: c.parentCategoryId,
    parent: parent ? { id: parent.id, name: parent.name, slug: parent.slug } : null,
    imageUrl: c.imageUrl,
    coverUrl: c.coverUrl,
    logoUrl: c.logoUrl,
    paid: c.paid,
    objectClassName: c.objectClassName,
    absoluteUrl: c.absoluteUrl,
    cssCode: c.cssCode,
    templateName: c.templateName,
    tagline: c.tagline,
    linkParameter: c.linkParameter,
    description: c.description,
    metaDescription: c.metaDescription,
    order: c.order,
    pageId: c.pageId,
    articlesCount: c.articlesCount,
    allowComments: c.allowComments,
    accessType: c.accessType,
    status: c.status,
  };
}

export const legacyAuthor = (ctx: Context, a: Author): Json => once(ctx, `author\u0000${a.id}`, () => authorShape(a));

const authorShape = (a: Author): Json => ({
  id: a.id,
  url: a.url,
  name: a.name,
  imageUrl: a.imageUrl,
  imageTransforms: transforms(a.imageTransforms),
  coverImageUrl: a.coverImageUrl,
  email: a.email,
  department: a.department,
  slug: a.slug,
  shortBiography: a.shortBiography,
  fullDescription: a.fullDescription,
  latinName: a.latinName,
  country: a.country,
  legacySocialProfile: a.legacySocialProfile,
  microblogHandle: a.microblogHandle,
  socialNetworkUsername: a.socialNetworkUsername,
  professionalNetworkProfile: a.professionalNetworkProfile,
  photoSharingHandle: a.photoSharingHandle,
  className: a.className,
  replacedById: a.replacedById,
  source: a.source,
});

const legacyVideo = (v: Video | null): Json | null =>
  v && {
    id: v.id,
    title: v.title,
    url: v.url,
    duration: v.duration,
    episodeNumber: v.episodeNumber,
    status: v.status,
    showId: v.showId,
    showName: v.showName,
    showUrl: v.showUrl,
    brief: v.brief,
    thumbnailUrl: v.thumbnailUrl,
    thumbnailPlayUrl: v.thumbnailPlayUrl,
    filename: v.filename,
    publishDate: iso(v.publishDate),
    views: v.views,
    publish: v.publish,
    formats: v.formats.map((f) => ({
      format: f.format,
      filename: f.filename,
      cdnPath: f.cdnPath,
      mimeType: f.mimeType,
      duration: f.duration,
    })),
  };

async function legacyAttachments(ctx: Context, list: readonly Attachment[]): Promise<Json[]> {
  const out: Json[] = [];
  for (const x of list) {
    const additionalUrls: Record<string, string> = {};
    for (const u of x.additionalUrls) additionalUrls[u.transform] = u.url;
    out.push({
      id: x.id,
      name: x.name,
      description: x.description,
      type: x.type,
      publicUrl: x.publicUrl,
      width: x.width,
      height: x.height,
      focalPoint: x.focalPoint,
      transforms: transforms(x.transforms),
      additionalUrls,
      searchTitle: x.searchTitle,
      searchDescription: x.searchDescription,
      socialTitle: x.socialTitle,
      videoId: x.videoId,
      video: legacyVideo(await videoOf(ctx, x)),
    });
  }
  return out;
}

async function legacyLiveBlog(ctx: Context, b: LiveBlog): Promise<Json> {
  return {
    id: b.id,
    title: b.title,
    startDate: iso(b.startDate),
    endDate: iso(b.endDate),
    websocketRoomName: b.websocketRoomName,
    previewMessages: (await previewMessages(ctx, b)).map((m) => ({
      id: m.id,
      timestamp: iso(m.timestamp),
      text: m.text,
      title: m.title,
      minute: m.minute,
      additionalMinute: m.additionalMinute,
      typeId: m.typeId,
      imageLetter: m.imageLetter,
      highlight: m.highlight,
      htmlContent: m.htmlContent,
      userDisplayName: m.userDisplayName,
      userThumbnailUrl: m.userThumbnailUrl,
    })),
  };
}

async function legacyPoll(ctx: Context, q: Poll): Promise<Json> {
  const vote = await viewerVote(ctx, q);
  return {
    id: q.id,
    timestamp: iso(q.timestamp),
    question: q.question,
    choices: q.choices.map((c) => ({ id: c.key, text: c.text, votes: c.votes })),
    votes: q.votes,
    slug: q.slug,
    category: q.category ? { id: q.category.id, name: q.category.name, image: q.category.image } : null,
    results: q.results.map((r) => ({ choiceId: r.choiceKey, votes: r.votes, percentage: r.percentage })),
    message: q.message,
    onlyLoggedIn: q.onlyLoggedIn,
    endDate: iso(q.endDate),
    voted: vote !== null,
    votedChoice: vote?.choiceId ?? null,
    closed: q.closed,
  };
}

const legacyQuiz = (z: Quiz): Json => ({
  id: z.id,
  name: z.name,
  timestamp: iso(z.timestamp),
  image: z.image,
  coverPicture: z.coverPicture,
  description: z.description,
  share: z.share,
  template: z.template,
  allowForm: z.allowForm,
  introductionMessage: z.introductionMessage,
  thankyouMessage: z.thankyouMessage,
  terms: z.terms,
  status: z.status,
  questions: z.questions.map((q) => ({
    id: q.key,
    title: q.title,
    resultText: q.resultText,
    image: q.image,
    choices: q.choices.map((c) => ({
      id: c.key,
      text: c.text,
      letter: c.letter,
      image: c.image,
      correct: c.correct,
      points: c.points,
      votes: c.votes,
    })),
  })),
  results: z.results.map((r) => ({
    id: r.key,
    result: r.result,
    image: r.image,
    letter: r.letter,
    resultText: r.resultText,
    share: r.share,
    twitterShare: r.twitterShare,
    minimum: r.minimum,
    maximum: r.maximum,
    votes: r.votes,
  })),
});

async function each<T>(list: readonly T[], show: (item: T) => Promise<Json | null>): Promise<Json[]> {
  const out: Json[] = [];
  for (const item of list) out.push((await show(item))!);
  return out;
}

export function legacyArticle(ctx: Context, a: Article): Promise<Json> {
  return once(ctx, `article\u0000${a.id}`, () => articleShape(ctx, a));
}

async function articleShape(ctx: Context, a: Article): Promise<Json> {
  const contentType = await contentTypeOf(ctx, a);
  const sponsor = await sponsorOf(ctx, a);
  const author = await authorOf(ctx, a.authorId);
  const e = a.elements;
  return {
    objectClassName: a.objectClassName,
    id: a.id,
    signature: a.signature,
    absoluteUrl: a.absoluteUrl,
    shortUrl: a.shortUrl,
    slug: a.slug,
    contentTypeId: a.contentTypeId,
    contentType: contentType
      ? { id: contentType.id, name: contentType.name, slug: contentType.slug, editor: contentType.editor }
      : null,
    viewsCount: a.viewsCount,
    commentsCount: a.commentsCount,
    averageRatingByCustomers: a.averageRatingByCustomers,
    totalRatingsCount: a.totalRatingsCount,
    previewLimit: a.previewLimit,
    excludedFromSearchEngine: a.excludedFromSearchEngine,
    title: a.title,
    firstPublishedDate: iso(a.firstPublishedDate),
    lastUpdateDate: iso(a.lastUpdateDate),
    categories: await each(await categoriesOf(ctx, a.categoryIds), (c) => legacyCategory(ctx, c)),
    contentLength: a.contentLength,
    summary: a.summary,
    introduction: a.introduction,
    premium: a.premium,
    free: a.free,
    credits: a.credits,
    authors: (await authorsOf(ctx, a.authorIds)).map((x) => legacyAuthor(ctx, x)),
    sponsorId: a.sponsorId,
    sponsor: sponsor ? { id: sponsor.id, url: sponsor.url, name: sponsor.name, imageUrl: sponsor.imageUrl } : null,
    attachments: await legacyAttachments(ctx, a.attachments),
    inlineAttachments: await legacyAttachments(ctx, a.inlineAttachments),
    files: await legacyAttachments(ctx, a.files),
    videos: await legacyAttachments(ctx, a.videos),
    keywords: (await keywordsOf(ctx, a.keywordIds)).map((k) => {
      const translations: Record<string, Json> = {};
      for (const t of k.translations)
        translations[t.language] = {
          language: t.language,
          name: t.name,
          displayName: t.displayName,
          description: t.description,
          slug: t.slug,
        };
      return {
        id: k.id,
        name: k.name,
        url: k.url,
        slug: k.slug,
        description: k.description,
        articlesCount: k.articlesCount,
        replacedById: k.replacedById,
        displayName: k.displayName,
        translations,
        collectionId: k.collectionId,
        imageUrl: k.imageUrl,
      };
    }),
    elements: {
      liveBlogs: await each(await liveBlogsOf(ctx, e), (b) => legacyLiveBlog(ctx, b)),
      polls: await each(await pollsOf(ctx, e), (q) => legacyPoll(ctx, q)),
      quizzes: (await quizzesOf(ctx, e)).map(legacyQuiz),
      videoPlatformVideoIds: e.videoPlatformVideoIds,
    },
    seo: {
      searchTitle: a.seo.searchTitle,
      searchDescription: a.seo.searchDescription,
      socialTitle: a.seo.socialTitle,
      socialDescription: a.seo.socialDescription,
      socialImageUrl: a.seo.socialImageUrl,
    },
    timeToRead: a.timeToRead,
    accessControlEnabled: a.accessControlEnabled,
    accessAllowed: await accessAllowed(ctx, a),
    accessGroups: a.accessGroups,
    status: a.status,
    cached: a.cached,
    categoryId: a.categoryId,
    category: await legacyCategory(ctx, await categoryOf(ctx, a.categoryId)),
    authorId: a.authorId,
    author: author ? legacyAuthor(ctx, author) : null,
    body: await articleBody(ctx, a),
    preview: await articlePreview(ctx, a),
  };
}
