// The answer of GET /cms/page/{id}/issues (docs/api.md): the page (the shim's own `legacyPage`
// schema), its issues with keyed contents and dynamic sections, full v3 articles, and the pagination.
// The shim shapes issues without a closed schema (page-issues.legacy.ts), so they are written out here
// and the live-response tests pin that the two agree field for field.
import { legacyPage, pageIssuesResponse } from '../../rest/page-issues.schema.js';
import { PublicationStatus, SectionDirection, SectionType } from '../../schema/content/enums.js';
import { z } from '../zod.js';
import { attachment, author, contentCategory, dateTime, elements, int, keyword, opt, str } from './content-parts.js';

const article = z
  .object({
    objectClassName: str,
    id: str,
    signature: str,
    absoluteUrl: str,
    shortUrl: str,
    slug: str,
    contentTypeId: opt,
    contentType: z.object({ id: str, name: str, slug: str, editor: str }).nullable(),
    viewsCount: int(),
    commentsCount: int(),
    averageRatingByCustomers: z.number(),
    totalRatingsCount: int(),
    previewLimit: int('Characters of `preview` a reader without access gets'),
    excludedFromSearchEngine: z.boolean(),
    title: str,
    firstPublishedDate: dateTime.nullable(),
    lastUpdateDate: dateTime,
    categories: z.array(contentCategory),
    contentLength: int(),
    summary: str,
    introduction: str,
    premium: z.boolean(),
    free: z.boolean(),
    credits: opt,
    authors: z.array(author),
    sponsorId: opt,
    sponsor: z.object({ id: str, url: str, name: str, imageUrl: opt }).nullable(),
    attachments: z.array(attachment),
    inlineAttachments: z.array(attachment),
    files: z.array(attachment),
    videos: z.array(attachment),
    keywords: z.array(keyword),
    elements,
    seo: z.object({
      searchTitle: opt,
      searchDescription: opt,
      socialTitle: opt,
      socialDescription: opt,
      socialImageUrl: opt,
    }),
    timeToRead: int('Time to read in seconds'),
    accessControlEnabled: z.boolean(),
    accessAllowed: z.boolean().describe('Computed for the caller: whether they may read the full body'),
    accessGroups: z.array(str).describe('Access groups whose entitlement opens the article (default `subscription`)'),
    status: z.enum(PublicationStatus),
    cached: z.boolean(),
    categoryId: opt,
    category: contentCategory.nullable(),
    authorId: opt,
    author: author.nullable(),
    body: opt.describe('The full body (HTML); null when `accessAllowed` is false'),
    preview: str.describe('At most `previewLimit` characters when `accessAllowed` is false'),
  })
  .openapi('Article', { description: 'An article in its full v3 representation, as the caller may see it' });

const linkable = z.object({ name: str, url: str, objectType: str });

/** A dynamic section holds articles or linkables, as its `type` says. */
function section(articleSchema: z.ZodType) {
  const common = {
    name: str.describe('Section name (also its key)'),
    displayName: str,
    limit: int('Most items the section shows'),
    direction: z.enum(SectionDirection).describe('append: newest first; append-unsorted: editorial order'),
  };
  return z.discriminatedUnion('type', [
    z.object({ ...common, type: z.literal(SectionType.ARTICLES), articles: z.array(articleSchema) }),
    z.object({ ...common, type: z.literal(SectionType.LINKABLES), linkables: z.array(linkable) }),
  ]);
}

/** Channel sections carry short article references, not full articles. */
const articleReference = z.object({
  id: str,
  title: str,
  slug: str,
  absoluteUrl: str,
  shortUrl: str,
  firstPublishedDate: dateTime.nullable(),
  premium: z.boolean(),
});

const channel = z
  .object({
    id: str,
    name: str,
    image: opt,
    description: opt,
    objectType: str,
    configuration: z.object({
      linkables: z.record(z.string(), z.array(linkable)).describe('Lists of linkables keyed by list name'),
      dynamicSections: z.record(z.string(), section(articleReference)).describe('Keyed by section name'),
    }),
  })
  .openapi('Channel', { description: 'A channel' });

const issue = z
  .object({
    id: str,
    title: str,
    date: dateTime,
    status: z.enum(PublicationStatus).describe('Readers only ever see published issues'),
    contents: z
      .record(z.string(), z.object({ category: contentCategory, articles: z.array(article) }))
      .describe('Contents grouped by category, keyed by content category id'),
    timestamp: dateTime,
    lastModifierUserId: opt,
    issueNumber: int(),
    pdfFiles: z.record(z.string(), str).describe('URL of each PDF file, keyed by edition name'),
    imageUrl: opt,
    topImageUrl: opt,
    pollId: opt,
    pageId: str,
    dynamicSections: z.record(z.string(), section(article)).describe('Dynamic sections keyed by name'),
    repeatedArticleGroups: z.array(z.object({ name: str, articles: z.array(article) })),
    frontPage: z
      .object({ categoryId: opt, category: contentCategory.nullable(), articles: z.array(article) })
      .nullable(),
    authors: z.array(author),
    channelId: opt,
    channel: channel.nullable(),
  })
  .openapi('Issue', { description: 'An issue of a page' });

export const issuesForPage = z
  .object({
    page: legacyPage,
    issues: z.array(issue).describe('Issues ordered by date, then issue number, newest first'),
    pagination: pageIssuesResponse.shape.pagination,
  })
  .openapi('IssuesForPage', { description: 'Issues for page' });
