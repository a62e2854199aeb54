// Counters kept in the store (rate-limiter-flexible's RateLimiterMongo) so every service process shares the
// counts: the interactive content's limits, the newsletter's and the sign-in attempt counters. Their indexes
// come from each domain's index list with every other index, not from the library.
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimited } from '../errors.js';
import type { Store } from './store.js';

/** Points allowed per key in a window. */
export interface RateLimit {
  points: number;
  windowSeconds: number;
}

/** The collections that hold counters (rate-limit.doc.ts). */
export type RateLimitCollection = 'live_limits' | 'newsletter_limits' | 'login_failures';

/** One limiter per named limit over `collection`; a limit's keys are stored under `prefix` and its name. */
export function storeLimiters<K extends string>(
  store: Store,
  collection: RateLimitCollection,
  limits: Readonly<Record<K, RateLimit>>,
  prefix = '',
): Record<K, RateLimiterMongo> {
  const common = { storeClient: store.db, tableName: collection, disableIndexesCreation: true };
  const entries = (Object.entries(limits) as Array<[K, RateLimit]>).map(([name, limit]) => [
    name,
    new RateLimiterMongo({
      ...common,
      keyPrefix: `${prefix}${name}`,
      points: limit.points,
      duration: limit.windowSeconds,
    }),
  ]);
  return Object.fromEntries(entries) as Record<K, RateLimiterMongo>;
}

/** The same limiters, made once per store (a process has one store; tests start several). */
export function limitersPerStore<K extends string>(
  collection: RateLimitCollection,
  limits: Readonly<Record<K, RateLimit>>,
): (store: Store) => Record<K, RateLimiterMongo> {
  const made = new WeakMap<Store, Record<K, RateLimiterMongo>>();
  return (store) => {
    let set = made.get(store);
    if (!set) made.set(store, (set = storeLimiters(store, collection, limits)));
    return set;
  };
}

/** The wait (ms) when `err` is the library's refusal (the key's points are used up); undefined for any other error. */
export function refusalWait(err: unknown): number | undefined {
  return err instanceof RateLimiterRes ? err.msBeforeNext : undefined;
}

/** Spends one point of `limiter` for `key`; throws 429 with Retry-After once they are used up. */
export async function spendPoint(limiter: RateLimiterMongo, key: string): Promise<void> {
  try {
    await limiter.consume(key, 1);
  } catch (err) {
    const wait = refusalWait(err);
    if (wait !== undefined) throw rateLimited(wait / 1000);
    throw err;
  }
}
