// RFC details an outside client relies on, driven with openid-client (the certified relying-party
// library) where it has a call for it: resource indicators on the first-party grants (RFC 8707 §2),
// revocation of another client's token (RFC 7009 §2.1), and the bearer challenges (RFC 6750 §3.1).
import * as oidc from 'openid-client';
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, tokenFor, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, INVALID_REQUEST, newClient, relyingParty, tokenRequest } from './support.js';

let svc: TestService;
let rp: oidc.Configuration;

beforeAll(async () => {
  svc = await startTestService({ env: { LOGIN_MAX_FAILURES_PER_IP: '1000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000' } });
  await ensureTestClient(svc);
  rp = await relyingParty(svc, TEST_CLIENT_ID, TEST_CLIENT_SECRET);
});
afterAll(async () => {
  await svc?.close();
});

const oauthError = async (promise: Promise<unknown>): Promise<{ error: string; status: number }> => {
  try {
    await promise;
  } catch (err) {
    const e = err as { error?: string; status?: number; cause?: { status?: number } };
    return { error: String(e.error), status: Number(e.status ?? e.cause?.status) };
  }
  throw new Error('expected an OAuth error');
};

describe('RFC 8707: resource on the password and otp grants', () => {
  test('password grant: another resource is invalid_target, the API itself is accepted', async () => {
    const customer = await ensureCustomer(svc, {});
    const evil = await oauthError(
      oidc.genericGrantRequest(rp, 'password', {
        username: customer.email,
        password: customer.password,
        resource: 'http://evil.example/',
      }),
    );
    expect(evil).toEqual({ error: 'invalid_target', status: 400 });
    const own = await oidc.genericGrantRequest(rp, 'password', {
      username: customer.email,
      password: customer.password,
      resource: svc.config.oauth.audience,
    });
    expect(typeof own.access_token).toBe('string');
  });

  test('password grant: two resources (even both the API) are invalid_target', async () => {
    const customer = await ensureCustomer(svc, {});
    const params = new URLSearchParams({
      grant_type: 'password',
      username: customer.email,
      password: customer.password,
    });
    params.append('resource', svc.config.oauth.audience);
    params.append('resource', 'http://evil.example/');
    const res = await fetch(`${svc.url}/oauth2/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
      body: params,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'invalid_target', error_description: INVALID_REQUEST });
  });

  test('otp grant: another resource is invalid_target before the code is looked at', async () => {
    const res = await tokenRequest(
      svc,
      { grant_type: 'otp', username: 'someone@example.test', code: '123456', resource: 'http://evil.example/' },
      { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_target', error_description: INVALID_REQUEST });
  });
});

describe("RFC 7009 §2.1: revocation of another client's token", () => {
  test('is refused (400 invalid_request) and the token keeps working', async () => {
    const issued = await tokenFor(svc);
    const other = await newClient(svc, { grantTypes: ['password', 'refresh_token'] });
    const otherRp = await relyingParty(svc, other.clientId, other.secret);
    expect(await oauthError(oidc.tokenRevocation(otherRp, issued.refreshToken!))).toEqual({
      error: 'invalid_request',
      status: 400,
    });
    const refreshed = await oidc.refreshTokenGrant(rp, issued.refreshToken!);
    expect(typeof refreshed.access_token).toBe('string');
  });
});

describe('RFC 6750 §3.1 challenges on a route that needs a token', () => {
  const removeCoupon = (headers: Record<string, string>) =>
    fetch(`${svc.url}/cms/customer/coupon/remove`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ cartId: 'cart-1', couponCode: 'X' }),
    });

  test('no credentials: 401 with a challenge and no error code', async () => {
    const res = await removeCoupon({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('another scheme (Basic) counts as no credentials: 401 with no error code', async () => {
    const res = await removeCoupon({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('GraphQL: a Basic header on a public query is refused like one on a route that needs a token', async () => {
    const res = await svc.gql('{ service { version } }', undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  test('a bad bearer token: 401 invalid_token', async () => {
    const res = await removeCoupon({ authorization: 'Bearer not.a.jwt' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="api", error="invalid_token"/);
  });
});
