// Reads and writes of the `trustedDocuments` collection (managed by `npm run documents`, read by /graphql).
import type { Store } from '../store.js';
import type { DocumentOwner, TrustedDocumentDoc } from './trusted-document.doc.js';

export interface NewTrustedDocument {
  sha256: string;
  /** The manifest's identifier when it is not the SHA-256 itself. */
  alias?: string;
  body: string;
  operationName: string | null;
}

export interface ManifestSummary {
  owner: DocumentOwner;
  name: string;
  documents: number;
}

const entryId = (owner: DocumentOwner, sha256: string): string => `${owner}/${sha256}`;

/**
 * The document `owners` may run under this SHA-256 or manifest identifier, and whether it is on the public list
 * (which every caller may run), or null.
 */
export async function findTrustedDocument(
  store: Store,
  owners: readonly DocumentOwner[],
  id: { sha256: string } | { alias: string },
): Promise<{ body: string; everyone: boolean } | null> {
  const filter =
    'sha256' in id
      ? { _id: { $in: owners.map((o) => entryId(o, id.sha256)) } }
      : { owner: { $in: [...owners] }, aliases: id.alias };
  const docs = await store
    .collection('trustedDocuments')
    .find(filter, { projection: { body: 1, owner: 1 } })
    .limit(owners.length * 2)
    .toArray();
  const doc = docs.find((d) => d.owner === 'public') ?? docs[0];
  return doc ? { body: doc.body, everyone: doc.owner === 'public' } : null;
}

/**
 * Registers a manifest's documents for `owner` under `name`. A manifest added again under the same name is
 * replaced: documents it no longer lists lose the name, and entries no manifest names any more are removed.
 */
export async function addManifest(
  store: Store,
  owner: DocumentOwner,
  name: string,
  documents: readonly NewTrustedDocument[],
): Promise<{ added: number; kept: number; dropped: number }> {
  const collection = store.collection('trustedDocuments');
  const now = new Date();
  let added = 0;
  for (const doc of documents) {
    const res = await collection.updateOne(
      { _id: entryId(owner, doc.sha256) },
      {
        $setOnInsert: { owner, sha256: doc.sha256, body: doc.body, operationName: doc.operationName, addedAt: now },
        $addToSet: { manifests: name, aliases: { $each: doc.alias ? [doc.alias] : [] } },
      },
      { upsert: true },
    );
    if (res.upsertedCount === 1) added++;
  }
  const listed = documents.map((d) => entryId(owner, d.sha256));
  const dropped = await forgetManifest(store, owner, name, { _id: { $nin: listed } });
  return { added, kept: documents.length - added, dropped };
}

/** Removes a manifest; returns how many documents it named (0: no such manifest). */
export function removeManifest(store: Store, owner: DocumentOwner, name: string): Promise<number> {
  return forgetManifest(store, owner, name, {});
}

async function forgetManifest(
  store: Store,
  owner: DocumentOwner,
  name: string,
  extra: { _id?: { $nin: string[] } },
): Promise<number> {
  const collection = store.collection('trustedDocuments');
  const res = await collection.updateMany({ owner, manifests: name, ...extra }, { $pull: { manifests: name } });
  await collection.deleteMany({ owner, manifests: { $size: 0 } });
  return res.modifiedCount;
}

/** Every manifest with its owner and number of documents, ordered by owner and name. */
export async function listManifests(store: Store): Promise<ManifestSummary[]> {
  const docs = await store
    .collection('trustedDocuments')
    .find({}, { projection: { owner: 1, manifests: 1 } })
    .toArray();
  const counts = new Map<string, ManifestSummary>();
  for (const doc of docs) {
    for (const name of doc.manifests) {
      const key = JSON.stringify([doc.owner, name]);
      const summary = counts.get(key) ?? { owner: doc.owner, name, documents: 0 };
      summary.documents++;
      counts.set(key, summary);
    }
  }
  return [...counts.values()].sort((a, b) => a.owner.localeCompare(b.owner) || a.name.localeCompare(b.name));
}

/** Every registered document (for checking them all against the schema). */
export function allTrustedDocuments(store: Store): Promise<TrustedDocumentDoc[]> {
  return store.collection('trustedDocuments').find({}).sort({ _id: 1 }).toArray();
}
