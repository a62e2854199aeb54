// The objects an article of GET /cms/page/{id}/issues is made of, in the legacy
// REST shape the shim writes (src/rest/page-issues.legacy-article.ts):
// statuses as lower-case strings, translations and additional URLs keyed. Field lists follow what the
// shim writes; the live-response tests pin that nothing is sent that is not listed here.
import { AttachmentType, CategoryStatus, QuizStatus, VideoStatus } from '../../schema/content/enums.js';
import { z } from '../zod.js';

export const str = z.string();
export const opt = z.string().nullable();
export const int = (description?: string) => (description ? z.number().int().describe(description) : z.number().int());
export const dateTime = z.iso.datetime().describe('ISO 8601 date-time, UTC');
const ref = z.object({ id: str, name: str, slug: str });
const transform = z.object({ width: int('Width in pixels'), height: int('Height in pixels'), url: str });

export const contentCategory = z
  .object({
    id: str,
    name: str,
    signature: str,
    slug: str,
    typeId: opt,
    type: ref.nullable().describe('The category type, when `typeId` names one'),
    parentCategoryId: opt,
    parent: ref.nullable(),
    imageUrl: opt,
    coverUrl: opt,
    logoUrl: opt,
    paid: z.boolean(),
    objectClassName: str,
    absoluteUrl: str,
    cssCode: opt,
    templateName: opt,
    tagline: opt,
    linkParameter: opt,
    description: opt,
    metaDescription: opt,
    order: int(),
    pageId: opt,
    articlesCount: int(),
    allowComments: z.boolean(),
    accessType: str.describe('For example `public` or `restricted`'),
    status: z.enum(CategoryStatus),
  })
  .openapi('ContentCategory', { description: 'A content category' });

export const author = z
  .object({
    id: str,
    url: str,
    name: str,
    imageUrl: opt,
    imageTransforms: z.array(transform),
    coverImageUrl: opt,
    email: opt,
    department: opt,
    slug: str.describe('Editorial name'),
    shortBiography: opt,
    fullDescription: opt.describe('HTML'),
    latinName: opt,
    country: opt,
    legacySocialProfile: opt,
    microblogHandle: opt.describe('Without the at-sign'),
    socialNetworkUsername: opt,
    professionalNetworkProfile: opt,
    photoSharingHandle: opt,
    className: str,
    replacedById: opt.describe('If this author was replaced, the id of the replacement'),
    source: opt,
  })
  .openapi('Author', { description: 'An author' });

export const keyword = z
  .object({
    id: str,
    name: str,
    url: str,
    slug: str,
    description: opt,
    articlesCount: int(),
    replacedById: opt,
    displayName: opt,
    translations: z
      .record(z.string(), z.object({ language: str, name: str, displayName: opt, description: opt, slug: opt }))
      .describe('Keyed by ISO 639-1 language code'),
    collectionId: opt,
    imageUrl: opt,
  })
  .openapi('Keyword', { description: 'A keyword' });

const video = z
  .object({
    id: str,
    title: str,
    url: str,
    duration: int('Duration in seconds'),
    episodeNumber: int().nullable(),
    status: z.enum(VideoStatus),
    showId: opt,
    showName: opt,
    showUrl: opt,
    brief: opt,
    thumbnailUrl: opt,
    thumbnailPlayUrl: opt,
    filename: str,
    publishDate: dateTime.nullable(),
    views: int(),
    publish: z.boolean(),
    formats: z.array(
      z.object({ format: str, filename: str, cdnPath: str, mimeType: str, duration: int('Duration in seconds') }),
    ),
  })
  .openapi('Video', { description: 'A video' });

export const attachment = z
  .object({
    id: str,
    name: str,
    description: opt,
    type: z.enum(AttachmentType),
    publicUrl: str,
    width: int('Width in pixels').nullable(),
    height: int('Height in pixels').nullable(),
    focalPoint: opt.describe("Focal point as 'x% y%'"),
    transforms: z.array(transform),
    additionalUrls: z.record(z.string(), str).describe('Additional URL per transform, keyed by transform'),
    searchTitle: opt,
    searchDescription: opt,
    socialTitle: opt,
    videoId: opt,
    video: video.nullable(),
  })
  .openapi('Attachment', { description: 'An image, video or file attached to an article' });

const liveBlog = z.object({
  id: str,
  title: str,
  startDate: dateTime,
  endDate: dateTime.nullable(),
  websocketRoomName: str,
  previewMessages: z.array(
    z.object({
      id: str,
      timestamp: dateTime,
      text: str,
      title: opt,
      minute: int().nullable(),
      additionalMinute: int().nullable(),
      typeId: opt,
      imageLetter: opt,
      highlight: z.boolean(),
      htmlContent: opt,
      userDisplayName: opt,
      userThumbnailUrl: opt,
    }),
  ),
});

const poll = z.object({
  id: str,
  timestamp: dateTime,
  question: str,
  choices: z.array(z.object({ id: str, text: str, votes: int() })),
  votes: int(),
  slug: str,
  category: z.object({ id: str, name: str, image: opt }).nullable(),
  results: z.array(
    z.object({ choiceId: str, votes: int(), percentage: z.number().describe('Percentage of all votes') }),
  ),
  message: opt,
  onlyLoggedIn: z.boolean(),
  endDate: dateTime.nullable(),
  voted: z.boolean(),
  votedChoice: opt,
  closed: z.boolean(),
});

const quiz = z.object({
  id: str,
  name: str,
  timestamp: dateTime,
  image: opt,
  coverPicture: opt,
  description: opt,
  share: opt,
  template: opt,
  allowForm: z.boolean(),
  introductionMessage: opt,
  thankyouMessage: opt,
  terms: opt,
  status: z.enum(QuizStatus),
  questions: z.array(
    z.object({
      id: str,
      title: str,
      resultText: opt,
      image: opt,
      choices: z.array(
        z.object({ id: str, text: str, letter: str, image: opt, correct: z.boolean(), points: int(), votes: int() }),
      ),
    }),
  ),
  results: z.array(
    z.object({
      id: str,
      result: str,
      image: opt,
      letter: opt,
      resultText: opt,
      share: opt,
      twitterShare: opt,
      minimum: int(),
      maximum: int(),
      votes: int(),
    }),
  ),
});

export const elements = z
  .object({
    liveBlogs: z.array(liveBlog),
    polls: z.array(poll),
    quizzes: z.array(quiz),
    videoPlatformVideoIds: z.array(str),
  })
  .describe('Live blogs, polls, quizzes and video-platform video ids of an article');
