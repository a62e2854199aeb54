// Attempt counters (failed sign-ins, sign-in code requests) under named keys, kept in the store
// (`login_failures`, rate-limiter-flexible's RateLimiterMongo) so every service process shares them.
// Which keys an attempt counts under is the caller's policy (sign-in-limits.ts, otp.ts).
import { createHmac } from 'node:crypto';
import type { RateLimiterMongo } from 'rate-limiter-flexible';
import { refusalWait, storeLimiters, type RateLimit } from '../store/rate-limits.js';
import type { Store } from '../store/store.js';

export interface AttemptLimits<Name extends string> {
  /** Distinguishes counters sharing the collection (`login`, `otp-request`). */
  prefix: string;
  /** Attempts allowed per key in the window, for each kind of key. */
  points: Record<Name, number>;
  windowSeconds: number;
  /** The server's secret the stored keys are HMACs under (the same in every process). */
  key: Buffer;
}

/** The keys one attempt counts under; a kind left out is not counted. */
export type AttemptKeys<Name extends string> = Partial<Record<Name, string>>;

export class AttemptLimiter<Name extends string> {
  private readonly limiters: Record<Name, RateLimiterMongo>;

  constructor(
    store: Store,
    private readonly limits: AttemptLimits<Name>,
  ) {
    const perName = Object.fromEntries(
      Object.entries<number>(limits.points).map(([name, points]) => [
        name,
        { points, windowSeconds: limits.windowSeconds },
      ]),
    );
    this.limiters = storeLimiters(store, 'login_failures', perName as Record<Name, RateLimit>, `${limits.prefix}:`);
  }

  /**
   * Counts one attempt under every key before the attempt is made, so parallel attempts cannot pass a limit
   * together (each key's counter is incremented atomically in the store). When any key is past its limit
   * the attempt is given back under every key and the seconds to wait are returned; else null.
   */
  async take(keys: AttemptKeys<Name>): Promise<number | null> {
    // One key after the other, the tightest limit first, stopping at the first refusal: counted in parallel,
    // attempts refused by one key still held points of the others until given back, so parallel attempts
    // within every limit could be refused (ten parallel guesses let two through where the limit was three).
    const entries = this.entries(keys).sort(([a], [b]) => this.limits.points[a] - this.limits.points[b]);
    const counted: Array<[Name, string]> = [];
    for (const [name, key] of entries) {
      try {
        await this.limiters[name].consume(this.stored(key), 1);
        counted.push([name, key]);
      } catch (err) {
        const wait = refusalWait(err);
        // A refused consume has counted too: give back every point this attempt took.
        if (wait !== undefined) counted.push([name, key]);
        await this.giveBack(Object.fromEntries(counted) as AttemptKeys<Name>);
        if (wait === undefined) throw err;
        return Math.max(1, Math.ceil(wait / 1000));
      }
    }
    return null;
  }

  /** Gives back the attempt `take` counted (it succeeded and should not count against these keys). */
  async giveBack(keys: AttemptKeys<Name>): Promise<void> {
    await Promise.all(this.entries(keys).map(([name, key]) => this.limiters[name].reward(this.stored(key), 1)));
  }

  async reset(keys: AttemptKeys<Name>): Promise<void> {
    await Promise.all(this.entries(keys).map(([name, key]) => this.limiters[name].delete(this.stored(key))));
  }

  /**
   * A key as stored: an HMAC-SHA-256 of it under the server's key, so that what a client typed (an e-mail of
   * any length, or a password typed into the e-mail field) is neither kept in the store, nor recoverable from
   * it by guessing, nor too long for the collection's unique index (an index key has a size limit on the
   * embedded engine, and on MongoDB before 4.2).
   */
  private stored(key: string): string {
    return createHmac('sha256', this.limits.key).update(`attempt:${key}`).digest('base64url');
  }

  private entries(keys: AttemptKeys<Name>): Array<[Name, string]> {
    return (Object.entries(keys) as Array<[Name, string | undefined]>).filter(
      (e): e is [Name, string] => typeof e[1] === 'string',
    );
  }
}
