// GET /cms/page/{id}/issues (docs/api.md): validate, read the page and its issues through the shared content
// operations, show them in the legacy envelope, and answer cacheably with RFC 8288 `Link` next/prev.
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { badRequest } from '../errors.js';
import { sendCacheable } from '../cache/cacheable.js';
import { fieldProblems, parseOr400 } from '../validation.js';
import { pageWithIssues } from '../operations/content/page-issues.js';
import { legacyIssue, legacyPage } from './page-issues.legacy.js';
import { pageIssuesPath, pageIssuesQuery } from './page-issues.schema.js';

export const PAGE_ISSUES_PATH = '/cms/page/:id/issues';

/** `Link` with next/prev: the same path and query, only `page` changed. */
function linkHeader(ctx: Koa.Context, page: number, totalPages: number): string | null {
  const link = (target: number, rel: string): string => {
    const query = new URLSearchParams(ctx.querystring);
    query.set('page', String(target));
    return `<${ctx.path}?${query.toString()}>; rel="${rel}"`;
  };
  const links = [
    ...(page < totalPages ? [link(page + 1, 'next')] : []),
    ...(page > 1 ? [link(Math.min(page - 1, Math.max(totalPages, 1)), 'prev')] : []),
  ];
  return links.length ? links.join(', ') : null;
}

export function registerPageIssuesRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.get(PAGE_ISSUES_PATH, withContext(deps), async (ctx) => {
    const context = ctx.state.context!;
    const path = pageIssuesPath.safeParse(ctx.params);
    if (!path.success) throw badRequest('The page id is invalid', fieldProblems(path.error));
    const { page, limit } = parseOr400(pageIssuesQuery, ctx.query, 'query');

    const found = await pageWithIssues(context, { id: path.data.id, page, limit });
    const total = found.total;
    const totalPages = Math.ceil(total / limit);
    const issues = [];
    for (const issue of found.issues) issues.push(await legacyIssue(context, issue));
    const body = { page: legacyPage(found.page), issues, pagination: { page, limit, total, totalPages } };
    const link = linkHeader(ctx as unknown as Koa.Context, page, totalPages);
    if (link) ctx.set('Link', link);
    sendCacheable(ctx as unknown as Koa.Context, body, { authenticated: context.authenticated });
  });
}
