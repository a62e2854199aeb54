// The REST list's articles in the legacy JSON, with the categories, authors, attachments and elements they
// carry, built by hand from the documents the minimal handler read.
import type { ArticleDoc, ContentTypeDoc, SponsorDoc } from '../src/store/content/article.doc.js';
import type { ChannelDoc } from '../src/store/content/channel.doc.js';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc } from '../src/store/content/elements.doc.js';
import type { AttachmentDoc, VideoDoc } from '../src/store/content/media.doc.js';
import type { IssueDoc, PageDoc } from '../src/store/content/page.doc.js';
import type { DynamicSectionDoc } from '../src/store/content/section.doc.js';
import type { AuthorDoc, CategoryTypeDoc, ContentCategoryDoc, KeywordDoc } from '../src/store/content/taxonomy.doc.js';

export type Json = Record<string, unknown>;

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/** The documents the REST list's answer is built from (read in waves by minimal-issues.ts). */
export interface IssuesRead {
  page: PageDoc;
  issues: IssueDoc[];
  total: number;
  limit: number;
  /** Each issue's contents whose category is visible. */
  kept: Array<IssueDoc['contents']>;
  channels: Map<string, ChannelDoc>;
  issueAuthors: Map<string, AuthorDoc>;
  articles: Map<string, ArticleDoc>;
  contentTypes: Map<string, ContentTypeDoc>;
  sponsors: Map<string, SponsorDoc>;
  keywords: Map<string, KeywordDoc>;
  videos: Map<string, VideoDoc>;
  liveBlogs: Map<string, LiveBlogDoc>;
  polls: Map<string, PollDoc>;
  quizzes: Map<string, QuizDoc>;
  types: Map<string, CategoryTypeDoc>;
  parents: Map<string, ContentCategoryDoc>;
  messages: LiveBlogMessageDoc[];
  category: (id: string | null) => ContentCategoryDoc | null;
  author: (id: string | null) => AuthorDoc | null;
}

const newestFirst = (a: ArticleDoc, b: ArticleDoc): number =>
  (b.firstPublishedDate?.getTime() ?? 0) - (a.firstPublishedDate?.getTime() ?? 0) ||
  (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);

/** The articles a section shows: in editorial order, newest first for `append`, cut to its limit. */
export function sectionArticles(section: DynamicSectionDoc, articles: Map<string, ArticleDoc>): ArticleDoc[] {
  if (section.type !== 'articles' || section.articleIds.length === 0) return [];
  const found = section.articleIds.flatMap((id) => (articles.has(id) ? [articles.get(id)!] : []));
  if (section.direction === 'append') found.sort(newestFirst);
  return found.slice(0, Math.max(0, section.limit));
}

export const present = <T>(ids: readonly string[], docs: Map<string, T>): T[] =>
  ids.flatMap((id) => (docs.has(id) ? [docs.get(id)!] : []));

/** The shapes of one answer: categories, authors and articles, over the documents it read. */
export function legacyShapes(r: IssuesRead) {
  const {
    category,
    author,
    types,
    parents,
    videos,
    messages,
    contentTypes,
    sponsors,
    keywords,
    liveBlogs,
    polls,
    quizzes,
  } = r;
  const brief = (c: ContentCategoryDoc | null | undefined): Json | null =>
    c ? { id: c._id, name: c.name, slug: c.slug } : null;
  const legacyCategory = (id: string | null): Json | null => {
    const c = category(id);
    if (!c) return null;
    const type = c.typeId ? types.get(c.typeId) : undefined;
    const parent = c.parentCategoryId ? (category(c.parentCategoryId) ?? parents.get(c.parentCategoryId)) : undefined;
    return {
      id: c._id,
      name: c.name,
      signature: c.signature,
      slug: c.slug,
      typeId: c.typeId,
      type: type ? { id: type._id, name: type.name, slug: type.slug } : null,
      parentCategoryId: c.parentCategoryId,
      parent: brief(parent),
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
  };
  const legacyAuthor = (a: AuthorDoc): Json => ({
    id: a._id,
    url: a.url,
    name: a.name,
    imageUrl: a.imageUrl,
    imageTransforms: a.imageTransforms.map((t) => ({ width: t.width, height: t.height, url: t.url })),
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
    source: a.source ?? null,
  });
  const attachment = (x: AttachmentDoc): Json => {
    const v = x.videoId ? videos.get(x.videoId) : undefined;
    return {
      id: x.id,
      name: x.name,
      description: x.description,
      type: x.type,
      publicUrl: x.publicUrl,
      width: x.width,
      height: x.height,
      focalPoint: x.focalPoint,
      transforms: x.transforms.map((t) => ({ width: t.width, height: t.height, url: t.url })),
      additionalUrls: Object.fromEntries(x.additionalUrls.map((u) => [u.transform, u.url])),
      searchTitle: x.searchTitle,
      searchDescription: x.searchDescription,
      socialTitle: x.socialTitle,
      videoId: x.videoId,
      video: v
        ? {
            id: v._id,
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
          }
        : null,
    };
  };
  const messagesOf = new Map<string, LiveBlogMessageDoc[]>();
  for (const m of messages) messagesOf.set(m.liveBlogId, [...(messagesOf.get(m.liveBlogId) ?? []), m]);

  const legacyArticle = (a: ArticleDoc): Json => {
    const contentType = a.contentTypeId ? contentTypes.get(a.contentTypeId) : undefined;
    const sponsor = a.sponsorId ? sponsors.get(a.sponsorId) : undefined;
    const allowed = !(a.accessControlEnabled && a.premium);
    const primaryAuthor = author(a.authorId);
    return {
      objectClassName: a.objectClassName,
      id: a._id,
      signature: a.signature,
      absoluteUrl: a.absoluteUrl,
      shortUrl: a.shortUrl,
      slug: a.slug,
      contentTypeId: a.contentTypeId,
      contentType: contentType
        ? { id: contentType._id, name: contentType.name, slug: contentType.slug, editor: contentType.editor }
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
      categories: a.categoryIds.flatMap((id) => (category(id) ? [legacyCategory(id)] : [])),
      contentLength: a.contentLength,
      summary: a.summary,
      introduction: a.introduction,
      premium: a.premium,
      free: a.free,
      credits: a.credits,
      authors: a.authorIds.flatMap((id) => {
        const found = author(id);
        return found ? [legacyAuthor(found)] : [];
      }),
      sponsorId: a.sponsorId,
      sponsor: sponsor ? { id: sponsor._id, url: sponsor.url, name: sponsor.name, imageUrl: sponsor.imageUrl } : null,
      attachments: a.attachments.map(attachment),
      inlineAttachments: a.inlineAttachments.map(attachment),
      files: a.files.map(attachment),
      videos: a.videos.map(attachment),
      keywords: present(a.keywordIds, keywords).map((k) => ({
        id: k._id,
        name: k.name,
        url: k.url,
        slug: k.slug,
        description: k.description,
        articlesCount: k.articlesCount,
        replacedById: k.replacedById,
        displayName: k.displayName,
        translations: Object.fromEntries(
          k.translations.map((t) => [
            t.language,
            {
              language: t.language,
              name: t.name,
              displayName: t.displayName,
              description: t.description,
              slug: t.slug,
            },
          ]),
        ),
        collectionId: k.collectionId,
        imageUrl: k.imageUrl,
      })),
      elements: {
        liveBlogs: present(a.elements.liveBlogIds, liveBlogs).map((b) => ({
          id: b._id,
          title: b.title,
          startDate: iso(b.startDate),
          endDate: iso(b.endDate),
          websocketRoomName: b.websocketRoomName,
          previewMessages: (messagesOf.get(b._id) ?? []).map((m) => ({
            id: m._id,
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
        })),
        polls: present(a.elements.pollIds, polls).map((q) => {
          const votes = q.choices.reduce((sum, c) => sum + c.votes, 0);
          return {
            id: q._id,
            timestamp: iso(q.timestamp),
            question: q.question,
            choices: q.choices.map((c) => ({ id: c.id, text: c.text, votes: c.votes })),
            votes,
            slug: q.slug,
            category: q.category ? { id: q.category.id, name: q.category.name, image: q.category.image } : null,
            results: q.choices.map((c) => ({
              choiceId: c.id,
              votes: c.votes,
              percentage: votes === 0 ? 0 : Math.round((c.votes / votes) * 10_000) / 100,
            })),
            message: q.message,
            onlyLoggedIn: q.onlyLoggedIn,
            endDate: iso(q.endDate),
            voted: false,
            votedChoice: null,
            closed: q.closed,
          };
        }),
        quizzes: present(a.elements.quizIds, quizzes).map((z) => ({
          id: z._id,
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
            id: q.id,
            title: q.title,
            resultText: q.resultText,
            image: q.image,
            choices: q.choices.map((c) => ({
              id: c.id,
              text: c.text,
              letter: c.letter,
              image: c.image,
              correct: c.correct,
              points: c.points,
              votes: c.votes,
            })),
          })),
          results: z.results.map((r) => ({
            id: r.id,
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
        })),
        videoPlatformVideoIds: a.elements.videoPlatformVideoIds,
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
      accessAllowed: allowed,
      accessGroups: a.accessGroups.length ? a.accessGroups : ['subscription'],
      status: a.status,
      cached: a.cached,
      categoryId: a.categoryId,
      category: legacyCategory(a.categoryId),
      authorId: a.authorId,
      author: primaryAuthor ? legacyAuthor(primaryAuthor) : null,
      body: allowed ? a.body : null,
      preview: allowed ? a.preview : Array.from(a.preview).slice(0, Math.max(0, a.previewLimit)).join(''),
    };
  };
  return { legacyCategory, legacyAuthor, legacyArticle };
}
