// The bearer check on REST and GraphQL (docs/api.md): real tokens from the token endpoint give a
// viewer (premium articles open with an entitlement); bad, expired, foreign or mis-addressed tokens are
// 401 with WWW-Authenticate; a token without the needed scope is 403.
import { generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { hasEntitlement } from '../../src/context.js';
import { AppError } from '../../src/errors.js';
import { createLogger } from '../../src/logger.js';
import { bearerAuthenticator } from '../../src/oauth/bearer.js';
import { loadKeys } from '../../src/oauth/keys.js';
import { requireScope } from '../../src/oauth/scopes.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';
import * as f from '../content/fixtures.js';

let svc: TestService;
const future = new Date(Date.now() + 30 * 86_400_000);
const past = new Date(Date.now() - 86_400_000);

beforeAll(async () => {
  svc = await startTestService();
  await f.insert(svc.db, {
    pages: [f.page('p-1')],
    articles: [
      f.article('a-premium', {
        premium: true,
        free: false,
        accessControlEnabled: true,
        previewLimit: 7,
        preview: 'Preview text longer than seven',
        body: '<p>secret</p>',
      }),
    ],
  });
});
afterAll(async () => {
  await svc?.close();
});

const premiumQuery = `{ article(id: "a-premium") { accessAllowed body preview } }`;

describe('premium articles with real tokens', () => {
  test('anonymous: no body, preview cut to the limit', async () => {
    const res = await svc.gql(premiumQuery);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ article: { accessAllowed: false, body: null, preview: 'Preview' } });
  });

  test('a customer with an active subscription entitlement reads the whole article', async () => {
    const { accessToken } = await tokenFor(svc, { entitlements: [{ group: 'subscription', validUntil: future }] });
    const res = await svc.gql(premiumQuery, undefined, bearer(accessToken));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      article: { accessAllowed: true, body: '<p>secret</p>', preview: 'Preview text longer than seven' },
    });
  });

  test('a customer without an entitlement, or with an expired one, gets the preview only', async () => {
    for (const entitlements of [
      [],
      [{ group: 'subscription', validUntil: past }],
      [{ group: 'gold', validUntil: null }],
    ]) {
      const { accessToken } = await tokenFor(svc, { entitlements });
      const res = await svc.gql(premiumQuery, undefined, bearer(accessToken));
      expect(res.body.data).toEqual({ article: { accessAllowed: false, body: null, preview: 'Preview' } });
    }
  });

  test('entitlements are read when asked, not baked into the token: a new purchase counts at once', async () => {
    const issued = await tokenFor(svc, { entitlements: [] });
    await svc.store
      .collection('customers')
      .updateOne({ _id: issued.customerId }, { $set: { entitlements: [{ group: 'subscription', validUntil: null }] } });
    const res = await svc.gql(premiumQuery, undefined, bearer(issued.accessToken));
    expect(res.body.data).toEqual({
      article: { accessAllowed: true, body: '<p>secret</p>', preview: 'Preview text longer than seven' },
    });
  });
});

/** The provider's own private keys, to forge tokens that differ from real ones in one claim only. */
async function providerKey(): Promise<{ key: CryptoKey; kid: string }> {
  const doc = await svc.store.collection('settings').findOne({ _id: 'oauth.keys' });
  const jwk = (doc!.value as { jwks: { keys: JWK[] } }).jwks.keys.find((k) => k.alg === 'ES256')!;
  return { key: (await importJWK(jwk, 'ES256')) as CryptoKey, kid: jwk.kid! };
}

async function forge(
  overrides: { iss?: string; aud?: string; exp?: number; typ?: string; key?: CryptoKey; kid?: string } = {},
): Promise<string> {
  const own = await providerKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'openid cart', client_id: 'test-first-party' })
    .setProtectedHeader({ alg: 'ES256', typ: overrides.typ ?? 'at+jwt', kid: overrides.kid ?? own.kid })
    .setSubject('cus_forged')
    .setIssuer(overrides.iss ?? svc.config.oauth.issuer)
    .setAudience(overrides.aud ?? svc.config.oauth.audience)
    .setIssuedAt(now - 60)
    .setExpirationTime(overrides.exp ?? now + 600)
    .sign(overrides.key ?? own.key);
}

describe('rejected tokens', () => {
  test("a token signed with the provider's key and right claims is accepted (the forging works)", async () => {
    const res = await svc.gql(premiumQuery, undefined, bearer(await forge()));
    expect(res.status).toBe(200);
  });

  const cases: Array<[string, () => Promise<string>]> = [
    [
      'signed by an unknown key',
      async () => forge({ key: (await generateKeyPair('ES256')).privateKey, kid: 'stranger' }),
    ],
    ['signed by an unknown key under our kid', async () => forge({ key: (await generateKeyPair('ES256')).privateKey })],
    ['for another audience', () => forge({ aud: 'https://other-api.example/' })],
    ['from another issuer', () => forge({ iss: 'https://other-issuer.example' })],
    ['expired', () => forge({ exp: Math.floor(Date.now() / 1000) - 120 })],
    ['that is an ID token, not an access token', () => forge({ typ: 'JWT' })],
    ['that is not a JWT', async () => 'not.a.jwt'],
  ];

  test.each(cases)('GraphQL: a token %s is 401 UNAUTHENTICATED with WWW-Authenticate', async (_label, make) => {
    const res = await svc.gql(premiumQuery, undefined, bearer(await make()));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="api", error="invalid_token"/);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(res.body.data).toBeUndefined();
  });

  test('an expired token says so', async () => {
    const res = await svc.gql(
      premiumQuery,
      undefined,
      bearer(await forge({ exp: Math.floor(Date.now() / 1000) - 120 })),
    );
    expect(res.headers.get('www-authenticate')).toContain('expired');
  });

  test('REST: a bad token on a public route is 401 problem+json with WWW-Authenticate', async () => {
    const res = await fetch(`${svc.url}/cms/product/categories`, { headers: bearer('not.a.jwt') });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(await res.json()).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  test('another scheme than Bearer is refused, not read as anonymous: 401 with a challenge without an error code (RFC 6750 §3.1)', async () => {
    const res = await svc.gql(premiumQuery, undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(res.body.data).toBeUndefined();
  });
});

describe('scopes', () => {
  test('REST: the cart route without a token is 401, with a token lacking `cart` is 403 insufficient_scope', async () => {
    const body = JSON.stringify({ cartId: 'cart-1', couponCode: 'X' });
    const anonymous = await fetch(`${svc.url}/cms/customer/coupon/remove`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const { accessToken } = await tokenFor(svc, { scopes: ['openid', 'email'] });
    const noScope = await fetch(`${svc.url}/cms/customer/coupon/remove`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', ...bearer(accessToken) },
      body,
    });
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get('www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="cart"',
    );
    expect(await noScope.json()).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });

  test('requireScope: no viewer 401, viewer without the scope 403, with it the viewer', async () => {
    const viewer = { customerId: 'c', scopes: new Set(['openid', 'cart']), entitlements: async () => [] };
    expect(() => requireScope({ viewer: null }, 'cart')).toThrow(
      expect.objectContaining({ status: 401 }) as unknown as AppError,
    );
    expect(() => requireScope({ viewer }, 'email')).toThrow(
      expect.objectContaining({ status: 403 }) as unknown as AppError,
    );
    expect(requireScope({ viewer }, 'cart')).toBe(viewer);
  });

  test("the viewer carries the token's scopes and client; entitlements load once per request", async () => {
    const issued = await tokenFor(svc, {
      scopes: ['openid', 'cart'],
      entitlements: [{ group: 'subscription', validUntil: null }],
    });
    const keys = await loadKeys(svc.config, svc.store, createLogger('silent'));
    const authenticate = bearerAuthenticator({ config: svc.config, store: svc.store, keys });
    const viewer = await authenticate(`Bearer ${issued.accessToken}`);
    expect(viewer).toMatchObject({ customerId: issued.customerId, clientId: issued.clientId });
    expect([...viewer!.scopes]).toEqual(['openid', 'cart']);
    const [a, b] = await Promise.all([viewer!.entitlements(), viewer!.entitlements()]);
    expect(a).toBe(b);
    expect(await hasEntitlement(viewer, ['subscription'], new Date())).toBe(true);
  });
});
