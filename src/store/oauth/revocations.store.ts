// Reads and writes of `oauth_revocations`: revoked grants and access tokens, for the in-memory
// revocation list every gateway process keeps (src/oauth/revocations.ts).
import type { Store } from '../store.js';
import type { RevocationDoc } from './oauth.docs.js';

export interface Revocation {
  kind: RevocationDoc['kind'];
  value: string;
}

/** Records revocations (idempotent per grant / token); they expire `keepSeconds` from now. */
export async function recordRevocations(
  store: Store,
  entries: Revocation[],
  keepSeconds: number,
  now = new Date(),
): Promise<void> {
  if (entries.length === 0) return;
  const expiresAt = new Date(now.getTime() + keepSeconds * 1000);
  await store.collection('oauth_revocations').bulkWrite(
    entries.map((e) => ({
      updateOne: {
        filter: { _id: `${e.kind}:${e.value}` },
        update: { $setOnInsert: { kind: e.kind, value: e.value, at: now, expiresAt } },
        upsert: true,
      },
    })),
    { ordered: false },
  );
}

/** Revocations recorded at or after `since` (all live ones without it), oldest first. */
export function revocationsSince(store: Store, since: Date | null, now = new Date()): Promise<RevocationDoc[]> {
  const filter = since ? { at: { $gte: since } } : { expiresAt: { $gt: now } };
  return store.collection('oauth_revocations').find(filter).sort({ at: 1 }).toArray();
}
