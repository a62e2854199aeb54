// Reads and writes of `otp_codes`: several live codes per address (a request never cancels one already
// mailed), attempts counted atomically per code and per client, single use.
import type { Store } from '../store.js';
import type { OtpCodeDoc } from './oauth.docs.js';

export async function saveOtpCode(store: Store, doc: OtpCodeDoc): Promise<void> {
  await store.collection('otp_codes').insertOne(doc);
}

/** The address's unexpired codes, newest first, at most `limit`. */
export function liveOtpCodes(store: Store, email: string, limit: number, now = new Date()): Promise<OtpCodeDoc[]> {
  return store
    .collection('otp_codes')
    .find({ email, expiresAt: { $gt: now } })
    .sort({ createdAt: -1 })
    .limit(limit)
    .toArray();
}

/**
 * Counts one attempt by `client` (a hash of its address) against a code and returns the code, or null
 * when that client has no attempts left on it (or it expired or was spent). The count is taken before
 * comparing, so parallel guesses cannot exceed `maxAttempts`.
 */
export function takeOtpAttempt(
  store: Store,
  id: string,
  client: string,
  maxAttempts: number,
  now = new Date(),
): Promise<OtpCodeDoc | null> {
  const field = `attempts.${client}`;
  return store
    .collection('otp_codes')
    .findOneAndUpdate(
      { _id: id, expiresAt: { $gt: now }, [field]: { $not: { $gte: maxAttempts } } },
      { $inc: { [field]: 1 } },
      { returnDocument: 'after' },
    );
}

/** Spends a matched code, and with it the address's other codes (they served their purpose); false when a parallel request spent it first. */
export async function spendOtpCode(store: Store, id: string, codeHash: string, email: string): Promise<boolean> {
  const res = await store.collection('otp_codes').deleteOne({ _id: id, codeHash });
  if (res.deletedCount !== 1) return false;
  await store.collection('otp_codes').deleteMany({ email });
  return true;
}
