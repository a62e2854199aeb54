// Attempt counters per account and per client IP (failed sign-ins, sign-in code requests), kept in the
// store (`login_failures`, rate-limiter-flexible's RateLimiterMongo) so every service process shares them.
import { RateLimiterMongo, RateLimiterRes } from 'rate-limiter-flexible';
import type { Store } from '../store/store.js';

export interface AttemptLimits {
  /** Distinguishes counters sharing the collection (`login`, `otp-request`). */
  prefix: string;
  perAccount: number;
  perIp: number;
  windowSeconds: number;
}

export class AttemptLimiter {
  private readonly byAccount: RateLimiterMongo;
  private readonly byIp: RateLimiterMongo;

  constructor(store: Store, private readonly limits: AttemptLimits) {
    // Indexes come from src/store/oauth/oauth.docs.ts with every other index, not from the library.
    const common = { storeClient: store.db, tableName: 'login_failures', disableIndexesCreation: true, duration: limits.windowSeconds };
    this.byAccount = new RateLimiterMongo({ ...common, keyPrefix: `${limits.prefix}:account`, points: limits.perAccount });
    this.byIp = new RateLimiterMongo({ ...common, keyPrefix: `${limits.prefix}:ip`, points: limits.perIp });
  }

  /**
   * Seconds to wait when the account (if any) or the IP has used up its attempts, else null. Checked
   * before any credential, so a locked account answers 429 whether or not the password was right.
   */
  async retryAfter(account: string | null, ip: string): Promise<number | null> {
    const [a, i] = await Promise.all([account ? this.byAccount.get(account) : null, this.byIp.get(ip)]);
    const ms = Math.max(
      a && a.consumedPoints >= this.limits.perAccount ? a.msBeforeNext : 0,
      i && i.consumedPoints >= this.limits.perIp ? i.msBeforeNext : 0,
    );
    return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : null;
  }

  async count(account: string | null, ip: string): Promise<void> {
    await Promise.all([account ? spend(this.byAccount, account) : undefined, spend(this.byIp, ip)]);
  }

  /** Clears the account's count (not the IP's: one good account must not unlock guessing at others). */
  async reset(account: string): Promise<void> {
    await this.byAccount.delete(account);
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
