// grant_type=refresh_token: rotation on every use, the grace window in which a retry gets the same
// successor, and reuse after that revoking the whole grant and its access tokens (RFC 9700 §4.14.2).
import { startTestService, type TestService } from '../helpers/service.js';
import { tokenFor, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, INVALID_REQUEST, jwtClaims, newClient, tokenRequest } from './support.js';

let svc: TestService;
let strict: TestService;

beforeAll(async () => {
  svc = await startTestService();
  strict = await startTestService({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } });
});
afterAll(async () => {
  await svc?.close();
  await strict?.close();
});

const refresh = (service: TestService, refreshToken: string, extra: Record<string, string> = {}) =>
  tokenRequest(
    service,
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );

test('a refresh returns a new access token and a new refresh token (rotation), same subject and scope', async () => {
  const first = await tokenFor(svc, { scopes: ['openid', 'offline_access', 'cart'] });
  const res = await refresh(svc, first.refreshToken!);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'openid offline_access cart' });
  expect(res.body.refresh_token).not.toBe(first.refreshToken);
  expect(res.body.access_token).not.toBe(first.accessToken);
  expect(jwtClaims(String(res.body.access_token))).toMatchObject({
    sub: first.customerId,
    aud: svc.config.oauth.audience,
  });
  // The rotated token keeps working.
  const again = await refresh(svc, String(res.body.refresh_token));
  expect(again.status).toBe(200);
});

test('a refresh may narrow the scope, never widen it', async () => {
  const first = await tokenFor(svc, { scopes: ['openid', 'offline_access', 'cart'] });
  const narrowed = await refresh(svc, first.refreshToken!, { scope: 'cart' });
  expect(narrowed.status).toBe(200);
  expect(narrowed.body.scope).toBe('cart');
  const widened = await refresh(svc, String(narrowed.body.refresh_token), { scope: 'cart email' });
  expect(widened.status).toBe(400);
  expect(widened.body).toEqual({ error: 'invalid_scope', error_description: INVALID_REQUEST });
});

test('a retry inside the grace window is idempotent: the same successor refresh token, however often', async () => {
  const first = await tokenFor(svc);
  const [a, b] = await Promise.all([refresh(svc, first.refreshToken!), refresh(svc, first.refreshToken!)]);
  expect(a.status).toBe(200);
  expect(b.status).toBe(200);
  expect(b.body.refresh_token).toBe(a.body.refresh_token);
  const c = await refresh(svc, first.refreshToken!);
  expect(c.status).toBe(200);
  expect(c.body.refresh_token).toBe(a.body.refresh_token);
  // The one successor carries on.
  const next = await refresh(svc, String(a.body.refresh_token));
  expect(next.status).toBe(200);
});

test('once the successor has been used, a replay of its predecessor revokes the grant and its access tokens', async () => {
  const first = await tokenFor(svc);
  const a = await refresh(svc, first.refreshToken!);
  expect(a.status).toBe(200);
  const b = await refresh(svc, String(a.body.refresh_token));
  expect(b.status).toBe(200);
  const replay = await refresh(svc, first.refreshToken!);
  expect(replay.status).toBe(400);
  expect(replay.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  // Every token of the grant is gone, including the ones the legitimate rotations produced.
  for (const token of [String(a.body.refresh_token), String(b.body.refresh_token)]) {
    const res = await refresh(svc, token);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  }
  for (const accessToken of [first.accessToken, String(a.body.access_token), String(b.body.access_token)]) {
    const res = await svc.gql('{ service { version } }', undefined, { authorization: `Bearer ${accessToken}` });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('revoked');
  }
});

test('without a grace window, the second use of a rotated token already revokes the grant', async () => {
  const first = await tokenFor(strict);
  const rotated = await refresh(strict, first.refreshToken!);
  expect(rotated.status).toBe(200);
  const replay = await refresh(strict, first.refreshToken!);
  expect(replay.status).toBe(400);
  expect(replay.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  const afterRevocation = await refresh(strict, String(rotated.body.refresh_token));
  expect(afterRevocation.status).toBe(400);
});

test('concurrent refreshes without a grace window: exactly one wins', async () => {
  const first = await tokenFor(strict);
  const results = await Promise.all([
    refresh(strict, first.refreshToken!),
    refresh(strict, first.refreshToken!),
    refresh(strict, first.refreshToken!),
  ]);
  expect(results.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of results.filter((x) => x.status !== 200))
    expect(r.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
});

test("an unknown refresh token, a missing one, and another client's are 400", async () => {
  const unknown = await refresh(svc, 'not-a-real-token');
  expect(unknown.status).toBe(400);
  expect(unknown.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  const missing = await tokenRequest(
    svc,
    { grant_type: 'refresh_token' },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );
  expect(missing.status).toBe(400);
  expect(missing.body).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
  const first = await tokenFor(svc);
  const other = await newClient(svc, { grantTypes: ['password', 'refresh_token'] });
  const stolen = await tokenRequest(
    svc,
    { grant_type: 'refresh_token', refresh_token: first.refreshToken! },
    { headers: basic(other.clientId, other.secret) },
  );
  expect(stolen.status).toBe(400);
  expect(stolen.body.error).toBe('invalid_grant');
});
