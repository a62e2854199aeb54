// Stored articles (with their embedded attachments), content types and sponsors -> API objects.
import type { ContentType, Sponsor } from '../../../schema/content/article-parts.type.js';
import type { Article } from '../../../schema/content/article.type.js';
import type { Attachment } from '../../../schema/content/attachment.type.js';
import type { AttachmentType, PublicationStatus } from '../../../schema/content/enums.js';
import type { ArticleDoc, ContentTypeDoc, SponsorDoc } from '../article.doc.js';
import type { AttachmentDoc } from '../media.doc.js';
import { toImageTransform } from './common.mapper.js';

/** The entitlement group premium articles need when they name none (docs/api.md). */
export const DEFAULT_ACCESS_GROUP = 'subscription';

function toAttachment(doc: AttachmentDoc): Attachment {
  return {
    id: doc.id,
    name: doc.name,
    description: doc.description,
    type: doc.type as AttachmentType,
    publicUrl: doc.publicUrl,
    width: doc.width,
    height: doc.height,
    focalPoint: doc.focalPoint,
    transforms: doc.transforms.map(toImageTransform),
    additionalUrls: doc.additionalUrls.map((u) => ({ transform: u.transform, url: u.url })),
    searchTitle: doc.searchTitle,
    searchDescription: doc.searchDescription,
    socialTitle: doc.socialTitle,
    videoId: doc.videoId,
  };
}

/**
 * Reads may be narrowed to the fields an operation selects (store/projection.ts): a stored list or object the
 * operation did not ask for is absent, and its API field (never resolved) is left empty.
 */
export function toArticle(doc: ArticleDoc): Article {
  const elements = doc.elements as ArticleDoc['elements'] | undefined;
  return {
    objectClassName: doc.objectClassName,
    id: doc._id,
    signature: doc.signature,
    absoluteUrl: doc.absoluteUrl,
    shortUrl: doc.shortUrl,
    slug: doc.slug,
    contentTypeId: doc.contentTypeId,
    viewsCount: doc.viewsCount,
    commentsCount: doc.commentsCount,
    averageRatingByCustomers: doc.averageRatingByCustomers,
    totalRatingsCount: doc.totalRatingsCount,
    previewLimit: doc.previewLimit,
    excludedFromSearchEngine: doc.excludedFromSearchEngine,
    title: doc.title,
    firstPublishedDate: doc.firstPublishedDate,
    lastUpdateDate: doc.lastUpdateDate,
    contentLength: doc.contentLength,
    summary: doc.summary,
    introduction: doc.introduction,
    premium: doc.premium,
    free: doc.free,
    credits: doc.credits,
    attachments: (doc.attachments ?? []).map(toAttachment),
    inlineAttachments: (doc.inlineAttachments ?? []).map(toAttachment),
    files: (doc.files ?? []).map(toAttachment),
    videos: (doc.videos ?? []).map(toAttachment),
    elements: {
      videoPlatformVideoIds: elements?.videoPlatformVideoIds ?? [],
      liveBlogIds: elements?.liveBlogIds ?? [],
      pollIds: elements?.pollIds ?? [],
      quizIds: elements?.quizIds ?? [],
    },
    seo: { ...doc.seo },
    timeToRead: doc.timeToRead,
    accessControlEnabled: doc.accessControlEnabled,
    accessGroups: doc.accessGroups?.length ? doc.accessGroups : [DEFAULT_ACCESS_GROUP],
    status: doc.status as PublicationStatus,
    cached: doc.cached,
    categoryId: doc.categoryId,
    authorId: doc.authorId,
    sponsorId: doc.sponsorId,
    categoryIds: doc.categoryIds,
    authorIds: doc.authorIds,
    keywordIds: doc.keywordIds,
    fullBody: doc.body,
    fullPreview: doc.preview,
  };
}

export const toContentType = (doc: ContentTypeDoc): ContentType => ({
  id: doc._id,
  name: doc.name,
  slug: doc.slug,
  editor: doc.editor,
});

export const toSponsor = (doc: SponsorDoc): Sponsor => ({
  id: doc._id,
  url: doc.url,
  name: doc.name,
  imageUrl: doc.imageUrl,
});
