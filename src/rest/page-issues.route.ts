// GET /cms/page/{id}/issues (docs/api.md): validate, read the page and its issues through the shared content
// operations, show them in the legacy envelope, and answer cacheably with RFC 8288 `Link` next/prev. Each issue's
// representation for anonymous readers is kept as ready bytes (src/cache/ready-parts.ts) and the page assembled
// from them: the page, its issues and their count are read every time, and only the issues without a part have
// what they show read ahead and shaped. A signed-in or preview request's issues show what is that reader's alone
// (access to premium bodies, votes, drafts): they are shaped afresh every time, and nothing of them is kept.
import type { Router } from '@koa/router';
import type Koa from 'koa';
import { withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { preview } from '../http/preview.js';
import { badRequest } from '../errors.js';
import { sendCacheableJson } from '../cache/cacheable.js';
import { ReadyParts } from '../cache/ready-parts.js';
import { fieldProblems, parseOr400 } from '../validation.js';
import { pageWithIssues } from '../operations/content/page-issues.js';
import { issueShows } from '../operations/content/page-issues.shows.js';
import { legacyIssue, legacyPage } from './page-issues.legacy.js';
import { pageLinks } from './page-links.js';
import { pageIssuesPath, pageIssuesQuery } from './page-issues.schema.js';

export const PAGE_ISSUES_PATH = '/cms/page/:id/issues';

const keyOf = (issueId: string): string => `issue\u0000${issueId}`;

/** `{"page":…,"issues":[…],"pagination":…}`: the bytes `JSON.stringify` gives the envelope of these parts. */
function envelope(page: unknown, issues: readonly Buffer[], pagination: unknown): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"page":${JSON.stringify(page)},"issues":[`)];
  issues.forEach((issue, i) => parts.push(...(i > 0 ? [COMMA] : []), issue));
  parts.push(Buffer.from(`],"pagination":${JSON.stringify(pagination)}}`));
  return Buffer.concat(parts);
}
const COMMA = Buffer.from(',');

export function registerPageIssuesRoutes(router: Router<AppState>, deps: AppDeps, ready = ReadyParts.off()): void {
  router.get(PAGE_ISSUES_PATH, withContext(deps), preview(), async (ctx) => {
    const context = ctx.state.context!;
    const path = pageIssuesPath.safeParse(ctx.params);
    if (!path.success) throw badRequest('The page id is invalid', fieldProblems(path.error));
    const { page, limit } = parseOr400(pageIssuesQuery, ctx.query, 'query'); // previewToken: read by preview()

    // Parts are the anonymous reader's representations: kept and served only for an answer that is theirs.
    const anonymous = !context.authenticated && context.viewer === null && context.preview === undefined;
    // Before any read: a change reported from here on may concern what is read below.
    const mark = ready.mark();
    const kept = new Map<string, Buffer>();
    const found = await pageWithIssues(context, { id: path.data.id, page, limit }, (issue) => {
      const bytes = anonymous ? ready.get(keyOf(issue.id)) : undefined;
      if (bytes) kept.set(issue.id, bytes);
      return bytes !== undefined;
    });
    const issues: Buffer[] = [];
    for (const issue of found.issues) {
      let bytes = kept.get(issue.id);
      if (!bytes) {
        bytes = Buffer.from(JSON.stringify(await legacyIssue(context, issue)));
        if (anonymous) {
          const { shows, until } = await issueShows(context, issue);
          ready.keep(keyOf(issue.id), bytes, shows, mark, until);
        }
      }
      issues.push(bytes);
    }
    const total = found.total;
    const totalPages = Math.ceil(total / limit);
    const body = envelope(legacyPage(found.page), issues, { page, limit, total, totalPages });
    const link = pageLinks(ctx as unknown as Koa.Context, page, totalPages);
    if (link) ctx.set('Link', link);
    sendCacheableJson(ctx as unknown as Koa.Context, body, {
      authenticated: context.authenticated,
      preview: context.preview !== undefined,
    });
  });
}
