// Use cases on pages: one page (404 / 403 rules of CONTRACT.md §4.2), the list of pages, a page's issues.
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import type { ConnectionShape } from '../../schema/content/connection.type.js';
import type { Issue } from '../../schema/content/issue.type.js';
import type { Page } from '../../schema/content/page.type.js';
import { issueCountOfPage, issuesOfPage } from '../../store/content/connections.js';
import { countOf, findPage } from '../../store/content/lists.js';
import { pageById } from '../../store/content/loaders.js';
import { toIssue, toPage } from '../../store/content/mappers/page.mapper.js';
import { pageProjection } from '../../store/content/projections.js';
import { connectionOf } from './connection.js';
import { connections, cursorsOf } from '../connections.js';
import { checkFirst, checkId } from './input.js';

export const pageNotEnabled = (): AppError =>
  new AppError({ status: 403, code: 'PAGE_NOT_ENABLED', title: 'Page not enabled', detail: 'This page is not enabled' });

/** The page, or null when there is none; a disabled page is PAGE_NOT_ENABLED. */
export async function getPage(ctx: Context, id: string): Promise<Page | null> {
  const doc = await ctx.loaders.get(pageById).load(checkId(id));
  if (!doc) return null;
  if (!doc.enabled) throw pageNotEnabled();
  return toPage(doc);
}

/** A page another object points at: absent (null) unless it exists and is enabled. */
export async function linkedPage(ctx: Context, id: string | null): Promise<Page | null> {
  if (!id) return null;
  const doc = await ctx.loaders.get(pageById).load(id);
  return doc?.enabled ? toPage(doc) : null;
}

/** Enabled pages by name. */
export async function listPages(ctx: Context, args: { first: number; after?: string | null }): Promise<ConnectionShape<Page>> {
  const filter = { enabled: true };
  const cursors = cursorsOf(ctx, connections.pages);
  const page = await findPage(ctx.store, 'pages', {
    filter,
    sort: cursors.sort,
    projection: pageProjection,
    first: checkFirst(args.first),
    after: cursors.decode(args.after),
  });
  return connectionOf(page, cursors, toPage, () => countOf(ctx.store, 'pages', filter));
}

/** Published issues of a page, newest first; batched across pages through the request's loaders. */
export async function pageIssues(ctx: Context, pageId: string, args: { first: number; after?: string | null }): Promise<ConnectionShape<Issue>> {
  const cursors = cursorsOf(ctx, connections.pageIssues, pageId);
  const key = { parentId: pageId, first: checkFirst(args.first), after: cursors.decode(args.after) };
  // Counted beside the page of issues when selected: the page answers only once what the operation selects of its
  // issues is read (their follow-up, store/content/loaders.ts), and the count would otherwise wait for all of it.
  const count = () => ctx.loaders.get(issueCountOfPage).load(pageId);
  if (ctx.operation.fields?.get('IssueConnection')?.has('totalCount')) count().catch(() => undefined);
  const page = await ctx.loaders.get(issuesOfPage).load(key);
  return connectionOf(page, cursors, toIssue, count);
}
