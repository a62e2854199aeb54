// GET /cms/page/{id}/issues (docs/api.md): the shim's own path and query schemas
// (src/rest/page-issues.schema.ts), the IssuesForPage component for the answer; public and cacheable.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { PAGE_ISSUES_PATH } from '../../rest/page-issues.route.js';
import { pageIssuesPath, pageIssuesQuery } from '../../rest/page-issues.schema.js';
import { issuesForPage } from '../components/content.js';
import { z } from '../zod.js';
import { badRequest, jsonResponse, problemResponse, serverProblems } from '../responses.js';
import { optionalBearer } from '../security.js';
import { conditionalRequestHeaders, notModified } from './cacheable.js';
import { toOpenApiPath } from './params.js';

export function registerContentPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: toOpenApiPath(PAGE_ISSUES_PATH),
    operationId: 'listPageIssues',
    tags: ['Content'],
    summary: 'List issues for a page',
    description:
      "Published issues of one page, newest first (by `date`, then `issueNumber`), paginated. Each issue embeds its contents keyed by content category id, with the articles in their full v3 representation, and its dynamic sections keyed by name. Anonymous callers are welcome; a presented token must be valid and lets premium articles show their full body to entitled readers. Unknown or repeated query parameters are a 400. A preview (`Preview: true` with an editor's token: every issue whatever its status; or a preview link's token as `Preview-Token` or `previewToken`: the issue it names, in its place) is answered `Cache-Control: private, no-store`, without an ETag.",
    security: optionalBearer,
    request: {
      params: pageIssuesPath,
      query: pageIssuesQuery,
      headers: conditionalRequestHeaders.extend({
        Preview: z
          .enum(['true', 'false'])
          .optional()
          .describe("`true` with an editor's bearer token: drafts, scheduled and archived issues and articles too"),
        'Preview-Token': z
          .string()
          .optional()
          .describe('A preview link token (the same as the `previewToken` parameter)'),
      }),
    },
    responses: {
      200: jsonResponse('Issues for page', issuesForPage, {
        headers: { ETag: 'ETag', 'Cache-Control': 'CacheControl', Link: 'PageLinks' },
      }),
      304: notModified,
      400: badRequest('An invalid page id, or `page` / `limit` out of range or not a whole number'),
      401: problemResponse(401, {
        description: 'A token was presented and is not valid, or a preview token is not valid or has expired',
        codes: ['UNAUTHENTICATED', 'PREVIEW_TOKEN_INVALID', 'PREVIEW_LINK_EXPIRED'],
        headers: { 'WWW-Authenticate': 'WwwAuthenticate' },
        details: {
          UNAUTHENTICATED: 'The access token is not valid',
          PREVIEW_TOKEN_INVALID: 'The preview token is not valid',
          PREVIEW_LINK_EXPIRED: 'The preview link has expired: ask for a new one',
        },
      }),
      403: problemResponse(403, {
        description:
          'Page not enabled, a preview asked for by a customer who is not an editor, or a revoked preview link',
        codes: ['PAGE_NOT_ENABLED', 'FORBIDDEN', 'PREVIEW_LINK_REVOKED'],
        details: {
          PAGE_NOT_ENABLED: 'This page is not enabled',
          FORBIDDEN: 'Only editors may preview drafts',
          PREVIEW_LINK_REVOKED: 'The preview link was revoked',
        },
      }),
      404: problemResponse(404, {
        description: 'Page not found',
        codes: ['PAGE_NOT_FOUND'],
        details: { PAGE_NOT_FOUND: 'There is no page home' },
      }),
      ...serverProblems(),
    },
  });
}
