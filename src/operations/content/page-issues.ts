// A page and one numbered page of its published issues, for lists that show each issue whole (the REST issues
// list): the page and issues through the operations GraphQL's `page { issues }` uses, and everything the issues
// show read ahead in waves (page-issues.read.ts), so that showing them (related.ts, elements.ts) reads nothing more.
// A caller that already holds an issue's representation (a ready part, src/cache/ready-parts.ts) says so, and
// nothing is read ahead for that issue.
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import type { Issue } from '../../schema/content/issue.type.js';
import type { Page } from '../../schema/content/page.type.js';
import type { Selected } from '../../store/loaders.js';
import { connections } from '../connections.js';
import { checkId } from './input.js';
import { readIssuesAhead } from './page-issues.read.js';
import { getPage, pageIssues } from './pages.js';

export interface PageWithIssues {
  page: Page;
  issues: Issue[];
  /** Published issues of the page, all pages together. */
  total: number;
}

/** Of a connection, only its count: counted beside the page of issues instead of after it. */
const countOnly: Selected = {
  has: (field) => field === 'totalCount',
  of: () => nothing,
  nodes: () => nothing,
};
const nothing: Selected = { has: () => false, of: () => nothing, nodes: () => nothing };

/**
 * `page` is 1-based, of `limit` issues; PAGE_NOT_FOUND (404) / PAGE_NOT_ENABLED (403) as AppErrors. `shownAlready`
 * is asked once per issue of the page, once it is read: true for an issue its caller will not show from what is
 * read (nothing is read ahead for it).
 */
export async function pageWithIssues(
  ctx: Context,
  args: { id: string; page: number; limit: number },
  shownAlready: (issue: Issue) => boolean = () => false,
): Promise<PageWithIssues> {
  const pageId = checkId(args.id);
  const after = ctx.cursors.beforeOffset(
    { kind: connections.pageIssues, parent: pageId },
    (args.page - 1) * args.limit,
  );
  const [page, connection] = await Promise.all([
    getPage(ctx, pageId),
    pageIssues(ctx, pageId, { first: args.limit, after }, countOnly),
  ]);
  if (!page) throw notFound('PAGE_NOT_FOUND', 'Page not found', `There is no page ${pageId}`);
  const issues = connection.edges.map((edge) => edge.node);
  const toShow = issues.filter((issue) => !shownAlready(issue));
  const [total] = await Promise.all([connection.totalCount, readIssuesAhead(ctx, toShow)]);
  return { page, issues, total };
}
