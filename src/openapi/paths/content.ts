// GET /cms/page/{id}/issues (docs/api.md): the shim's own path and query schemas
// (src/rest/page-issues.schema.ts), the IssuesForPage component for the answer; public and cacheable.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { PAGE_ISSUES_PATH } from '../../rest/page-issues.route.js';
import { pageIssuesPath, pageIssuesQuery } from '../../rest/page-issues.schema.js';
import { issuesForPage } from '../components/content.js';
import { badRequest, jsonResponse, problemResponse, serverProblems, unauthorized } from '../responses.js';
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
      'Published issues of one page, newest first (by `date`, then `issueNumber`), paginated. Each issue embeds its contents keyed by content category id, with the articles in their full v3 representation, and its dynamic sections keyed by name. Anonymous callers are welcome; a presented token must be valid and lets premium articles show their full body to entitled readers. Unknown or repeated query parameters are a 400.',
    security: optionalBearer,
    request: { params: pageIssuesPath, query: pageIssuesQuery, headers: conditionalRequestHeaders },
    responses: {
      200: jsonResponse('Issues for page', issuesForPage, {
        headers: { ETag: 'ETag', 'Cache-Control': 'CacheControl', Link: 'PageLinks' },
      }),
      304: notModified,
      400: badRequest('An invalid page id, or `page` / `limit` out of range or not a whole number'),
      401: unauthorized('A token was presented and is not valid'),
      403: problemResponse(403, {
        description: 'Page not enabled',
        codes: ['PAGE_NOT_ENABLED'],
        details: { PAGE_NOT_ENABLED: 'This page is not enabled' },
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
