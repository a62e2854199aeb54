// One-time sign-in codes (docs/api.md): 6 digits, 5 minutes, 5 attempts, stored as an HMAC, sent
// through the mailer. Requests and checks take the same path whether or not the account exists.
// A request never cancels a code already mailed: every request adds a code, and a check tries the
// address's live codes. Requests are limited per address and client IP together, per client IP, and per
// address over all clients with a higher ceiling (inbox flooding); attempts on a code are counted per
// client, so strangers' guesses neither use up nor lock out the owner's code (sign-in-limits.ts).
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import { normalizeEmail, type CustomerDoc } from '../store/customers/customer.doc.js';
import { findCustomerByEmail } from '../store/customers/customers.store.js';
import { liveOtpCodes, saveOtpCode, spendOtpCode, takeOtpAttempt } from '../store/oauth/otp.store.js';
import type { Store } from '../store/store.js';
import type { AttemptLimiter } from './attempt-limits.js';
import type { LoginOutcome } from './password-login.js';
import type { SignInLimits } from './sign-in-limits.js';

const OTP_DIGITS = 6;
export const OTP_TTL_SECONDS = 300;
const OTP_MAX_ATTEMPTS = 5;

export type OtpRequestCounter = 'pair' | 'ip' | 'address';

export interface OtpDeps {
  store: Store;
  mailer: Mailer;
  log: Logger;
  /** HMAC key (derived from the cookie keys). */
  key: Buffer;
  /** Counts failed checks (shared with passwords). */
  failures: SignInLimits;
  /** Counts code requests, so nobody can flood an inbox. */
  requests: AttemptLimiter<OtpRequestCounter>;
  /** Live codes a check tries (the request limit per address bounds them anyway). */
  maxLiveCodes: number;
}

export class OtpService {
  constructor(private readonly deps: OtpDeps) {}

  private digest(salt: string, code: string): string {
    return createHmac('sha256', this.deps.key).update(`${salt}:${code}`).digest('hex');
  }

  /** Attempts are counted per client: a keyed hash of its address, not the address itself. */
  private clientKey(ip: string): string {
    return createHash('sha256').update(this.deps.key).update(ip).digest('base64url').slice(0, 16);
  }

  /**
   * Issues a code for `email` and mails it when a customer has that address. Unknown addresses get a
   * code too (never sent, never usable), so both paths do the same store work. Returns the seconds to
   * wait when the address or IP asked too often, else null.
   */
  async request(clientId: string, rawEmail: string, ip: string): Promise<number | null> {
    const email = normalizeEmail(rawEmail);
    const keys = { pair: `${email}|${ip}`, ip, address: email };
    const retryAfter = await this.deps.requests.take(keys);
    if (retryAfter) return retryAfter;
    const code = String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
    const salt = randomBytes(16).toString('base64url');
    const now = new Date();
    await saveOtpCode(this.deps.store, {
      _id: randomBytes(12).toString('base64url'),
      email,
      clientId,
      codeHash: this.digest(salt, code),
      salt,
      attempts: {},
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

  /** Checks a code against the address's live codes; spends it on success. Every attempt is counted first; a success gives it back. */
  async check(rawEmail: string, code: string, ip: string, deviceToken?: string): Promise<LoginOutcome> {
    const email = normalizeEmail(rawEmail);
    const retryAfter = await this.deps.failures.attempt(email, ip, deviceToken);
    if (retryAfter) return { ok: false, retryAfter };
    const wellFormed = new RegExp(`^\\d{${OTP_DIGITS}}$`).test(code);
    const client = this.clientKey(ip);
    let customer: CustomerDoc | null = null;
    for (const live of await liveOtpCodes(this.deps.store, email, this.deps.maxLiveCodes)) {
      const taken = await takeOtpAttempt(this.deps.store, live._id, client, OTP_MAX_ATTEMPTS);
      if (!taken || !wellFormed) continue;
      const matches = timingSafeEqual(
        Buffer.from(this.digest(taken.salt, code), 'hex'),
        Buffer.from(taken.codeHash, 'hex'),
      );
      if (matches && (await spendOtpCode(this.deps.store, taken._id, taken.codeHash, email))) {
        customer = await findCustomerByEmail(this.deps.store, email);
        break;
      }
    }
    if (!customer) return { ok: false };
    await this.deps.failures.succeeded(email, ip, deviceToken);
    const known = this.deps.failures.deviceOf(email, deviceToken)
      ? deviceToken!
      : this.deps.failures.issueDeviceToken(email);
    return { ok: true, customer, deviceToken: known };
  }
}
