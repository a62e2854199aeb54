// GET /cms/page/{id}/issues (docs/api.md): validate, read the page and its issues through the shared content
// operations, show them in the legacy envelope, and answer cacheably with RFC 8288 `Link` next/prev.
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { preview } from '../http/preview.js';
import { badRequest } from '../errors.js';
import { sendCacheable } from '../cache/cacheable.js';
import { fieldProblems, parseOr400 } from '../validation.js';
import { pageWithIssues } from '../operations/content/page-issues.js';
import { legacyIssue, legacyPage } from './page-issues.legacy.js';
import { pageLinks } from './page-links.js';
import { pageIssuesPath, pageIssuesQuery } from './page-issues.schema.js';

export const PAGE_ISSUES_PATH = '/cms/page/:id/issues';

export function registerPageIssuesRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(PAGE_ISSUES_PATH, withContext(deps), preview(), async (ctx) => {
    const context = ctx.state.context!;
    const path = pageIssuesPath.safeParse(ctx.params);
    if (!path.success) throw badRequest('The page id is invalid', fieldProblems(path.error));
    const { page, limit } = parseOr400(pageIssuesQuery, ctx.query, 'query'); // previewToken: read by preview()

    const found = await pageWithIssues(context, { id: path.data.id, page, limit });
    const total = found.total;
    const totalPages = Math.ceil(total / limit);
    const issues = [];
    for (const issue of found.issues) issues.push(await legacyIssue(context, issue));
    const body = { page: legacyPage(found.page), issues, pagination: { page, limit, total, totalPages } };
    const link = pageLinks(ctx as unknown as Koa.Context, page, totalPages);
    if (link) ctx.set('Link', link);
    sendCacheable(ctx as unknown as Koa.Context, body, {
      authenticated: context.authenticated,
      preview: context.preview !== undefined,
    });
  });
}
