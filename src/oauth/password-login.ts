// Checks an e-mail and password for the password grant and the login page: the attempt is counted first
// (refused past a limit), then one argon2 verification whether or not the account exists; a success gives
// the attempt back. A
// success hands out a device token, which keeps that device's attempts apart from everyone else's.
import type { CustomerDoc } from '../store/customers/customer.doc.js';
import { normalizeEmail } from '../store/customers/customer.doc.js';
import { findCustomerByEmail } from '../store/customers/customers.store.js';
import type { Store } from '../store/store.js';
import type { PasswordHasher } from './passwords.js';
import type { SignInLimits } from './sign-in-limits.js';

export type LoginOutcome =
  { ok: true; customer: CustomerDoc; deviceToken: string } | { ok: false; retryAfter?: number };

export class PasswordLogin {
  constructor(
    private readonly store: Store,
    private readonly hasher: PasswordHasher,
    private readonly limits: SignInLimits,
  ) {}

  async check(email: string, password: string, ip: string, deviceToken?: string): Promise<LoginOutcome> {
    const account = normalizeEmail(email);
    const retryAfter = await this.limits.attempt(account, ip, deviceToken);
    if (retryAfter) return { ok: false, retryAfter };
    const customer = account ? await findCustomerByEmail(this.store, account) : null;
    const matches = await this.hasher.verify(customer?.passwordHash, password);
    if (!customer || !matches) return { ok: false };
    await this.limits.succeeded(account, ip, deviceToken);
    return {
      ok: true,
      customer,
      deviceToken: this.limits.deviceOf(account, deviceToken) ? deviceToken! : this.limits.issueDeviceToken(account),
    };
  }
}
