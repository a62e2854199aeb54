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

/** A required string parameter, or invalid_request. */
export function requireParam(ctx: KoaContextWithOIDC, name: string): string {
  const value = ctx.oidc.params[name];
  if (typeof value !== 'string' || value.length === 0) throw new errors.InvalidRequest(`missing required parameter '${name}'`);
  if (value.length > 16_384) throw new errors.InvalidRequest(`parameter '${name}' is too long`);
  return value;
}
