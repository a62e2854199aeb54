// Shared pieces of the OAuth tests: token endpoint calls (form or JSON), clients, PKCE pairs.
import { createHash, randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { createClient, DEFAULT_SCOPES, type NewClient } from '../../src/oauth/clients.js';
import type { TestService } from '../helpers/service.js';

export interface OAuthAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export const basic = (clientId: string, secret: string): Record<string, string> => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

/** POST /oauth2/access_token with a form body (or a JSON body with `json: true`). */
export async function tokenRequest(
  svc: TestService,
  params: Record<string, string>,
  opts: { headers?: Record<string, string>; json?: boolean } = {},
): Promise<OAuthAnswer> {
  const res = await fetch(`${svc.url}/oauth2/access_token`, {
    method: 'POST',
    headers: { 'content-type': opts.json ? 'application/json' : 'application/x-www-form-urlencoded', ...opts.headers },
    body: opts.json ? JSON.stringify(params) : new URLSearchParams(params),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A client of the given shape with a random id; returns its id and secret (confidential clients). */
export async function newClient(
  svc: TestService,
  input: Partial<NewClient> & Pick<NewClient, 'grantTypes'>,
): Promise<{ clientId: string; secret: string }> {
  const { client, secret } = await createClient(svc.store, {
    clientId: `c-${randomBytes(5).toString('hex')}`,
    name: 'Test client',
    kind: 'confidential',
    scopes: [...DEFAULT_SCOPES],
    ...input,
  });
  return { clientId: client._id, secret: secret ?? '' };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The JSON payload of a JWT, unverified (for assertions on claims). */
export const jwtClaims = (jwt: string): Record<string, unknown> =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;

export const INVALID_REQUEST = 'Invalid request or authorization code';
export const INVALID_CLIENT = 'Invalid client credentials or unauthorized request';

/**
 * openid-client configured from the server's discovery document, over plain http (tests only). The
 * test services listen on a random port while their issuer says PUBLIC_URL, so requests to the issuer's
 * origin go to the service.
 */
export async function relyingParty(
  service: TestService,
  clientId: string,
  secret?: string,
): Promise<oidc.Configuration> {
  const issuerOrigin = new URL(service.config.oauth.issuer).origin;
  const redirect: oidc.CustomFetch = (url, options) =>
    fetch(url.startsWith(issuerOrigin) ? service.url + url.slice(issuerOrigin.length) : url, options as RequestInit);
  return oidc.discovery(
    new URL(service.config.oauth.issuer),
    clientId,
    secret ? { client_secret: secret } : undefined,
    secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
    {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: redirect,
    },
  );
}
