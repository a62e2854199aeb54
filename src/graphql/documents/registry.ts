// The trusted documents a request may name, as every gateway process sees them: read from the store and kept
// here a few seconds, so a document a page asks for on every view costs no round trip, and a manifest added
// or removed by `npm run documents` reaches every process within that time without a change stream to follow.
import { LRUCache } from 'lru-cache';
import type { Viewer } from '../../viewer.js';
import type { DocumentOwner } from '../../store/documents/trusted-document.doc.js';
import { findTrustedDocument } from '../../store/documents/trusted-documents.store.js';
import type { Store } from '../../store/store.js';
import { DEVELOPER_SCOPE } from '../../oauth/clients.js';
import { sha256Hex, type DocumentRef } from './document-id.js';

/** How long a lookup (found or not) is reused: the delay before an added or removed manifest takes effect. */
const REGISTRY_TTL_MS = 5_000;

/** The owners whose documents a caller may run: the public list, and its OAuth client's own. */
export function ownersOf(viewer: Viewer | null): DocumentOwner[] {
  return viewer?.clientId ? ['public', `client:${viewer.clientId}`] : ['public'];
}

export interface TrustedDocument {
  body: string;
  /** On the public list: every caller may run it. */
  everyone: boolean;
}

export class DocumentRegistry {
  private readonly known = new LRUCache<string, { found: TrustedDocument | null }>({
    max: 20_000,
    ttl: REGISTRY_TTL_MS,
  });

  constructor(private readonly store: Store) {}

  /** The document when one of `owners` registered it (and whether the public list has it), else null. */
  async find(owners: readonly DocumentOwner[], ref: DocumentRef): Promise<TrustedDocument | null> {
    const key = JSON.stringify([owners, 'sha256' in ref ? ref.sha256 : `~${ref.alias}`]);
    const hit = this.known.get(key);
    if (hit) return hit.found;
    const found = await findTrustedDocument(this.store, owners, ref);
    this.known.set(key, { found });
    return found;
  }
}

/**
 * Under TRUSTED_DOCUMENTS=enforce, whether `viewer` may run a document sent as text over WebSocket: one registered
 * for its client or the public list, or any with the `developer` scope (as over HTTP; the playground's header
 * cannot ride on a WebSocket, so its subscriptions need a developer token there).
 */
export async function mayRunText(registry: DocumentRegistry, viewer: Viewer | null, text: string): Promise<boolean> {
  if (viewer?.scopes.has(DEVELOPER_SCOPE)) return true;
  return (await registry.find(ownersOf(viewer), { sha256: sha256Hex(text) })) !== null;
}
