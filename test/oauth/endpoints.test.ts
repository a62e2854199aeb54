// The rest of the authorization server under /oauth2 (docs/api.md): discovery and RFC 8414 metadata
// listing only the enabled grants, the JWKS, revocation (RFC 7009), introspection (RFC 7662); keys kept
// in the store and generated once; no development warnings from the provider.
import { jest } from '@jest/globals';
import { createLogger } from '../../src/logger.js';
import { loadKeys } from '../../src/oauth/keys.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { tokenFor, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, jwtClaims, newClient, tokenRequest } from './support.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.close();
});

const form = (path: string, params: Record<string, string>, headers: Record<string, string>, on: TestService = svc) =>
  fetch(`${on.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params),
  });

describe('metadata', () => {
  test('OIDC discovery lists the /oauth2 endpoints, only the four enabled grants, PKCE S256, code only', async () => {
    const res = await fetch(`${svc.url}/oauth2/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const meta = (await res.json()) as Record<string, unknown>;
    expect(meta.issuer).toBe(svc.config.oauth.issuer);
    expect(meta.token_endpoint).toBe(`${svc.url}/oauth2/access_token`);
    expect(meta.authorization_endpoint).toBe(`${svc.url}/oauth2/authorize`);
    expect(meta.jwks_uri).toBe(`${svc.url}/oauth2/jwks`);
    expect(meta.revocation_endpoint).toBe(`${svc.url}/oauth2/revoke`);
    expect(meta.introspection_endpoint).toBe(`${svc.url}/oauth2/introspect`);
    expect(meta.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'password', 'otp']);
    expect(meta.response_types_supported).toEqual(['code']);
    expect(meta.code_challenge_methods_supported).toEqual(['S256']);
    expect(meta.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post', 'none']);
    expect(meta.scopes_supported).toEqual(['openid', 'offline_access', 'profile', 'email', 'cart', 'developer']);
  });

  test('RFC 8414 metadata at /.well-known/oauth-authorization-server/oauth2 (and under the issuer)', async () => {
    for (const path of [
      '/.well-known/oauth-authorization-server/oauth2',
      '/oauth2/.well-known/oauth-authorization-server',
    ]) {
      const res = await fetch(`${svc.url}${path}`);
      expect(res.status).toBe(200);
      const meta = (await res.json()) as Record<string, unknown>;
      expect(meta.issuer).toBe(svc.config.oauth.issuer);
      expect(meta.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'password', 'otp']);
    }
  });

  test('the JWKS has public keys only, and includes the key access tokens are signed with', async () => {
    const res = await fetch(`${svc.url}/oauth2/jwks`);
    expect(res.status).toBe(200);
    const { keys } = (await res.json()) as { keys: Array<Record<string, unknown>> };
    expect(keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    for (const key of keys) for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key[secret]).toBeUndefined();
    const { accessToken } = await tokenFor(svc);
    const header = JSON.parse(Buffer.from(accessToken.split('.')[0]!, 'base64url').toString()) as {
      kid: string;
      typ: string;
    };
    expect(header.typ).toBe('at+jwt');
    expect(keys.map((k) => k.kid)).toContain(header.kid);
  });
});

describe('revocation (RFC 7009)', () => {
  test('revoking a refresh token ends it (and its grant); the answer is 200 either way', async () => {
    const issued = await tokenFor(svc);
    const res = await form(
      '/oauth2/revoke',
      { token: issued.refreshToken!, token_type_hint: 'refresh_token' },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(res.status).toBe(200);
    const refresh = await tokenRequest(
      svc,
      { grant_type: 'refresh_token', refresh_token: issued.refreshToken! },
      { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    );
    expect(refresh.status).toBe(400);
    const unknown = await form('/oauth2/revoke', { token: 'no-such-token' }, basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET));
    expect(unknown.status).toBe(200);
  });

  test('another client cannot revoke a token it was not issued', async () => {
    const issued = await tokenFor(svc);
    const other = await newClient(svc, { grantTypes: ['password', 'refresh_token'] });
    const res = await form('/oauth2/revoke', { token: issued.refreshToken! }, basic(other.clientId, other.secret));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
    const refresh = await tokenRequest(
      svc,
      { grant_type: 'refresh_token', refresh_token: issued.refreshToken! },
      { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    );
    expect(refresh.status).toBe(200);
  });

  test('revocation needs client authentication', async () => {
    const res = await form('/oauth2/revoke', { token: 'x' }, basic(TEST_CLIENT_ID, 'wrong'));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
  });
});

describe('introspection (RFC 7662)', () => {
  test('an active refresh token is described; unknown and foreign tokens are inactive', async () => {
    const issued = await tokenFor(svc, { scopes: ['openid', 'offline_access', 'cart'] });
    const res = await form(
      '/oauth2/introspect',
      { token: issued.refreshToken! },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      active: true,
      sub: issued.customerId,
      client_id: TEST_CLIENT_ID,
      scope: 'openid offline_access cart',
      iss: svc.config.oauth.issuer,
    });
    const unknown = await form(
      '/oauth2/introspect',
      { token: 'no-such-token' },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(await unknown.json()).toEqual({ active: false });
    const other = await newClient(svc, { grantTypes: ['password'] });
    const foreign = await form(
      '/oauth2/introspect',
      { token: issued.refreshToken! },
      basic(other.clientId, other.secret),
    );
    expect(await foreign.json()).toEqual({ active: false });
  });

  test('a JWT access token is introspected truthfully: active with its claims, then inactive once revoked', async () => {
    const issued = await tokenFor(svc, { scopes: ['openid', 'offline_access', 'cart'] });
    const res = await form(
      '/oauth2/introspect',
      { token: issued.accessToken },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      active: true,
      sub: issued.customerId,
      client_id: TEST_CLIENT_ID,
      scope: 'openid offline_access cart',
      token_type: 'Bearer',
      aud: svc.config.oauth.audience,
    });
    expect(body.exp).toBe(jwtClaims(issued.accessToken).exp);

    const other = await newClient(svc, { grantTypes: ['password'] });
    const foreign = await form(
      '/oauth2/introspect',
      { token: issued.accessToken },
      basic(other.clientId, other.secret),
    );
    expect(await foreign.json()).toEqual({ active: false });

    const revoked = await form(
      '/oauth2/revoke',
      { token: issued.accessToken, token_type_hint: 'access_token' },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(revoked.status).toBe(200);
    const after = await form(
      '/oauth2/introspect',
      { token: issued.accessToken },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(await after.json()).toEqual({ active: false });
    const bearerUse = await svc.gql('{ service { version } }', undefined, {
      authorization: `Bearer ${issued.accessToken}`,
    });
    expect(bearerUse.status).toBe(401);
  });

  test('a forged or foreign JWT is inactive (200), never an error', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'at+jwt', kid: 'x' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ jti: 'guess', sub: 'x' })).toString('base64url');
    const res = await form(
      '/oauth2/introspect',
      { token: `${header}.${payload}.c2ln` },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ active: false });
    const revoke = await form(
      '/oauth2/revoke',
      { token: `${header}.${payload}.c2ln` },
      basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
    );
    expect(revoke.status).toBe(200);
  });
});

describe('keys', () => {
  test('generated once per database and kept in the store: loading again gives the same keys', async () => {
    const log = createLogger('silent');
    const first = await loadKeys(svc.config, svc.store, log);
    const second = await loadKeys(svc.config, svc.store, log);
    expect(second.jwks.keys.map((k) => k.kid)).toEqual(first.jwks.keys.map((k) => k.kid));
    expect(second.cookieKeys).toEqual(first.cookieKeys);
  });

  test('keys from the environment win over the store', async () => {
    const log = createLogger('silent');
    const stored = await loadKeys(svc.config, svc.store, log);
    const config = {
      ...svc.config,
      oauth: {
        ...svc.config.oauth,
        jwks: JSON.stringify({ keys: [stored.jwks.keys[0]] }),
        cookieKeys: ['k'.repeat(40)],
      },
    };
    const fromEnv = await loadKeys(config, svc.store, log);
    expect(fromEnv.jwks.keys).toHaveLength(1);
    expect(fromEnv.cookieKeys).toEqual(['k'.repeat(40)]);
  });
});

test('the provider prints no warnings or notices: not at start, not while serving', async () => {
  const warn = jest.spyOn(console, 'warn');
  const info = jest.spyOn(console, 'info');
  const log = jest.spyOn(console, 'log');
  try {
    const fresh = await startTestService();
    try {
      await tokenFor(fresh);
      await fetch(`${fresh.url}/oauth2/.well-known/openid-configuration`);
      await fetch(`${fresh.url}/oauth2/jwks`);
      await fetch(`${fresh.url}/oauth2/authorize?client_id=nope`, { redirect: 'manual' });
      const issued = await tokenFor(fresh);
      await form(
        '/oauth2/introspect',
        { token: issued.refreshToken! },
        basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
        fresh,
      );
      await form('/oauth2/revoke', { token: issued.refreshToken! }, basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET), fresh);
      await tokenRequest(
        fresh,
        { grant_type: 'password', username: 'x@example.test', password: 'wrong' },
        { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
      );
    } finally {
      await fresh.close();
    }
    const printed = [...warn.mock.calls, ...info.mock.calls, ...log.mock.calls].map((c) => c.map(String).join(' '));
    expect(printed.filter((line) => line.includes('oidc-provider'))).toEqual([]);
  } finally {
    warn.mockRestore();
    info.mockRestore();
    log.mockRestore();
  }
});
