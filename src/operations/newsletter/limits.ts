// Attempt limits per channel and e-mail, kept in the store (rate-limiter-flexible's RateLimiterMongo) so
// every service process shares the counts.
import { limitersPerStore, spendPoint } from '../../store/rate-limits.js';
import type { Store } from '../../store/store.js';

export const NEWSLETTER_LIMITS = {
  /** Activation attempts per channel and e-mail per window: plenty for a person, nothing for guessing. */
  activate: { points: 10, windowSeconds: 15 * 60 },
  /** Subscription requests (each sends a mail) per channel and e-mail per window. */
  subscribe: { points: 3, windowSeconds: 60 * 60 },
} as const;

const limitersFor = limitersPerStore('newsletter_limits', NEWSLETTER_LIMITS);

/** Spends one attempt for `channelId`/`email`; throws 429 with Retry-After once they are used up. */
export function spendAttempt(
  store: Store,
  kind: keyof typeof NEWSLETTER_LIMITS,
  channelId: string,
  email: string,
): Promise<void> {
  return spendPoint(limitersFor(store)[kind], `${channelId}:${email}`);
}
