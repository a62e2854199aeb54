// Checks an e-mail and password for the password grant and the login page: limits first, then one
// argon2 verification whether or not the account exists, then the failure or success is counted.
import type { CustomerDoc } from '../store/customers/customer.doc.js';
import { normalizeEmail } from '../store/customers/customer.doc.js';
import { findCustomerByEmail } from '../store/customers/customers.store.js';
import type { Store } from '../store/store.js';
import type { AttemptLimiter } from './attempt-limits.js';
import type { PasswordHasher } from './passwords.js';

export type LoginOutcome = { ok: true; customer: CustomerDoc } | { ok: false; retryAfter?: number };

export class PasswordLogin {
  constructor(
    private readonly store: Store,
    private readonly hasher: PasswordHasher,
    private readonly limiter: AttemptLimiter,
  ) {}

  async check(email: string, password: string, ip: string): Promise<LoginOutcome> {
    const account = normalizeEmail(email);
    const retryAfter = await this.limiter.retryAfter(account, ip);
    if (retryAfter) return { ok: false, retryAfter };
    const customer = account ? await findCustomerByEmail(this.store, account) : null;
    const matches = await this.hasher.verify(customer?.passwordHash, password);
    if (!customer || !matches) {
      await this.limiter.count(account, ip);
      return { ok: false };
    }
    await this.limiter.reset(account);
    return { ok: true, customer };
  }
}
