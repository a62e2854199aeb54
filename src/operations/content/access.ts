// Premium access (CONTRACT.md §3): computed per viewer on every read, never stored.
import { hasEntitlement, type Context } from '../../context.js';
import type { Article } from '../../schema/content/article.type.js';

export function accessAllowed(ctx: Context, article: Article): Promise<boolean> {
  if (!(article.accessControlEnabled && article.premium)) return Promise.resolve(true);
  return hasEntitlement(ctx.viewer, article.accessGroups, ctx.now);
}

/** The full HTML body, or null for a viewer without access. */
export async function articleBody(ctx: Context, article: Article): Promise<string | null> {
  return (await accessAllowed(ctx, article)) ? article.fullBody : null;
}

/** The teaser, cut to `previewLimit` characters (code points, so no character is split) without access. */
export async function articlePreview(ctx: Context, article: Article): Promise<string> {
  if (await accessAllowed(ctx, article)) return article.fullPreview;
  return Array.from(article.fullPreview).slice(0, Math.max(0, article.previewLimit)).join('');
}
