// Use cases on issues: one issue by id, visible only while its page is enabled.
import type { Context } from '../../context.js';
import type { Issue } from '../../schema/content/issue.type.js';
import { issueById, pageById } from '../../store/content/loaders.js';
import { toIssue } from '../../store/content/mappers/page.mapper.js';
import { checkId } from './input.js';
import type { Selected } from '../../store/loaders.js';

/** `selected`: what the field asking selects of the issue (read ahead with it, store/content/loaders.ts). */
export async function getIssue(ctx: Context, id: string, selected?: Selected): Promise<Issue | null> {
  const doc = await ctx.loaders.get(issueById).load(checkId(id), selected);
  if (!doc) return null;
  const page = await ctx.loaders.get(pageById).load(doc.pageId);
  return page?.enabled ? toIssue(doc) : null;
}
