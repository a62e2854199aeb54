// Stored shape of trusted documents (collection `trustedDocuments`): one entry per document and owner, named by
// the manifests that registered it, and its indexes.
import type { IndexDef } from '../index-def.js';

/** Who may run a registered document: every caller (`public`), or the tokens of one OAuth client (`client:<id>`). */
export type DocumentOwner = 'public' | `client:${string}`;

export interface TrustedDocumentDoc {
  /** `<owner>/<sha256>`: a document registered twice for one owner is one entry. */
  _id: string;
  owner: DocumentOwner;
  /** SHA-256 (hex) of `body`, computed here: the `sha256:` document identifier. */
  sha256: string;
  /** Other identifiers the manifests gave it (graphql-codegen's SHA-1 hashes, an Apollo manifest's own ids). */
  aliases: string[];
  body: string;
  operationName: string | null;
  /** The manifests (by name) that registered it; the entry goes when the last one is removed. */
  manifests: string[];
  addedAt: Date;
}

declare module '../collections.js' {
  interface CollectionTypes {
    trustedDocuments: TrustedDocumentDoc;
  }
}

export const trustedDocumentIndexes: IndexDef[] = [
  { collection: 'trustedDocuments', key: { owner: 1, aliases: 1 }, options: { name: 'trusted_documents_alias' } },
  { collection: 'trustedDocuments', key: { owner: 1, manifests: 1 }, options: { name: 'trusted_documents_manifest' } },
];
