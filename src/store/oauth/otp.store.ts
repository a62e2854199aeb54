// Reads and writes of `otp_codes`: one live code per e-mail, attempts counted atomically, single use.
import type { Store } from '../store.js';
import type { OtpCodeDoc } from './oauth.docs.js';

/** Stores a new code for the address, replacing any earlier one (and its attempt count). */
export async function saveOtpCode(store: Store, doc: OtpCodeDoc): Promise<void> {
  const { _id, ...rest } = doc;
  await store.collection('otp_codes').replaceOne({ _id }, rest, { upsert: true });
}

/**
 * Counts one attempt against the live code for `email` and returns it, or null when there is none
 * left to try (absent, expired, or out of attempts). The count is taken before comparing, so parallel
 * guesses cannot exceed `maxAttempts`.
 */
export function takeOtpAttempt(store: Store, email: string, maxAttempts: number, now = new Date()): Promise<OtpCodeDoc | null> {
  return store
    .collection('otp_codes')
    .findOneAndUpdate(
      { _id: email, expiresAt: { $gt: now }, attempts: { $lt: maxAttempts } },
      { $inc: { attempts: 1 } },
      { returnDocument: 'after' },
    );
}

/** Spends a matched code; false when a parallel request spent it first. */
export async function spendOtpCode(store: Store, email: string, codeHash: string): Promise<boolean> {
  const res = await store.collection('otp_codes').deleteOne({ _id: email, codeHash });
  return res.deletedCount === 1;
}
