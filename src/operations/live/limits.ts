// Rate limits of the interactive content, kept in the store (rate-limiter-flexible's RateLimiterMongo) so
// every service process shares the counts: votes and quiz submissions per voter and per IP, posts per editor.
import { createHash } from 'node:crypto';
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from '../../errors.js';
import type { Store } from '../../store/store.js';

export const LIVE_LIMITS = {
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

const limiters = new WeakMap<Store, Record<LiveLimit, RateLimiterMongo>>();

function limitersFor(store: Store): Record<LiveLimit, RateLimiterMongo> {
  let set = limiters.get(store);
  if (!set) {
    const common = { storeClient: store.db, tableName: 'live_limits', disableIndexesCreation: true };
    const make = (kind: LiveLimit) =>
      new RateLimiterMongo({ ...common, keyPrefix: kind, points: LIVE_LIMITS[kind].points, duration: LIVE_LIMITS[kind].windowSeconds });
    set = { interactions: make('interactions'), ip: make('ip'), anonymousPerPoll: make('anonymousPerPoll'), posts: make('posts') };
    limiters.set(store, set);
  }
  return set;
}

/** IPs are kept hashed: the limit store needs a key, not the address. */
export const ipKey = (ip: string | undefined): string => createHash('sha256').update(ip ?? 'unknown').digest('base64url').slice(0, 22);

/** Spends one point of `kind` for `key`; throws 429 with Retry-After once they are used up. */
export async function spend(store: Store, kind: LiveLimit, key: string): Promise<void> {
  try {
    await limitersFor(store)[kind].consume(key, 1);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw rateLimited(err.msBeforeNext / 1000);
    throw err;
  }
}
