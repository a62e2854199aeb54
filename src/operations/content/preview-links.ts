// The editors' preview links (docs/api.md, "Preview"): made for one article or issue, for a lifetime the editor
// chooses within bounds, and revoked at once. The token is returned once, with URLs ready to open; the store keeps
// the link (not the token), which every use of the token reads.
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { badRequest, notFound } from '../../errors.js';
import type { PublishedCollection } from '../../store/content/publication.js';
import { insertPreviewLink, revokePreviewLink, type PreviewLinkDoc } from '../../store/content/preview-links.js';
import { PREVIEW_TOKEN_PARAM } from '../../cache/preview-requests.js';
import { requireEditor } from '../live/editor.js';
import { checkId } from './input.js';

/** Five minutes to seven days: long enough to read a draft, short enough that a forgotten link dies by itself. */
export const SHORTEST_LINK_SECONDS = 300;
export const LONGEST_LINK_SECONDS = 7 * 24 * 3600;

export interface PreviewLink {
  id: string;
  collection: PublishedCollection;
  documentId: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface MintedPreviewLink extends PreviewLink {
  token: string;
  /** GET /graphql with a small query of the document and the token. */
  graphqlUrl: string;
  /** For an issue, GET /cms/page/{pageId}/issues with the token: its page's list, the issue in its place. */
  restUrl: string | null;
}

const QUERIES: Record<PublishedCollection, string> = {
  articles: 'query PreviewArticle($id: ID!) { article(id: $id) { id slug title status } }',
  issues: 'query PreviewIssue($id: ID!) { issue(id: $id) { id title date status } }',
};

const linkOf = (doc: PreviewLinkDoc): PreviewLink => ({
  id: doc._id,
  collection: doc.collection,
  documentId: doc.documentId,
  createdBy: doc.createdBy,
  createdAt: doc.createdAt,
  expiresAt: doc.expiresAt,
  revokedAt: doc.revokedAt,
});

function checkLifetime(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < SHORTEST_LINK_SECONDS || seconds > LONGEST_LINK_SECONDS)
    throw badRequest(`expiresIn must be ${SHORTEST_LINK_SECONDS} to ${LONGEST_LINK_SECONDS} seconds`, [
      { field: 'expiresIn', message: 'Out of range' },
    ]);
  return seconds;
}

/** Mints a link to one article or issue (any status); NOT_FOUND when there is no such document. */
export async function createPreviewLink(
  ctx: Context,
  request: { collection: PublishedCollection; id: string; expiresIn: number },
): Promise<MintedPreviewLink> {
  const editor = await requireEditor(ctx, 'make preview links');
  const documentId = checkId(request.id);
  const lifetime = checkLifetime(request.expiresIn);
  if (!ctx.previewTokens) throw badRequest('Preview links are made over HTTP');
  const found = (await ctx.store
    .collection(request.collection)
    .findOne({ _id: documentId }, { projection: { _id: 1, pageId: 1 } })) as { pageId?: string } | null;
  if (!found)
    throw notFound(
      'NOT_FOUND',
      'Not Found',
      `There is no ${request.collection === 'articles' ? 'article' : 'issue'} ${documentId}`,
    );
  const now = new Date();
  const doc = await insertPreviewLink(ctx.store, {
    _id: randomBytes(16).toString('base64url'),
    collection: request.collection,
    documentId,
    createdBy: editor.customerId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + lifetime * 1000),
  });
  const token = await ctx.previewTokens.sign({
    linkId: doc._id,
    collection: doc.collection,
    documentId,
    expiresAt: doc.expiresAt,
  });
  const base = ctx.config.publicUrl;
  const graphql = new URLSearchParams({
    query: QUERIES[request.collection],
    variables: JSON.stringify({ id: documentId }),
    [PREVIEW_TOKEN_PARAM]: token,
  });
  return {
    ...linkOf(doc),
    token,
    graphqlUrl: `${base}/graphql?${graphql}`,
    restUrl: found.pageId
      ? `${base}/cms/page/${encodeURIComponent(found.pageId)}/issues?${new URLSearchParams({ [PREVIEW_TOKEN_PARAM]: token })}`
      : null,
  };
}

/** Revokes a link at once, for every process; NOT_FOUND for no such link (or one the store has forgotten). */
export async function revokeLink(ctx: Context, id: string): Promise<PreviewLink> {
  const editor = await requireEditor(ctx, 'revoke preview links');
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id))
    throw badRequest('id is not a preview link id', [{ field: 'id', message: 'Invalid id' }]);
  const doc = await revokePreviewLink(ctx.store, id, editor.customerId, new Date());
  if (!doc) throw notFound('NOT_FOUND', 'Not Found', `There is no preview link ${id}`);
  return linkOf(doc);
}
