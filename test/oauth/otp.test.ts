// One-time codes (docs/api.md): POST /oauth2/otp always 202, the code arrives through the mailer
// (the outbox in development and tests), grant_type=otp exchanges it once, within 5 attempts.
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, INVALID_CLIENT, INVALID_REQUEST, jwtClaims, newClient, tokenRequest } from './support.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ env: { LOGIN_MAX_FAILURES_PER_IP: '1000', LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000' } });
  await ensureTestClient(svc);
});
afterAll(async () => {
  await svc?.close();
});

async function requestCode(
  body: unknown,
  contentType = 'application/json',
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(`${svc.url}/oauth2/otp`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body:
      contentType === 'application/json' ? JSON.stringify(body) : new URLSearchParams(body as Record<string, string>),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** The code from the newest mail to `to` (the mail is sent in the background: wait for it). */
async function codeMailedTo(to: string, after: Date): Promise<string> {
  for (let i = 0; i < 250; i++) {
    const mail = await svc.store
      .collection('outbox')
      .find({ to, createdAt: { $gte: after } })
      .sort({ createdAt: -1 })
      .limit(1)
      .next();
    if (mail) return /\b(\d{6})\b/.exec(mail.text)![1]!;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no mail to ${to}`);
}

/** The codes of the first `count` mails to `to` since `after`, once that many have arrived. */
async function codesMailedTo(to: string, after: Date, count: number): Promise<string[]> {
  for (let i = 0; i < 250; i++) {
    const mails = await svc.store
      .collection('outbox')
      .find({ to, createdAt: { $gte: after } })
      .toArray();
    if (mails.length >= count) return mails.map((m) => /\b(\d{6})\b/.exec(m.text)![1]!);
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`fewer than ${count} mails to ${to}`);
}

const otpGrant = (username: string, code: string) =>
  tokenRequest(
    svc,
    { grant_type: 'otp', username, code, scope: 'openid offline_access cart' },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );

test('request (JSON) -> 202, the code arrives by mail, the otp grant exchanges it for tokens', async () => {
  const customer = await ensureCustomer(svc, { email: 'otp-user@example.test' });
  const before = new Date();
  const res = await requestCode({ client_id: TEST_CLIENT_ID, username: 'OTP-User@example.test' });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ expires_in: 300 });
  const code = await codeMailedTo(customer.email, before);
  expect(code).toMatch(/^\d{6}$/);
  // Stored hashed: the code itself is nowhere in the store.
  const stored = await svc.store.collection('otp_codes').findOne({ email: customer.email });
  expect(stored).not.toBeNull();
  expect(JSON.stringify(stored)).not.toContain(code);

  const tokens = await otpGrant(customer.email, code);
  expect(tokens.status).toBe(200);
  expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'openid offline_access cart' });
  expect(typeof tokens.body.refresh_token).toBe('string');
  expect(jwtClaims(String(tokens.body.access_token)).sub).toBe(customer.customerId);

  // Single use.
  const again = await otpGrant(customer.email, code);
  expect(again.status).toBe(400);
  expect(again.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
});

test('a form-encoded request works too', async () => {
  const customer = await ensureCustomer(svc, {});
  const res = await requestCode(
    { client_id: TEST_CLIENT_ID, username: customer.email },
    'application/x-www-form-urlencoded',
  );
  expect(res.status).toBe(202);
});

test('an unknown address gets the same 202 and no mail; a guessed code for it is the usual invalid_grant', async () => {
  const before = new Date();
  const res = await requestCode({ client_id: TEST_CLIENT_ID, username: 'nobody-here@example.test' });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ expires_in: 300 });
  const guess = await otpGrant('nobody-here@example.test', '123456');
  expect(guess.status).toBe(400);
  expect(guess.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  expect(
    await svc.store
      .collection('outbox')
      .countDocuments({ to: 'nobody-here@example.test', createdAt: { $gte: before } }),
  ).toBe(0);
});

test('a wrong code is invalid_grant; after 5 attempts even the right code is refused', async () => {
  const customer = await ensureCustomer(svc, {});
  const before = new Date();
  await requestCode({ client_id: TEST_CLIENT_ID, username: customer.email });
  const code = await codeMailedTo(customer.email, before);
  const wrong = code === '000000' ? '111111' : '000000';
  for (let i = 0; i < 5; i++) {
    const res = await otpGrant(customer.email, wrong);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  }
  const right = await otpGrant(customer.email, code);
  expect(right.status).toBe(400);
  expect(right.body.error).toBe('invalid_grant');
});

test('an expired code is refused even before the TTL monitor removes it', async () => {
  const customer = await ensureCustomer(svc, {});
  const since = new Date();
  await requestCode({ client_id: TEST_CLIENT_ID, username: customer.email });
  const code = await codeMailedTo(customer.email, since);
  await svc.store
    .collection('otp_codes')
    .updateMany({ email: customer.email }, { $set: { expiresAt: new Date(Date.now() - 1000) } });
  const res = await otpGrant(customer.email, code);
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  const ttl = (await svc.store.collection('otp_codes').listIndexes().toArray()).find((i) => i.name === 'otp_codes_ttl');
  expect(ttl).toMatchObject({ key: { expiresAt: 1 }, expireAfterSeconds: 0 });
});

test('a new request never cancels a code already mailed: each live code works (once), and signing in spends them all', async () => {
  const customer = await ensureCustomer(svc, {});
  const since = new Date();
  await requestCode({ client_id: TEST_CLIENT_ID, username: customer.email });
  await codeMailedTo(customer.email, since);
  await requestCode({ client_id: TEST_CLIENT_ID, username: customer.email });
  const [first, second] = await codesMailedTo(customer.email, since, 2);
  expect(await svc.store.collection('otp_codes').countDocuments({ email: customer.email })).toBe(2);
  expect((await otpGrant(customer.email, first!)).status).toBe(200);
  // The sign-in spent the other code too.
  if (second !== first) expect((await otpGrant(customer.email, second!)).status).toBe(400);
  expect(await svc.store.collection('otp_codes').countDocuments({ email: customer.email })).toBe(0);
});

test('bad requests: malformed address 400 invalid_request, unknown client 401 invalid_client, client without the otp grant 400 unauthorized_client', async () => {
  const bad = await requestCode({ client_id: TEST_CLIENT_ID, username: 'not-an-email' });
  expect(bad.status).toBe(400);
  expect(bad.body).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
  const missing = await requestCode({ username: 'a@example.test' });
  expect(missing.status).toBe(400);
  const broken = await fetch(`${svc.url}/oauth2/otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{',
  });
  expect(broken.status).toBe(400);
  const unknown = await requestCode({ client_id: 'no-such-client', username: 'a@example.test' });
  expect(unknown.status).toBe(401);
  expect(unknown.body).toEqual({ error: 'invalid_client', error_description: INVALID_CLIENT });
  const { clientId } = await newClient(svc, { grantTypes: ['password'] });
  const notAllowed = await requestCode({ client_id: clientId, username: 'a@example.test' });
  expect(notAllowed.status).toBe(400);
  expect(notAllowed.body).toEqual({ error: 'unauthorized_client', error_description: INVALID_CLIENT });
});

test('the otp grant without a code or username is 400 invalid_request; a client without the grant is unauthorized_client', async () => {
  const res = await tokenRequest(
    svc,
    { grant_type: 'otp', username: 'a@example.test' },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
  const other = await newClient(svc, { grantTypes: ['password'] });
  const refused = await tokenRequest(
    svc,
    { grant_type: 'otp', username: 'a@example.test', code: '123456' },
    { headers: basic(other.clientId, other.secret) },
  );
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({ error: 'unauthorized_client', error_description: INVALID_CLIENT });
});
