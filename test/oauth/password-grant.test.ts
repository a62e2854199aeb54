// POST /oauth2/access_token with grant_type=password (docs/api.md): the success shape, client
// authentication both ways, a JSON body, and each documented failure with its status and body.
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, INVALID_CLIENT, INVALID_REQUEST, jwtClaims, newClient, tokenRequest } from './support.js';

let svc: TestService;
let customer: { customerId: string; email: string; password: string };

beforeAll(async () => {
  svc = await startTestService({ env: { LOGIN_MAX_FAILURES_PER_IP: '1000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000' } });
  await ensureTestClient(svc);
  customer = await ensureCustomer(svc, { email: 'Reader@Example.test', name: 'Rita Reader' });
});
afterAll(async () => {
  await svc?.close();
});

const auth = () => basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET);
const passwordParams = (extra: Record<string, string> = {}) => ({
  grant_type: 'password',
  username: customer.email,
  password: customer.password,
  ...extra,
});

test('200 with access_token, token_type Bearer, expires_in, refresh_token and scope; the access token is a JWT for the API', async () => {
  const res = await tokenRequest(svc, passwordParams({ scope: 'openid offline_access profile email cart' }), {
    headers: auth(),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toContain('no-store');
  expect(res.body).toMatchObject({
    token_type: 'Bearer',
    expires_in: 900,
    scope: 'openid offline_access profile email cart',
  });
  expect(typeof res.body.access_token).toBe('string');
  expect(typeof res.body.refresh_token).toBe('string');
  const claims = jwtClaims(String(res.body.access_token));
  expect(claims).toMatchObject({
    sub: customer.customerId,
    client_id: TEST_CLIENT_ID,
    aud: svc.config.oauth.audience,
    iss: svc.config.oauth.issuer,
    scope: 'openid offline_access profile email cart',
  });
  expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
  const idToken = jwtClaims(String(res.body.id_token));
  expect(idToken).toMatchObject({
    sub: customer.customerId,
    aud: TEST_CLIENT_ID,
    email: 'reader@example.test',
    name: 'Rita Reader',
  });
});

test('the e-mail is matched trimmed and case-insensitively', async () => {
  const res = await tokenRequest(svc, passwordParams({ username: '  READER@example.TEST ' }), { headers: auth() });
  expect(res.status).toBe(200);
});

test("without offline_access there is no refresh token; without a scope the client's registered scopes are granted", async () => {
  const narrow = await tokenRequest(svc, passwordParams({ scope: 'cart' }), { headers: auth() });
  expect(narrow.status).toBe(200);
  expect(narrow.body.refresh_token).toBeUndefined();
  expect(narrow.body.scope).toBe('cart');
  const all = await tokenRequest(svc, passwordParams(), { headers: auth() });
  expect(all.body.scope).toBe('openid offline_access profile email cart developer');
});

test('client_secret_post works as well as client_secret_basic', async () => {
  const res = await tokenRequest(svc, passwordParams({ client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET }));
  expect(res.status).toBe(200);
});

test('a JSON body with the same fields is accepted (legacy clients)', async () => {
  const res = await tokenRequest(
    svc,
    passwordParams({ client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET, scope: 'cart' }),
    { json: true },
  );
  expect(res.status).toBe(200);
  expect(res.body.scope).toBe('cart');
});

test('a JSON body that is not a flat object of fields is 400 invalid_request', async () => {
  const res = await fetch(`${svc.url}/oauth2/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth() },
    body: JSON.stringify({ grant_type: 'password', username: { $ne: '' }, password: 'x' }),
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
  const broken = await fetch(`${svc.url}/oauth2/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth() },
    body: '{"grant_type":',
  });
  expect(broken.status).toBe(400);
  expect(await broken.json()).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
});

test('wrong password and unknown account give the same 400 invalid_grant answer', async () => {
  const wrong = await tokenRequest(svc, passwordParams({ password: 'not-the-password' }), { headers: auth() });
  const unknown = await tokenRequest(svc, passwordParams({ username: 'nobody@example.test' }), { headers: auth() });
  for (const res of [wrong, unknown]) {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  }
});

test('a missing username or password is 400 invalid_request', async () => {
  const res = await tokenRequest(svc, { grant_type: 'password', username: customer.email }, { headers: auth() });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
});

test('wrong client secret, unknown client, and no client authentication for a confidential client are 401 invalid_client', async () => {
  const wrongSecret = await tokenRequest(svc, passwordParams(), { headers: basic(TEST_CLIENT_ID, 'wrong') });
  const unknown = await tokenRequest(svc, passwordParams(), { headers: basic('no-such-client', 'x') });
  const noSecret = await tokenRequest(svc, passwordParams({ client_id: TEST_CLIENT_ID }));
  for (const res of [wrongSecret, unknown, noSecret]) {
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_client', error_description: INVALID_CLIENT });
  }
});

test('a client not registered for the password grant is 400 unauthorized_client', async () => {
  const { clientId, secret } = await newClient(svc, { grantTypes: ['refresh_token', 'otp'] });
  const res = await tokenRequest(svc, passwordParams(), { headers: basic(clientId, secret) });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'unauthorized_client', error_description: INVALID_CLIENT });
});

test('an unknown grant type is 400 unsupported_grant_type', async () => {
  const res = await tokenRequest(svc, { grant_type: 'client_credentials' }, { headers: auth() });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'unsupported_grant_type', error_description: INVALID_REQUEST });
  const none = await tokenRequest(svc, {}, { headers: auth() });
  expect(none.status).toBe(400);
  expect(none.body).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
});

test('a scope beyond what the client is registered for is 400 invalid_scope', async () => {
  const { clientId, secret } = await newClient(svc, { grantTypes: ['password'], scopes: ['openid', 'email'] });
  const res = await tokenRequest(svc, passwordParams({ scope: 'openid cart' }), { headers: basic(clientId, secret) });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'invalid_scope', error_description: INVALID_REQUEST });
});

test('the token endpoint answers JSON errors whatever the Accept header says', async () => {
  const res = await tokenRequest(svc, passwordParams({ password: 'nope' }), {
    headers: { ...auth(), accept: 'text/html' },
  });
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(res.body.error).toBe('invalid_grant');
});

test('a username of thousands of characters is 400 invalid_grant (password and otp grants), and nothing of it is stored', async () => {
  const long = `${'x'.repeat(3000)}@example.test`;
  const password = await tokenRequest(svc, passwordParams({ username: long, password: 'nope' }), { headers: auth() });
  expect(password.status).toBe(400);
  expect(password.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  const otp = await tokenRequest(svc, { grant_type: 'otp', username: long, code: '123456' }, { headers: auth() });
  expect(otp.status).toBe(400);
  expect(otp.body.error).toBe('invalid_grant');
  // The failure counters key on digests, not on what was typed.
  const counters = await svc.store.collection('login_failures').find({}).toArray();
  expect(counters.length).toBeGreaterThan(0);
  expect(counters.filter((c) => String(c.key).includes('xxxxxxxx') || String(c.key).includes('@'))).toEqual([]);
  expect((await tokenRequest(svc, passwordParams(), { headers: auth() })).status).toBe(200);
});
