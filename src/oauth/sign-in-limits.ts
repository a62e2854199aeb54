// Brute-force limits without lockout abuse (OWASP Authentication Cheat Sheet, "device cookies"):
// - a device that has signed in to an account holds a device token for it (a cookie on the sign-in
//   page, `device_token` in password / otp grant answers); its failures count against that device only,
//   so other people's guesses never lock the owner's known devices out;
// - unknown devices are counted per account and client IP together (one attacker cannot lock the account
//   for other addresses), per client IP (one attacker cannot spread guesses over many accounts), and per
//   account over all unknown devices, with a higher ceiling (a distributed attack slows down and only
//   unknown devices wait).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.js';
import { AttemptLimiter, type AttemptKeys } from './attempt-limits.js';

export type SignInCounter = 'device' | 'pair' | 'ip' | 'account';

export interface SignInLimitSettings {
  /** Failures per account from one IP, and per known device. */
  perAccountAndIp: number;
  perIp: number;
  /** Failures per account from all unknown devices together. */
  perAccountUnknownDevices: number;
  windowSeconds: number;
}

export class SignInLimits {
  private readonly limiter: AttemptLimiter<SignInCounter>;

  constructor(
    store: Store,
    settings: SignInLimitSettings,
    /** HMAC key of device tokens. */
    private readonly key: Buffer,
  ) {
    this.limiter = new AttemptLimiter<SignInCounter>(store, {
      prefix: 'login',
      points: {
        device: settings.perAccountAndIp,
        pair: settings.perAccountAndIp,
        ip: settings.perIp,
        account: settings.perAccountUnknownDevices,
      },
      windowSeconds: settings.windowSeconds,
      key,
    });
  }

  /** A new device token for `account` (the normalised e-mail), handed out after a successful sign-in. */
  issueDeviceToken(account: string): string {
    const id = randomBytes(16).toString('base64url');
    return `${id}.${this.mac(account, id)}`;
  }

  /** The device id when `token` was issued for `account` by this server, else null. */
  deviceOf(account: string, token: string | undefined): string | null {
    if (!token || token.length > 200) return null;
    const [id, mac, extra] = token.split('.');
    if (!id || !mac || extra !== undefined) return null;
    const expected = Buffer.from(this.mac(account, id));
    const presented = Buffer.from(mac);
    return expected.length === presented.length && timingSafeEqual(expected, presented) ? id : null;
  }

  private mac(account: string, id: string): string {
    return createHmac('sha256', this.key).update(`device:${account}:${id}`).digest('base64url').slice(0, 32);
  }

  /** The counters an attempt on `account` from `ip` (with an optional device token) counts under. */
  private keys(account: string | null, ip: string, deviceToken: string | undefined): AttemptKeys<SignInCounter> {
    if (!account) return { ip };
    const device = this.deviceOf(account, deviceToken);
    if (device) return { device: `${account}|${device}` };
    return { pair: `${account}|${ip}`, ip, account };
  }

  /**
   * Counts a sign-in attempt before the credentials are checked (parallel guesses cannot pass a limit
   * together). Returns the seconds to wait when a limit is reached (the attempt is then not counted), else
   * null: the attempt counts as failed unless `succeeded` follows.
   */
  attempt(account: string | null, ip: string, deviceToken?: string): Promise<number | null> {
    return this.limiter.take(this.keys(account, ip, deviceToken));
  }

  /**
   * After a successful attempt: clears what this device / address spent on the account, and gives back the
   * attempt to the IP's and the account-wide counts (successes do not count against them).
   */
  async succeeded(account: string | null, ip: string, deviceToken?: string): Promise<void> {
    const { device, pair, ip: address, account: accountWide } = this.keys(account, ip, deviceToken);
    await Promise.all([
      this.limiter.reset({ device, pair }),
      this.limiter.giveBack({ ip: address, account: accountWide }),
    ]);
  }
}
