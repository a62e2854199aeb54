// grant_type=password (first-party clients registered for it): an e-mail and password, or third-party
// sign-in when `username` is google / facebook / apple and `password` carries that provider's ID token.
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { CustomerDoc } from '../../store/customers/customer.doc.js';
import { toAccount } from '../account.js';
import type { PasswordLogin } from '../password-login.js';
import type { SignInLimits } from '../sign-in-limits.js';
import type { OtpService } from '../otp.js';
import {
  isThirdParty,
  LinkRefused,
  parseThirdPartyPassword,
  type LinkProof,
  type ThirdPartySignIn,
} from '../third-party.js';
import { invalidCredentials, linkRequired, optionalParam, requireParam, tooManyAttempts } from './grant-errors.js';
import { checkResource, issueTokens, type IssueOptions } from './issue-tokens.js';

/** `device_token`: what an earlier sign-in of this device answered (sign-in-limits.ts). */
export const PASSWORD_PARAMETERS = ['username', 'password', 'scope', 'resource', 'device_token'];

export interface PasswordGrantDeps {
  logins: PasswordLogin;
  thirdParty: ThirdPartySignIn;
  /** Failed third-party tokens count per IP only: `username` names a provider, not an account. */
  limiter: SignInLimits;
  /** Checks a one-time code offered as proof when an identity is linked to a password account. */
  otp: OtpService;
  issue: Omit<IssueOptions, 'account' | 'gty'>;
}

export function passwordGrant(deps: PasswordGrantDeps) {
  return async function passwordGrantHandler(ctx: KoaContextWithOIDC): Promise<void> {
    checkResource(ctx, deps.issue.audience);
    const username = requireParam(ctx, 'username');
    const password = requireParam(ctx, 'password');
    if (isThirdParty(username)) {
      const customer = await thirdPartyCustomer(ctx, deps, username, password);
      await issueTokens(ctx, { ...deps.issue, account: toAccount(customer), gty: 'password' });
      return;
    }
    const deviceToken = optionalParam(ctx, 'device_token');
    const outcome = await deps.logins.check(username, password, ctx.ip, deviceToken);
    if (!outcome.ok) {
      if (outcome.retryAfter) tooManyAttempts(ctx, outcome.retryAfter);
      invalidCredentials('invalid username or password');
    }
    await issueTokens(ctx, {
      ...deps.issue,
      account: toAccount(outcome.customer),
      gty: 'password',
      extra: { device_token: outcome.deviceToken },
    });
  };
}

async function thirdPartyCustomer(
  ctx: KoaContextWithOIDC,
  deps: PasswordGrantDeps,
  provider: 'google' | 'facebook' | 'apple',
  password: string,
): Promise<CustomerDoc> {
  const retryAfter = await deps.limiter.attempt(null, ctx.ip);
  if (retryAfter) tooManyAttempts(ctx, retryAfter);
  const credential = parseThirdPartyPassword(password);
  const identity = credential ? await deps.thirdParty.verify(provider, credential.token) : null;
  if (!credential || !identity) return invalidCredentials(`invalid ${provider} ID token`);
  await deps.limiter.succeeded(null, ctx.ip);
  const prove: LinkProof = async (customer) => {
    if (credential.accountPassword) {
      const outcome = await deps.logins.check(customer.email!, credential.accountPassword, ctx.ip);
      return outcome.ok
        ? outcome.customer._id === customer._id
          ? 'ok'
          : 'wrong'
        : outcome.retryAfter
          ? { retryAfter: outcome.retryAfter }
          : 'wrong';
    }
    if (credential.code) {
      const outcome = await deps.otp.check(customer.email!, credential.code, ctx.ip);
      return outcome.ok
        ? outcome.customer._id === customer._id
          ? 'ok'
          : 'wrong'
        : outcome.retryAfter
          ? { retryAfter: outcome.retryAfter }
          : 'wrong';
    }
    return 'missing';
  };
  try {
    return await deps.thirdParty.customerFor(provider, identity, credential.name, prove);
  } catch (err) {
    if (!(err instanceof LinkRefused)) throw err;
    if (typeof err.reason === 'object') tooManyAttempts(ctx, err.reason.retryAfter);
    if (err.reason === 'missing') linkRequired();
    return invalidCredentials('wrong proof for linking an identity to a password account');
  }
}
