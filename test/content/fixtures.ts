// Fixture builder for content tests: stored documents with known values (every field filled), and a
// whole graph (page -> issues -> articles -> everything an article points at) of any size.
import type { Db, Document } from 'mongodb';
import type { ArticleDoc, ContentTypeDoc, SponsorDoc } from '../../src/store/content/article.doc.js';
import type { ChannelDoc } from '../../src/store/content/channel.doc.js';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc } from '../../src/store/content/elements.doc.js';
import type { AttachmentDoc, VideoDoc } from '../../src/store/content/media.doc.js';
import type { IssueDoc, PageDoc } from '../../src/store/content/page.doc.js';
import type {
  AuthorDoc,
  CategoryTypeDoc,
  ContentCategoryDoc,
  KeywordDoc,
} from '../../src/store/content/taxonomy.doc.js';

export const day = (n: number): Date => new Date(Date.UTC(2026, 0, 1 + n));

export const page = (id: string, o: Partial<PageDoc> = {}): PageDoc => ({
  _id: id,
  name: `Page ${id}`,
  previewUrl: `https://preview.example.com/${id}`,
  publicFacingMetadata: {
    title: `Title ${id}`,
    description: `About ${id}`,
    language: 'en',
    imageUrl: `https://img.example.com/${id}.jpg`,
    canonicalUrl: `https://example.com/${id}`,
    keywords: ['news', id],
  },
  enabled: true,
  ...o,
});

export const issue = (id: string, pageId: string, o: Partial<IssueDoc> = {}): IssueDoc => ({
  _id: id,
  pageId,
  title: `Issue ${id}`,
  date: day(10),
  status: 'published',
  contents: [],
  timestamp: day(11),
  lastModifierUserId: `editor-${id}`,
  issueNumber: 1,
  pdfFiles: [{ name: 'full', url: `https://pdf.example.com/${id}.pdf` }],
  imageUrl: `https://img.example.com/${id}.jpg`,
  topImageUrl: `https://img.example.com/${id}-top.jpg`,
  pollId: null,
  dynamicSections: [],
  repeatedArticleGroups: [],
  frontPage: null,
  authorIds: [],
  channelId: null,
  ...o,
});

export const attachment = (id: string, o: Partial<AttachmentDoc> = {}): AttachmentDoc => ({
  id,
  name: `Attachment ${id}`,
  description: `Described ${id}`,
  type: 'image',
  publicUrl: `https://cdn.example.com/${id}.jpg`,
  width: 1600,
  height: 900,
  focalPoint: '40% 60%',
  transforms: [{ width: 640, height: 360, url: `https://cdn.example.com/${id}-640x360.jpg` }],
  additionalUrls: [{ transform: '640x360', url: `https://cdn.example.com/${id}-640x360@2x.jpg` }],
  searchTitle: `Search ${id}`,
  searchDescription: `Search description ${id}`,
  socialTitle: `Social ${id}`,
  videoId: null,
  ...o,
});

export const article = (id: string, o: Partial<ArticleDoc> = {}): ArticleDoc => ({
  _id: id,
  objectClassName: 'Article',
  signature: `sig-${id}`,
  absoluteUrl: `https://example.com/a/${id}`,
  shortUrl: `https://ex.am/${id}`,
  slug: `slug-${id}`,
  contentTypeId: null,
  viewsCount: 42,
  commentsCount: 7,
  averageRatingByCustomers: 4.5,
  totalRatingsCount: 12,
  previewLimit: 10,
  excludedFromSearchEngine: false,
  title: `Article ${id}`,
  firstPublishedDate: day(5),
  lastUpdateDate: day(6),
  categoryIds: [],
  categoryId: null,
  contentLength: 23,
  summary: `Summary ${id}`,
  introduction: `Intro ${id}`,
  premium: false,
  free: true,
  credits: 'Photo: Agency',
  authorIds: [],
  authorId: null,
  sponsorId: null,
  attachments: [],
  inlineAttachments: [],
  files: [],
  videos: [],
  keywordIds: [],
  elements: { liveBlogIds: [], pollIds: [], quizIds: [], videoPlatformVideoIds: [] },
  seo: {
    searchTitle: `S ${id}`,
    searchDescription: `SD ${id}`,
    socialTitle: `So ${id}`,
    socialDescription: `SoD ${id}`,
    socialImageUrl: `https://img.example.com/so-${id}.jpg`,
  },
  timeToRead: 180,
  accessControlEnabled: false,
  accessGroups: [],
  status: 'published',
  cached: true,
  body: `<p>Body of ${id}</p>`,
  preview: `The preview of article ${id} goes on for a while.`,
  ...o,
});

export const category = (id: string, o: Partial<ContentCategoryDoc> = {}): ContentCategoryDoc => ({
  _id: id,
  name: `Category ${id}`,
  signature: `csig-${id}`,
  slug: `cat-${id}`,
  typeId: null,
  parentCategoryId: null,
  imageUrl: `https://img.example.com/c-${id}.jpg`,
  coverUrl: `https://img.example.com/c-${id}-cover.jpg`,
  logoUrl: `https://img.example.com/c-${id}-logo.png`,
  paid: false,
  objectClassName: 'Category',
  absoluteUrl: `https://example.com/c/${id}`,
  cssCode: '.c { color: red }',
  templateName: 'default',
  tagline: `Tagline ${id}`,
  linkParameter: `lp-${id}`,
  description: `Description ${id}`,
  metaDescription: `Meta ${id}`,
  order: 3,
  pageId: null,
  articlesCount: 0,
  allowComments: true,
  accessType: 'public',
  status: 'active',
  ...o,
});

export const categoryType = (id: string): CategoryTypeDoc => ({ _id: id, name: `Type ${id}`, slug: `type-${id}` });
export const contentType = (id: string): ContentTypeDoc => ({
  _id: id,
  name: `Content type ${id}`,
  slug: `ct-${id}`,
  editor: 'blocks',
});
export const sponsor = (id: string): SponsorDoc => ({
  _id: id,
  url: `https://sponsor.example.com/${id}`,
  name: `Sponsor ${id}`,
  imageUrl: `https://img.example.com/s-${id}.png`,
});

export const author = (id: string, o: Partial<AuthorDoc> = {}): AuthorDoc => ({
  _id: id,
  url: `https://example.com/authors/${id}`,
  name: `Author ${id}`,
  imageUrl: `https://img.example.com/au-${id}.jpg`,
  imageTransforms: [{ width: 100, height: 100, url: `https://img.example.com/au-${id}-100.jpg` }],
  coverImageUrl: `https://img.example.com/au-${id}-cover.jpg`,
  email: `${id}@example.com`,
  department: 'Politics',
  slug: `author-${id}`,
  shortBiography: `Short bio ${id}`,
  fullDescription: `<p>Full ${id}</p>`,
  latinName: `Latin ${id}`,
  country: 'SI',
  legacySocialProfile: `legacy-${id}`,
  microblogHandle: `mb_${id}`,
  socialNetworkUsername: `sn.${id}`,
  professionalNetworkProfile: `https://pro.example.com/${id}`,
  photoSharingHandle: `ph_${id}`,
  className: 'Author',
  replacedById: null,
  ...o,
});

export const keyword = (id: string, o: Partial<KeywordDoc> = {}): KeywordDoc => ({
  _id: id,
  name: `Keyword ${id}`,
  url: `https://example.com/k/${id}`,
  slug: `kw-${id}`,
  description: `About keyword ${id}`,
  articlesCount: 0,
  replacedById: null,
  displayName: `#${id}`,
  translations: [
    { language: 'de', name: `Stichwort ${id}`, displayName: `#de-${id}`, description: null, slug: `de-${id}` },
  ],
  collectionId: 'col-1',
  imageUrl: `https://img.example.com/k-${id}.jpg`,
  ...o,
});

export const video = (id: string, o: Partial<VideoDoc> = {}): VideoDoc => ({
  _id: id,
  title: `Video ${id}`,
  url: `https://video.example.com/${id}`,
  duration: 95,
  episodeNumber: 4,
  status: 'ready',
  showId: 'show-1',
  showName: 'The Show',
  showUrl: 'https://video.example.com/show-1',
  brief: `Brief ${id}`,
  thumbnailUrl: `https://img.example.com/v-${id}.jpg`,
  thumbnailPlayUrl: `https://img.example.com/v-${id}-play.jpg`,
  filename: `${id}.mp4`,
  publishDate: day(2),
  views: 1234,
  publish: true,
  formats: [
    { format: 'mp4-720p', filename: `${id}-720.mp4`, cdnPath: `/v/${id}/720.mp4`, mimeType: 'video/mp4', duration: 95 },
  ],
  ...o,
});

export const liveBlog = (id: string, lastSeq: number): LiveBlogDoc => ({
  _id: id,
  title: `Live ${id}`,
  startDate: day(1),
  endDate: day(2),
  websocketRoomName: `room-${id}`,
  lastSeq,
});

export const message = (blogId: string, seq: number): LiveBlogMessageDoc => ({
  _id: `${blogId}-m${seq}`,
  liveBlogId: blogId,
  seq,
  timestamp: new Date(day(1).getTime() + seq * 60_000),
  text: `Message ${seq}`,
  title: `T${seq}`,
  minute: seq,
  additionalMinute: seq === 3 ? 2 : null,
  typeId: 'goal',
  imageLetter: 'G',
  highlight: seq % 2 === 0,
  htmlContent: `<b>${seq}</b>`,
  userDisplayName: 'Reporter',
  userThumbnailUrl: 'https://img.example.com/rep.jpg',
});

/** After any day the tests run: a poll ending then is open. */
export const POLL_END = new Date(Date.UTC(2099, 0, 1));

export const poll = (id: string): PollDoc => ({
  _id: id,
  timestamp: day(3),
  question: `Question ${id}?`,
  slug: `poll-${id}`,
  choices: [
    { id: 'yes', text: 'Yes', votes: 3 },
    { id: 'no', text: 'No', votes: 1 },
  ],
  category: { id: 'pc-1', name: 'Politics', image: 'https://img.example.com/pc-1.png' },
  message: 'Thanks for voting',
  onlyLoggedIn: false,
  endDate: POLL_END,
  closed: false,
});

export const quiz = (id: string, o: Partial<QuizDoc> = {}): QuizDoc => ({
  _id: id,
  name: `Quiz ${id}`,
  timestamp: day(4),
  image: 'https://img.example.com/q.jpg',
  coverPicture: 'https://img.example.com/qc.jpg',
  description: 'A quiz',
  share: 'Share me',
  template: 'classic',
  allowForm: true,
  introductionMessage: 'Hello',
  thankyouMessage: 'Thanks',
  terms: 'Terms apply',
  status: 'open',
  questions: [
    {
      id: 'q1',
      title: 'Capital of Slovenia?',
      resultText: 'Ljubljana it is',
      image: null,
      choices: [
        { id: 'a1', text: 'Ljubljana', letter: 'A', image: null, correct: true, points: 10, votes: 8 },
        { id: 'a2', text: 'Maribor', letter: 'B', image: null, correct: false, points: 0, votes: 2 },
      ],
    },
  ],
  results: [
    {
      id: 'r1',
      result: 'Expert',
      image: null,
      letter: 'A',
      resultText: 'Well done',
      share: 'I am an expert',
      twitterShare: 'Expert!',
      minimum: 10,
      maximum: 10,
      votes: 8,
    },
  ],
  ...o,
});

export const channel = (id: string): ChannelDoc => ({
  _id: id,
  name: `Channel ${id}`,
  image: `https://img.example.com/ch-${id}.png`,
  description: 'The web site',
  objectType: 'site',
  configuration: {
    linkables: [{ key: 'menu', linkables: [{ name: 'Home', url: 'https://example.com/', objectType: 'page' }] }],
    dynamicSections: [
      {
        name: 'top',
        displayName: 'Top',
        limit: 5,
        direction: 'append-unsorted',
        type: 'linkables',
        articleIds: [],
        linkables: [{ name: 'Sport', url: 'https://example.com/sport', objectType: 'category' }],
      },
    ],
  },
});

export type Fixture = Partial<Record<string, Document[]>>;

export async function insert(db: Db, fixture: Fixture): Promise<void> {
  for (const [name, docs] of Object.entries(fixture)) {
    if (docs?.length) await db.collection(name).insertMany(docs);
  }
}
