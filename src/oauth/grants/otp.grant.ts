// grant_type=otp (first-party clients registered for it): the e-mail as `username` and the one-time
// code from POST /oauth2/otp as `code`.
import type { KoaContextWithOIDC } from 'oidc-provider';
import { toAccount } from '../account.js';
import type { OtpService } from '../otp.js';
import { invalidCredentials, optionalParam, requireParam, tooManyAttempts } from './grant-errors.js';
import { checkResource, issueTokens, type IssueOptions } from './issue-tokens.js';

export const OTP_PARAMETERS = ['username', 'code', 'scope', 'resource', 'device_token'];

export function otpGrant(deps: { otp: OtpService; issue: Omit<IssueOptions, 'account' | 'gty'> }) {
  return async function otpGrantHandler(ctx: KoaContextWithOIDC): Promise<void> {
    checkResource(ctx, deps.issue.audience);
    const email = requireParam(ctx, 'username');
    const code = requireParam(ctx, 'code');
    const outcome = await deps.otp.check(email, code, ctx.ip, optionalParam(ctx, 'device_token'));
    if (!outcome.ok) {
      if (outcome.retryAfter) tooManyAttempts(ctx, outcome.retryAfter);
      invalidCredentials('invalid or expired one-time code');
    }
    await issueTokens(ctx, {
      ...deps.issue,
      account: toAccount(outcome.customer),
      gty: 'otp',
      extra: { device_token: outcome.deviceToken },
    });
  };
}
