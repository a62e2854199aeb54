// Stored shape of articles (collection `articles`) and the small shared records they point at
// (`contentTypes`, `sponsors`). Attachments are embedded: they have no life outside their article.
import type { PublicationStatusValue } from './page.doc.js';
import type { AttachmentDoc } from './media.doc.js';

interface ArticleElementsDoc {
  liveBlogIds: string[];
  pollIds: string[];
  quizIds: string[];
  videoPlatformVideoIds: string[];
}

interface SeoDoc {
  searchTitle: string | null;
  searchDescription: string | null;
  socialTitle: string | null;
  socialDescription: string | null;
  socialImageUrl: string | null;
}

export interface ArticleDoc {
  _id: string;
  objectClassName: string;
  signature: string;
  absoluteUrl: string;
  shortUrl: string;
  slug: string;
  contentTypeId: string | null;
  viewsCount: number;
  commentsCount: number;
  averageRatingByCustomers: number;
  totalRatingsCount: number;
  previewLimit: number;
  excludedFromSearchEngine: boolean;
  title: string;
  firstPublishedDate: Date | null;
  lastUpdateDate: Date;
  /** Every category the article is filed under; includes `categoryId`. */
  categoryIds: string[];
  categoryId: string | null;
  contentLength: number;
  summary: string;
  introduction: string;
  premium: boolean;
  free: boolean;
  credits: string | null;
  authorIds: string[];
  authorId: string | null;
  sponsorId: string | null;
  attachments: AttachmentDoc[];
  inlineAttachments: AttachmentDoc[];
  files: AttachmentDoc[];
  videos: AttachmentDoc[];
  keywordIds: string[];
  elements: ArticleElementsDoc;
  seo: SeoDoc;
  timeToRead: number;
  accessControlEnabled: boolean;
  /** Entitlement groups that unlock the article; empty means the default group. */
  accessGroups: string[];
  status: PublicationStatusValue;
  /** When a `scheduled` article goes live (src/operations/content/publication-clock.ts); null otherwise. */
  publishAt?: Date | null;
  /** When a `published` article is archived by itself (embargo end, rights expiry); null for never. */
  unpublishAt?: Date | null;
  /** The editor who last changed its publication status. */
  lastModifierUserId?: string | null;
  cached: boolean;
  /** Full HTML body; withheld from viewers without access. */
  body: string;
  /** Plain-text teaser; cut to `previewLimit` characters for viewers without access. */
  preview: string;
}

export interface ContentTypeDoc {
  _id: string;
  name: string;
  slug: string;
  editor: string;
}

export interface SponsorDoc {
  _id: string;
  url: string;
  name: string;
  imageUrl: string | null;
}

declare module '../collections.js' {
  interface CollectionTypes {
    articles: ArticleDoc;
    contentTypes: ContentTypeDoc;
    sponsors: SponsorDoc;
  }
}
