// Preview (docs/api.md, "Preview"): what a request that asked for one may see beyond readers' rules. An editor asking
// with `Preview: true` sees every article and issue whatever its status; anyone holding a preview link's token sees
// that one article or issue as it stands. Both are decided here, before anything is read, and the request's loaders
// then apply the wider filters (store/content/visibility.ts) to every read of articles and issues.
import type { Context } from '../../context.js';
import { AppError, badRequest } from '../../errors.js';
import { findPreviewLink } from '../../store/content/preview-links.js';
import { previewSight, type Preview } from '../../store/content/visibility.js';
import { requireEditor } from '../live/editor.js';
import { previewRefused } from './preview-token.js';

export interface PreviewAsk {
  /** The editor preview was asked for (`Preview: true`). */
  every: boolean;
  /** A preview link's token, when one was presented. */
  token?: string;
}

/**
 * Decides what the request may see and lets its loaders see it; refuses with the reason otherwise (401 without an
 * editor's token, 403 for a customer without the role; 401 for a token that is not one of ours or has expired, 403
 * for a revoked link): never a quiet fallback to what readers see, which a cache could keep.
 */
export async function startPreview(ctx: Context, ask: PreviewAsk): Promise<void> {
  let preview: Preview | undefined;
  if (ask.every) {
    await requireEditor(ctx, 'preview drafts');
    preview = { every: true };
  }
  if (ask.token !== undefined) {
    const one = await linkPreview(ctx, ask.token);
    preview ??= one;
  }
  if (!preview) return;
  ctx.preview = preview;
  ctx.loaders.see(previewSight(preview));
}

async function linkPreview(ctx: Context, token: string): Promise<Preview> {
  if (!ctx.previewTokens) throw badRequest('Preview links are read over HTTP');
  const claims = await ctx.previewTokens.verify(token);
  const link = await findPreviewLink(ctx.store, claims.linkId);
  if (!link || link.collection !== claims.collection || link.documentId !== claims.documentId)
    throw previewRefused('PREVIEW_TOKEN_INVALID', 'The preview link no longer exists');
  if (link.revokedAt)
    throw new AppError({
      status: 403,
      code: 'PREVIEW_LINK_REVOKED',
      title: 'Forbidden',
      detail: 'The preview link was revoked',
    });
  return { collection: link.collection, id: link.documentId };
}
