// Rate limits of the interactive content, kept in the store (rate-limiter-flexible's RateLimiterMongo) so
// every service process shares the counts: votes and quiz submissions per voter and per IP, posts per editor.
import { createHash } from 'node:crypto';
import { limitersPerStore, spendPoint } from '../../store/rate-limits.js';
import type { Store } from '../../store/store.js';

const LIVE_LIMITS = {
  /** Votes and quiz submissions of one signed-in customer per minute (across polls and quizzes). */
  interactions: { points: 30, windowSeconds: 60 },
  /** Votes and quiz submissions from one IP per minute: a newsroom or school behind one NAT still fits. */
  ip: { points: 120, windowSeconds: 60 },
  /** Anonymous votes on one poll from one IP per day: the ballot-stuffing guard of `onlyLoggedIn: false`. */
  anonymousPerPoll: { points: 5, windowSeconds: 24 * 3600 },
  /** Posts, edits and deletions of one editor per minute. */
  posts: { points: 60, windowSeconds: 60 },
} as const;

export type LiveLimit = keyof typeof LIVE_LIMITS;

const limitersFor = limitersPerStore('live_limits', LIVE_LIMITS);

/** IPs are kept hashed: the limit store needs a key, not the address. */
export const ipKey = (ip: string | undefined): string =>
  createHash('sha256')
    .update(ip ?? 'unknown')
    .digest('base64url')
    .slice(0, 22);

/** Spends one point of `kind` for `key`; throws 429 with Retry-After once they are used up. */
export function spend(store: Store, kind: LiveLimit, key: string): Promise<void> {
  return spendPoint(limitersFor(store)[kind], key);
}
