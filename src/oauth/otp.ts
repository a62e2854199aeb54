// One-time sign-in codes (CONTRACT.md §4.4): 6 digits, 5 minutes, 5 attempts, stored as an HMAC, sent
// through the mailer. Requests and checks take the same path whether or not the account exists.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import { normalizeEmail, type CustomerDoc } from '../store/customers/customer.doc.js';
import { findCustomerByEmail } from '../store/customers/customers.store.js';
import { saveOtpCode, spendOtpCode, takeOtpAttempt } from '../store/oauth/otp.store.js';
import type { Store } from '../store/store.js';
import type { AttemptLimiter } from './attempt-limits.js';
import type { LoginOutcome } from './password-login.js';

export const OTP_DIGITS = 6;
export const OTP_TTL_SECONDS = 300;
export const OTP_MAX_ATTEMPTS = 5;

export interface OtpDeps {
  store: Store;
  mailer: Mailer;
  log: Logger;
  /** HMAC key (derived from the cookie keys). */
  key: Buffer;
  /** Counts failed checks (shared with passwords). */
  failures: AttemptLimiter;
  /** Counts code requests, so nobody can flood an inbox. */
  requests: AttemptLimiter;
}

export class OtpService {
  constructor(private readonly deps: OtpDeps) {}

  private digest(salt: string, code: string): string {
    return createHmac('sha256', this.deps.key).update(`${salt}:${code}`).digest('hex');
  }

  /**
   * Issues a code for `email` and mails it when a customer has that address. Unknown addresses get a
   * code too (never sent, never usable), so both paths do the same store work. Returns the seconds to
   * wait when the address or IP asked too often, else null.
   */
  async request(clientId: string, rawEmail: string, ip: string): Promise<number | null> {
    const email = normalizeEmail(rawEmail);
    const retryAfter = await this.deps.requests.retryAfter(email, ip);
    if (retryAfter) return retryAfter;
    await this.deps.requests.count(email, ip);
    const code = String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
    const salt = randomBytes(16).toString('base64url');
    const now = new Date();
    await saveOtpCode(this.deps.store, {
      _id: email,
      clientId,
      codeHash: this.digest(salt, code),
      salt,
      attempts: 0,
      expiresAt: new Date(now.getTime() + OTP_TTL_SECONDS * 1000),
      createdAt: now,
    });
    const customer = await findCustomerByEmail(this.deps.store, email);
    // Sent in the background: waiting for the mail server would tell the caller the account exists.
    if (customer) void this.send(email, code);
    return null;
  }

  private async send(email: string, code: string): Promise<void> {
    try {
      await this.deps.mailer.send({
        to: email,
        subject: `Your sign-in code: ${code}`,
        text: `Your sign-in code is ${code}. It is valid for ${OTP_TTL_SECONDS / 60} minutes. If you did not ask for it, ignore this mail.`,
      });
    } catch (err) {
      this.deps.log.error({ err }, 'otp: the sign-in code mail could not be sent');
    }
  }

  /** Checks a code; spends it on success. Every failure counts against the account and the IP. */
  async check(rawEmail: string, code: string, ip: string): Promise<LoginOutcome> {
    const email = normalizeEmail(rawEmail);
    const retryAfter = await this.deps.failures.retryAfter(email, ip);
    if (retryAfter) return { ok: false, retryAfter };
    const stored = await takeOtpAttempt(this.deps.store, email, OTP_MAX_ATTEMPTS);
    const presented = Buffer.from(this.digest(stored?.salt ?? 'none', code), 'hex');
    const expected = Buffer.from(stored?.codeHash ?? '00'.repeat(32), 'hex');
    const matches = stored !== null && /^\d{6}$/.test(code) && timingSafeEqual(presented, expected);
    let customer: CustomerDoc | null = null;
    if (matches && (await spendOtpCode(this.deps.store, email, stored.codeHash))) {
      customer = await findCustomerByEmail(this.deps.store, email);
    }
    if (!customer) {
      await this.deps.failures.count(email, ip);
      return { ok: false };
    }
    await this.deps.failures.reset(email);
    return { ok: true, customer };
  }
}
