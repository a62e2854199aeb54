// Use cases on pages: one page (404 when absent, 403 when disabled), the list of pages, a page's issues.
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
import { connections, cursorsOf, type ConnectionCursors } from '../connections.js';
import type { IssueDoc } from '../../store/content/page.doc.js';
import type { PageSlice } from '../../store/content/paging.js';
import { checkFirst, checkId } from './input.js';
import type { Selected } from '../../store/loaders.js';

const pageNotEnabled = (): AppError =>
  new AppError({
    status: 403,
    code: 'PAGE_NOT_ENABLED',
    title: 'Page not enabled',
    detail: 'This page is not enabled',
  });

/**
 * The page, or null when there is none; a disabled page is PAGE_NOT_ENABLED. `issues`: the arguments of each
 * `issues` the operation selects on it and what it selects, read beside the page instead of after it.
 */
export async function getPage(
  ctx: Context,
  id: string,
  issues: ReadonlyArray<{ args: IssuesArgs; selected: Selected }> = [],
): Promise<Page | null> {
  const pageId = checkId(id);
  const load = ctx.loaders.get(pageById).load(pageId);
  for (const { args, selected } of issues) readIssuesAhead(ctx, pageId, args, selected);
  const doc = await load;
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
export async function listPages(
  ctx: Context,
  args: { first: number; after?: string | null },
): Promise<ConnectionShape<Page>> {
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

export interface IssuesArgs {
  first: number;
  after?: string | null;
}

/**
 * Published issues of a page, newest first; batched across pages through the request's loaders. `selected`: what
 * the field asking selects of the connection (read ahead below the issues, store/content/loaders.ts).
 */
export async function pageIssues(
  ctx: Context,
  pageId: string,
  args: IssuesArgs,
  selected?: Selected,
): Promise<ConnectionShape<Issue>> {
  const cursors = cursorsOf(ctx, connections.pageIssues, pageId);
  const page = await readIssues(ctx, pageId, cursors, args, selected);
  return connectionOf(page, cursors, toIssue, () => ctx.loaders.get(issueCountOfPage).load(pageId));
}

/**
 * The page of issues, and their count when the operation selects it: counted beside them, since the page of issues
 * answers only once what the operation selects below it is read (their follow-up, store/content/loaders.ts).
 * Asked again with the same arguments, the loaders answer from what they read (the same key).
 */
function readIssues(
  ctx: Context,
  pageId: string,
  cursors: ConnectionCursors,
  args: IssuesArgs,
  selected: Selected | undefined,
): Promise<PageSlice<IssueDoc>> {
  const key = { parentId: pageId, first: checkFirst(args.first), after: cursors.decode(args.after), selected };
  if (selected?.has('totalCount')) ctx.loaders.get(issueCountOfPage).load(pageId).catch(ignore);
  return ctx.loaders.get(issuesOfPage).load(key);
}

/** Starts reading a page's issues (what the page's `issues` field reads, the same loader keys); errors are the field's. */
function readIssuesAhead(ctx: Context, pageId: string, args: IssuesArgs, selected: Selected): void {
  try {
    readIssues(ctx, pageId, cursorsOf(ctx, connections.pageIssues, pageId), args, selected).catch(ignore);
  } catch {
    // arguments the field will refuse when it runs
  }
}

const ignore = (): void => undefined;
