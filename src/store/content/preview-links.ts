// Preview links in the store (docs/api.md, "Preview"): one document per link, read on every request that presents
// its token, so a revocation made by any process is refused by every process at once. A link's document goes away a
// day after the link expires (its token is refused by its own expiry before then; store/content/indexes.ts).
import type { Store } from '../store.js';

export interface PreviewLinkDoc {
  _id: string;
  collection: 'articles' | 'issues';
  documentId: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  revokedBy: string | null;
  /** When the store may forget the link. */
  forgetAt: Date;
}

declare module '../collections.js' {
  interface CollectionTypes {
    previewLinks: PreviewLinkDoc;
  }
}

const KEPT_AFTER_EXPIRY_MS = 24 * 3600_000;

export async function insertPreviewLink(
  store: Store,
  link: Omit<PreviewLinkDoc, 'revokedAt' | 'revokedBy' | 'forgetAt'>,
): Promise<PreviewLinkDoc> {
  const doc: PreviewLinkDoc = {
    ...link,
    revokedAt: null,
    revokedBy: null,
    forgetAt: new Date(link.expiresAt.getTime() + KEPT_AFTER_EXPIRY_MS),
  };
  await store.collection('previewLinks').insertOne(doc);
  return doc;
}

export function findPreviewLink(store: Store, id: string): Promise<PreviewLinkDoc | null> {
  return store.collection('previewLinks').findOne({ _id: id });
}

/** Revokes a link (the first revocation is the one kept); null when there is no such link. */
export async function revokePreviewLink(
  store: Store,
  id: string,
  by: string,
  at: Date,
): Promise<PreviewLinkDoc | null> {
  const links = store.collection('previewLinks');
  await links.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: at, revokedBy: by } });
  return links.findOne({ _id: id });
}
