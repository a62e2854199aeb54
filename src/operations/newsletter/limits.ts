// Attempt limits per channel and e-mail, kept in the store (rate-limiter-flexible's RateLimiterMongo) so
// every service process shares the counts.
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from '../../errors.js';
import type { Store } from '../../store/store.js';

export const NEWSLETTER_LIMITS = {
  /** Activation attempts per channel and e-mail per window: plenty for a person, nothing for guessing. */
  activate: { points: 10, windowSeconds: 15 * 60 },
  /** Subscription requests (each sends a mail) per channel and e-mail per window. */
  subscribe: { points: 3, windowSeconds: 60 * 60 },
} as const;

const limiters = new WeakMap<Store, Record<keyof typeof NEWSLETTER_LIMITS, RateLimiterMongo>>();

function limitersFor(store: Store): Record<keyof typeof NEWSLETTER_LIMITS, RateLimiterMongo> {
  let set = limiters.get(store);
  if (!set) {
    // Indexes come from src/store/newsletter with every other index, not from the library.
    const common = { storeClient: store.db, tableName: 'newsletter_limits', disableIndexesCreation: true };
    set = {
      activate: new RateLimiterMongo({ ...common, keyPrefix: 'activate', points: NEWSLETTER_LIMITS.activate.points, duration: NEWSLETTER_LIMITS.activate.windowSeconds }),
      subscribe: new RateLimiterMongo({ ...common, keyPrefix: 'subscribe', points: NEWSLETTER_LIMITS.subscribe.points, duration: NEWSLETTER_LIMITS.subscribe.windowSeconds }),
    };
    limiters.set(store, set);
  }
  return set;
}

/** Spends one attempt for `channelId`/`email`; throws 429 with Retry-After once they are used up. */
export async function spendAttempt(store: Store, kind: keyof typeof NEWSLETTER_LIMITS, channelId: string, email: string): Promise<void> {
  try {
    await limitersFor(store)[kind].consume(`${channelId}:${email}`, 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw rateLimited(err.msBeforeNext / 1000);
    throw err;
  }
}
