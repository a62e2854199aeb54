// Failures the custom grants raise, as provider errors so the token endpoint renders them (RFC 6749 §5.2).
import type { KoaContextWithOIDC } from 'oidc-provider';
import { errors } from '../oidc.js';

/** 429 with Retry-After; `temporarily_unavailable` is the registered OAuth code closest to "slow down". */
export function tooManyAttempts(ctx: KoaContextWithOIDC, retryAfterSeconds: number): never {
  ctx.set('Retry-After', String(retryAfterSeconds));
  const err = new errors.OIDCProviderError(429, 'temporarily_unavailable');
  err.error_description = 'Too many failed attempts; try again later';
  throw err;
}

export function invalidCredentials(detail: string): never {
  throw new errors.InvalidGrant(detail);
}

/** An optional string parameter (undefined when absent or empty). */
export function optionalParam(ctx: KoaContextWithOIDC, name: string): string | undefined {
  const value = ctx.oidc.params[name];
  if (typeof value !== 'string' || value.length === 0) return undefined;
  if (value.length > 16_384) throw new errors.InvalidRequest(`parameter '${name}' is too long`);
  return value;
}

/** A required string parameter, or invalid_request. */
export function requireParam(ctx: KoaContextWithOIDC, name: string): string {
  const value = ctx.oidc.params[name];
  if (typeof value !== 'string' || value.length === 0)
    throw new errors.InvalidRequest(`missing required parameter '${name}'`);
  if (value.length > 16_384) throw new errors.InvalidRequest(`parameter '${name}' is too long`);
  return value;
}

/** The description that marks a third-party sign-in needing the account's password or a code (see token-endpoint.ts). */
export const LINK_REQUIRED = 'link_required';

/**
 * A provider vouches for the e-mail of an existing password account: 400 invalid_grant with
 * `link_required: true`; the client asks the user for that password (or a one-time code) and repeats the
 * sign-in with it in the credential JSON.
 */
export function linkRequired(): never {
  const err = new errors.OIDCProviderError(400, 'invalid_grant');
  err.error_description = LINK_REQUIRED;
  throw err;
}
