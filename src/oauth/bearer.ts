// The bearer check for REST, GraphQL and the WebSocket endpoint (docs/api.md): the access token is a JWT for this API,
// verified in-process against the provider's own public keys (signature, issuer, audience, expiry) and
// the in-memory revocation list (no store round trip). The viewer it yields loads entitlements lazily through a customers DataLoader.
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.js';
import type { Entitlement, Viewer } from '../context.js';
import { unauthenticated, type AppError } from '../errors.js';
import { presentedCredential, type Authenticator } from '../http/authenticate.js';
import { customerEntitlementsLoader } from '../store/customers/customers.store.js';
import type { Store } from '../store/store.js';
import { outsideAnOperation } from '../store/loaders.js';
import type { OAuthKeys } from './keys.js';
import type { RevocationList } from './revocations.js';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
/** What a client interpolating a missing token into `Bearer ${token}` sends. */
const NO_TOKEN = /^(undefined|null)$/;

/**
 * A presented credential that is no well-formed bearer token is refused, never read as anonymous: a client that
 * meant to sign in learns at once that it did not. Another scheme (Basic, ...) is answered with a challenge
 * without an error code (RFC 6750 §3.1: an unsupported authentication method).
 */
function malformed(authorization: string): AppError {
  if (/^Bearer(\s|$)/i.test(authorization))
    return unauthenticated('Send the access token as "Authorization: Bearer <token>"');
  return unauthenticated(
    'Only bearer tokens are accepted: send "Authorization: Bearer <token>", or none to read anonymously',
    null,
  );
}

/** Verifies an access token (signature, issuer, audience, type, expiry) against the server's public keys. */
export type AccessTokenVerifier = (token: string) => Promise<JWTPayload>;

export function accessTokenVerifier(config: Config, keys: Pick<OAuthKeys, 'publicJwks'>): AccessTokenVerifier {
  const keySet = createLocalJWKSet(keys.publicJwks);
  const { issuer, audience } = config.oauth;
  return async (token) =>
    (await jwtVerify(token, keySet, { issuer, audience, typ: 'at+jwt', algorithms: ['ES256'] })).payload;
}

export function bearerAuthenticator(deps: {
  config: Config;
  store: Store;
  keys: OAuthKeys;
  revocations?: RevocationList;
  verify?: AccessTokenVerifier;
}): Authenticator {
  const verify = deps.verify ?? accessTokenVerifier(deps.config, deps.keys);
  return async (authorization) => {
    const credential = presentedCredential(authorization);
    if (credential === undefined) return null;
    const match = BEARER.exec(credential);
    if (!match) throw malformed(credential);
    let payload: JWTPayload;
    try {
      payload = await verify(match[1]!);
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthenticated('The access token has expired');
      throw unauthenticated(
        NO_TOKEN.test(match[1]!)
          ? `"Bearer ${match[1]}" carries no access token: leave the header out to read anonymously`
          : 'The access token is not valid',
      );
    }
    if (typeof payload.sub !== 'string' || !payload.sub) throw unauthenticated('The access token is not valid');
    // In memory: revoked grants and tokens reach every process within a poll period (revocations.ts).
    if (deps.revocations?.isRevoked(payload.jti, payload.gid))
      throw unauthenticated('The access token has been revoked');
    return createViewer(deps.store, payload.sub, payload);
  };
}

function createViewer(store: Store, customerId: string, claims: JWTPayload): Viewer {
  const scopes = new Set(typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : []);
  // Built before the request's Loaders exist: the viewer keeps its own loader, created on first use.
  let loader: ReturnType<typeof customerEntitlementsLoader> | undefined;
  let entitlements: Promise<Entitlement[]> | undefined;
  return {
    customerId,
    ...(typeof claims.client_id === 'string' ? { clientId: claims.client_id } : {}),
    scopes,
    entitlements() {
      entitlements ??= (async () => {
        loader ??= customerEntitlementsLoader(store, outsideAnOperation);
        const customer = await loader.load(customerId);
        return (customer?.entitlements ?? []).map((e) => ({ group: e.group, validUntil: e.validUntil ?? null }));
      })();
      return entitlements;
    },
  };
}
