// Read projections: exactly the fields each document type declares, checked by the compiler, so
// reads never drag along fields the API does not map (seed bookkeeping, later migrations).
import type { ArticleDoc, ContentTypeDoc, SponsorDoc } from './article.doc.js';
import type { ChannelDoc } from './channel.doc.js';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, PollVoteDoc, QuizDoc } from './elements.doc.js';
import type { VideoDoc } from './media.doc.js';
import type { IssueDoc, PageDoc } from './page.doc.js';
import type { AuthorDoc, CategoryTypeDoc, ContentCategoryDoc, KeywordDoc } from './taxonomy.doc.js';
import type { ProjectedType } from '../projection.js';

type Projection<T> = { readonly [K in keyof Required<T>]: 1 };
const all = <T>(p: Projection<T>): Projection<T> => p;

export const pageProjection = all<PageDoc>({ _id: 1, name: 1, previewUrl: 1, publicFacingMetadata: 1, enabled: 1 });

export const issueProjection = all<IssueDoc>({
  _id: 1,
  pageId: 1,
  title: 1,
  date: 1,
  status: 1,
  publishAt: 1,
  unpublishAt: 1,
  contents: 1,
  timestamp: 1,
  lastModifierUserId: 1,
  issueNumber: 1,
  pdfFiles: 1,
  imageUrl: 1,
  topImageUrl: 1,
  pollId: 1,
  dynamicSections: 1,
  repeatedArticleGroups: 1,
  frontPage: 1,
  authorIds: 1,
  channelId: 1,
});

export const articleProjection = all<ArticleDoc>({
  _id: 1,
  objectClassName: 1,
  signature: 1,
  absoluteUrl: 1,
  shortUrl: 1,
  slug: 1,
  contentTypeId: 1,
  viewsCount: 1,
  commentsCount: 1,
  averageRatingByCustomers: 1,
  totalRatingsCount: 1,
  previewLimit: 1,
  excludedFromSearchEngine: 1,
  title: 1,
  firstPublishedDate: 1,
  lastUpdateDate: 1,
  categoryIds: 1,
  categoryId: 1,
  contentLength: 1,
  summary: 1,
  introduction: 1,
  premium: 1,
  free: 1,
  credits: 1,
  authorIds: 1,
  authorId: 1,
  sponsorId: 1,
  attachments: 1,
  inlineAttachments: 1,
  files: 1,
  videos: 1,
  keywordIds: 1,
  elements: 1,
  seo: 1,
  timeToRead: 1,
  accessControlEnabled: 1,
  accessGroups: 1,
  status: 1,
  publishAt: 1,
  unpublishAt: 1,
  lastModifierUserId: 1,
  cached: 1,
  body: 1,
  preview: 1,
});

export const contentTypeProjection = all<ContentTypeDoc>({ _id: 1, name: 1, slug: 1, editor: 1 });
export const sponsorProjection = all<SponsorDoc>({ _id: 1, url: 1, name: 1, imageUrl: 1 });

export const categoryProjection = all<ContentCategoryDoc>({
  _id: 1,
  name: 1,
  signature: 1,
  slug: 1,
  typeId: 1,
  parentCategoryId: 1,
  imageUrl: 1,
  coverUrl: 1,
  logoUrl: 1,
  paid: 1,
  objectClassName: 1,
  absoluteUrl: 1,
  cssCode: 1,
  templateName: 1,
  tagline: 1,
  linkParameter: 1,
  description: 1,
  metaDescription: 1,
  order: 1,
  pageId: 1,
  articlesCount: 1,
  allowComments: 1,
  accessType: 1,
  status: 1,
});
export const categoryTypeProjection = all<CategoryTypeDoc>({ _id: 1, name: 1, slug: 1 });

export const authorProjection = all<AuthorDoc>({
  _id: 1,
  url: 1,
  name: 1,
  imageUrl: 1,
  imageTransforms: 1,
  coverImageUrl: 1,
  email: 1,
  department: 1,
  slug: 1,
  shortBiography: 1,
  fullDescription: 1,
  latinName: 1,
  country: 1,
  legacySocialProfile: 1,
  microblogHandle: 1,
  socialNetworkUsername: 1,
  professionalNetworkProfile: 1,
  photoSharingHandle: 1,
  className: 1,
  replacedById: 1,
  source: 1,
});

export const keywordProjection = all<KeywordDoc>({
  _id: 1,
  name: 1,
  url: 1,
  slug: 1,
  description: 1,
  articlesCount: 1,
  replacedById: 1,
  displayName: 1,
  translations: 1,
  collectionId: 1,
  imageUrl: 1,
});

export const videoProjection = all<VideoDoc>({
  _id: 1,
  title: 1,
  url: 1,
  duration: 1,
  episodeNumber: 1,
  status: 1,
  showId: 1,
  showName: 1,
  showUrl: 1,
  brief: 1,
  thumbnailUrl: 1,
  thumbnailPlayUrl: 1,
  filename: 1,
  publishDate: 1,
  views: 1,
  publish: 1,
  formats: 1,
});

export const liveBlogProjection = all<LiveBlogDoc>({
  _id: 1,
  title: 1,
  startDate: 1,
  endDate: 1,
  websocketRoomName: 1,
  lastSeq: 1,
});
export const liveBlogMessageProjection = all<LiveBlogMessageDoc>({
  _id: 1,
  liveBlogId: 1,
  seq: 1,
  timestamp: 1,
  text: 1,
  title: 1,
  minute: 1,
  additionalMinute: 1,
  typeId: 1,
  imageLetter: 1,
  highlight: 1,
  htmlContent: 1,
  userDisplayName: 1,
  userThumbnailUrl: 1,
  authorId: 1,
  editedAt: 1,
});

export const pollProjection = all<PollDoc>({
  _id: 1,
  timestamp: 1,
  question: 1,
  choices: 1,
  slug: 1,
  category: 1,
  message: 1,
  onlyLoggedIn: 1,
  endDate: 1,
  closed: 1,
});
export const pollVoteProjection = all<PollVoteDoc>({ _id: 1, pollId: 1, customerId: 1, choiceId: 1, votedAt: 1 });

export const quizProjection = all<QuizDoc>({
  _id: 1,
  name: 1,
  timestamp: 1,
  image: 1,
  coverPicture: 1,
  description: 1,
  share: 1,
  template: 1,
  allowForm: 1,
  introductionMessage: 1,
  thankyouMessage: 1,
  terms: 1,
  status: 1,
  questions: 1,
  results: 1,
});

export const channelProjection = all<ChannelDoc>({
  _id: 1,
  name: 1,
  image: 1,
  description: 1,
  objectType: 1,
  configuration: 1,
});

// What each API field reads, where that is not the stored field of its own name (see store/projection.ts).
// The types here are those read in bulk (every article of a page of issues, and their authors, categories and
// keywords); the others are always read whole.

/** The fields premium access is decided on (operations/content/access.ts). */
const ACCESS = ['accessControlEnabled', 'premium', 'accessGroups'] as const;

export const articleType: ProjectedType = {
  graphqlType: 'Article',
  reads: {
    id: ['_id'],
    contentType: ['contentTypeId'],
    categories: ['categoryIds'],
    category: ['categoryId'],
    authors: ['authorIds'],
    author: ['authorId'],
    sponsor: ['sponsorId'],
    keywords: ['keywordIds'],
    accessAllowed: ACCESS,
    body: [...ACCESS, 'body'],
    preview: [...ACCESS, 'preview', 'previewLimit'],
  },
};

export const issueType: ProjectedType = {
  graphqlType: 'Issue',
  reads: {
    id: ['_id'],
    contents: ['contents'],
    page: ['pageId'],
    poll: ['pollId'],
    channel: ['channelId'],
    authors: ['authorIds'],
    dynamicSection: ['dynamicSections'],
  },
};

export const authorType: ProjectedType = {
  graphqlType: 'Author',
  reads: { id: ['_id'], replacedBy: ['replacedById'], articles: ['_id'] },
};

export const keywordType: ProjectedType = {
  graphqlType: 'Keyword',
  reads: { id: ['_id'], replacedBy: ['replacedById'], articles: ['_id'], translation: ['translations'] },
};

export const categoryType: ProjectedType = {
  graphqlType: 'ContentCategory',
  reads: { id: ['_id'], type: ['typeId'], parent: ['parentCategoryId'], page: ['pageId'], articles: ['_id'] },
};
