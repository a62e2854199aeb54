// Request and response shapes of GET /cms/page/{id}/issues (docs/api.md), described for the
// OpenAPI document. Unknown or repeated query parameters are a 400, like every REST shim here.
import { z } from 'zod';

const ID = /^[A-Za-z0-9_.:-]{1,64}$/;
/** The deepest page REST paging reaches; beyond it the answer would be empty anyway at any real size. */
const MAX_PAGE = 1_000_000;

const positiveInt = (max: number, description: string) =>
  z
    .string()
    .regex(/^[0-9]{1,7}$/, 'Must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1, 'Must be at least 1').max(max, `Must be at most ${max}`))
    .describe(description)
    // OpenAPI: a whole number in the query string (the document describes the value, not its string form).
    .meta({ type: 'integer', minimum: 1, maximum: max });

export const pageIssuesPath = z.strictObject({
  id: z.string().regex(ID, 'Must be 1 to 64 characters of A-Z a-z 0-9 _ . : -').describe('Page identifier'),
});

export const pageIssuesQuery = z.strictObject({
  page: positiveInt(MAX_PAGE, 'Page of issues to return, 1-based (default 1)').default(1).meta({ default: 1 }),
  limit: positiveInt(100, 'Issues per page, 1 to 100 (default 20)').default(20).meta({ default: 20 }),
  previewToken: z
    .string()
    .max(1024)
    .optional()
    .describe('A preview link token: the issue it names is listed in its place whatever its status (never cached)'),
});

const keyed = (value: z.ZodType, description: string) => z.record(z.string(), value).describe(description);
const loose = (description: string) => z.looseObject({ id: z.string().describe('Identifier') }).describe(description);

export const legacyPage = z
  .object({
    id: z.string().describe('Page ID'),
    name: z.string().describe('Page name'),
    previewUrl: z.string().describe('Preview URL'),
    publicFacingMetadata: z
      .object({
        title: z.string(),
        description: z.string(),
        language: z.string().describe('ISO 639-1 code'),
        imageUrl: z.string().nullable(),
        canonicalUrl: z.string(),
        keywords: z.array(z.string()),
      })
      .describe('Public-facing metadata'),
  })
  .describe('The page the issues belong to');

const article = loose(
  'An article in its full v3 representation (fields as the GraphQL type Article); `body` is null and `preview` cut to `previewLimit` characters when `accessAllowed` is false',
);
const category = loose('A content category (fields as the GraphQL type ContentCategory)');

const section = z
  .object({
    name: z.string().describe('Section name (also its key)'),
    displayName: z.string(),
    limit: z.number().int().describe('Most items the section shows'),
    direction: z.enum(['append', 'append-unsorted']).describe('append: newest first; append-unsorted: editorial order'),
    type: z.enum(['articles', 'linkables']),
    articles: z.array(article).optional().describe('Present on `articles` sections'),
    linkables: z
      .array(z.object({ name: z.string(), url: z.string(), objectType: z.string() }))
      .optional()
      .describe('Present on `linkables` sections'),
  })
  .describe('A dynamic section');

const legacyIssue = z
  .looseObject({
    id: z.string().describe('Issue ID'),
    title: z.string(),
    date: z.string().describe('ISO 8601 date-time (UTC)'),
    status: z
      .enum(['published', 'draft', 'scheduled', 'archived'])
      .describe('Readers only ever see published issues; a preview shows the others too'),
    contents: keyed(
      z.object({ category, articles: z.array(article) }),
      'Contents grouped by category, keyed by content category id',
    ),
    timestamp: z.string(),
    lastModifierUserId: z.string().nullable(),
    issueNumber: z.number().int(),
    pdfFiles: keyed(z.string().describe('URL of the PDF'), 'PDF files keyed by edition name'),
    imageUrl: z.string().nullable(),
    topImageUrl: z.string().nullable(),
    pollId: z.string().nullable(),
    pageId: z.string(),
    dynamicSections: keyed(section, 'Dynamic sections keyed by name'),
    repeatedArticleGroups: z.array(z.object({ name: z.string(), articles: z.array(article) })),
    frontPage: z
      .object({ categoryId: z.string().nullable(), category: category.nullable(), articles: z.array(article) })
      .nullable(),
    authors: z.array(loose('An author (fields as the GraphQL type Author)')),
    channelId: z.string().nullable(),
    channel: loose(
      'The channel, with `configuration.linkables` keyed by list name and `configuration.dynamicSections` keyed by name',
    ).nullable(),
  })
  .describe('An issue of the page');

export const pageIssuesResponse = z
  .object({
    page: legacyPage,
    issues: z.array(legacyIssue).describe('Issues ordered by date, then issue number, newest first'),
    pagination: z.object({
      page: z.number().int().describe('This page, 1-based'),
      limit: z.number().int().describe('Issues per page'),
      total: z.number().int().describe('Published issues of the page'),
      totalPages: z.number().int().describe('Pages of `limit` issues; 0 when there are none'),
    }),
  })
  .describe('Issues for page');
