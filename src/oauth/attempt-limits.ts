// Attempt counters (failed sign-ins, sign-in code requests) under named keys, kept in the store
// (`login_failures`, rate-limiter-flexible's RateLimiterMongo) so every service process shares them.
// Which keys an attempt counts under is the caller's policy (sign-in-limits.ts, otp.ts).
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { Store } from '../store/store.js';

export interface AttemptLimits<Name extends string> {
  /** Distinguishes counters sharing the collection (`login`, `otp-request`). */
  prefix: string;
  /** Attempts allowed per key in the window, for each kind of key. */
  points: Record<Name, number>;
  windowSeconds: number;
}

/** The keys one attempt counts under; a kind left out is not counted. */
export type AttemptKeys<Name extends string> = Partial<Record<Name, string>>;

export class AttemptLimiter<Name extends string> {
  private readonly limiters = new Map<Name, RateLimiterMongo>();

  constructor(
    store: Store,
    private readonly limits: AttemptLimits<Name>,
  ) {
    // Indexes come from src/store/oauth/oauth.docs.ts with every other index, not from the library.
    const common = { storeClient: store.db, tableName: 'login_failures', disableIndexesCreation: true, duration: limits.windowSeconds };
    for (const [name, points] of Object.entries(limits.points) as Array<[Name, number]>) {
      this.limiters.set(name, new RateLimiterMongo({ ...common, keyPrefix: `${limits.prefix}:${name}`, points }));
    }
  }

  /** Seconds to wait when any of the keys has used up its attempts, else null. */
  async retryAfter(keys: AttemptKeys<Name>): Promise<number | null> {
    const waits = await Promise.all(
      this.entries(keys).map(async ([name, key]) => {
        const res = await this.limiters.get(name)!.get(key);
        return res && res.consumedPoints >= this.limits.points[name] ? res.msBeforeNext : 0;
      }),
    );
    const ms = Math.max(0, ...waits);
    return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : null;
  }

  async count(keys: AttemptKeys<Name>): Promise<void> {
    await Promise.all(this.entries(keys).map(([name, key]) => spend(this.limiters.get(name)!, key)));
  }

  async reset(keys: AttemptKeys<Name>): Promise<void> {
    await Promise.all(this.entries(keys).map(([name, key]) => this.limiters.get(name)!.delete(key)));
  }

  private entries(keys: AttemptKeys<Name>): Array<[Name, string]> {
    return (Object.entries(keys) as Array<[Name, string | undefined]>).filter((e): e is [Name, string] => typeof e[1] === 'string');
  }
}

/** Counts one attempt; going over the limit is expected here (the library rejects with a RateLimiterRes). */
async function spend(limiter: RateLimiterMongo, key: string): Promise<void> {
  try {
    await limiter.consume(key, 1);
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
  }
}
