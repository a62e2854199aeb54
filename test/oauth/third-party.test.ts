// Third-party sign-in through the password grant: the test is the identity provider, serving its own
// JWKS on loopback and signing ID tokens; the service verifies them against the configured issuer,
// audience and JWKS address, and finds, links or creates the customer.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, INVALID_REQUEST, jwtClaims, tokenRequest } from './support.js';

const GOOGLE = { issuer: 'https://accounts.google.test', audience: 'google-web-client' };
const APPLE = { issuer: 'https://appleid.apple.test', audience: 'com.example.app' };

let svc: TestService;
let idp: Server;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair('RS256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
  idp = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  svc = await startTestService({
    env: {
      LOGIN_MAX_FAILURES_PER_IP: '1000',
      GOOGLE_ISSUER: GOOGLE.issuer,
      GOOGLE_AUDIENCE: `${GOOGLE.audience},google-ios-client`,
      GOOGLE_JWKS_URI: `${base}/google/jwks`,
      APPLE_ISSUER: APPLE.issuer,
      APPLE_AUDIENCE: APPLE.audience,
      APPLE_JWKS_URI: `${base}/apple/keys`,
    },
  });
  await ensureTestClient(svc);
});
afterAll(async () => {
  await svc?.close();
  await new Promise((resolve) => idp?.close(resolve));
});

async function idToken(
  claims: Record<string, unknown>,
  opts: { issuer?: string; audience?: string; expiresIn?: string | number; key?: CryptoKey; kid?: string } = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? 'idp-key-1' })
    .setIssuer(opts.issuer ?? GOOGLE.issuer)
    .setAudience(opts.audience ?? GOOGLE.audience)
    .setIssuedAt()
    .setExpirationTime(opts.expiresIn ?? '5m')
    .sign(opts.key ?? signingKey);
}

const signIn = (provider: string, token: string, extra: Record<string, unknown> = {}) =>
  tokenRequest(
    svc,
    {
      grant_type: 'password',
      username: provider,
      password: JSON.stringify({ token, source: 'web', ...extra }),
      scope: 'openid email profile cart',
    },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );

test('a valid Google ID token signs in: a customer is created with the verified e-mail and linked by subject', async () => {
  const token = await idToken({
    sub: 'g-100',
    email: 'New.Person@Gmail.test',
    email_verified: true,
    name: 'New Person',
  });
  const res = await signIn('google', token);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ token_type: 'Bearer', scope: 'openid email profile cart' });
  const sub = String(jwtClaims(String(res.body.access_token)).sub);
  const customer = await svc.store.collection('customers').findOne({ _id: sub });
  expect(customer).toMatchObject({ email: 'new.person@gmail.test', emailVerified: true, name: 'New Person' });
  expect(customer!.identities).toEqual([expect.objectContaining({ provider: 'google', subject: 'g-100' })]);
  expect(customer!.passwordHash).toBeUndefined();

  // The same subject again (another audience of the same provider) is the same customer.
  const again = await signIn(
    'google',
    await idToken(
      { sub: 'g-100', email: 'new.person@gmail.test', email_verified: true },
      { audience: 'google-ios-client' },
    ),
  );
  expect(again.status).toBe(200);
  expect(jwtClaims(String(again.body.access_token)).sub).toBe(sub);
});

test("a verified e-mail of an existing password account links only with that account's password", async () => {
  const existing = await ensureCustomer(svc, { email: 'linked@example.test' });
  const token = await idToken({ sub: 'g-200', email: 'linked@example.test', email_verified: true });
  const customerDoc = () => svc.store.collection('customers').findOne({ _id: existing.customerId });

  // No proof: 400 invalid_grant telling the client to ask for it; nothing linked, nobody created.
  const bare = await signIn('google', token);
  expect(bare.status).toBe(400);
  expect(bare.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST, link_required: true });
  expect((await customerDoc())!.identities ?? []).toEqual([]);
  expect(await svc.store.collection('customers').countDocuments({ email: 'linked@example.test' })).toBe(1);

  const wrong = await signIn('google', token, { password: 'not-the-password' });
  expect(wrong.status).toBe(400);
  expect(wrong.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  expect((await customerDoc())!.identities ?? []).toEqual([]);

  const res = await signIn('google', token, { password: existing.password });
  expect(res.status).toBe(200);
  expect(jwtClaims(String(res.body.access_token)).sub).toBe(existing.customerId);
  expect((await customerDoc())!.identities).toEqual([
    expect.objectContaining({ provider: 'google', subject: 'g-200' }),
  ]);
  // Once linked, the identity signs in by itself; the password still works too.
  const later = await signIn(
    'google',
    await idToken({ sub: 'g-200', email: 'linked@example.test', email_verified: true }),
  );
  expect(later.status).toBe(200);
  const pw = await tokenRequest(
    svc,
    { grant_type: 'password', username: existing.email, password: existing.password },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );
  expect(pw.status).toBe(200);
});

test("a one-time code sent to the account's address is proof enough to link", async () => {
  const existing = await ensureCustomer(svc, { email: 'linked-by-code@example.test' });
  const before = new Date();
  const asked = await fetch(`${svc.url}/oauth2/otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: TEST_CLIENT_ID, username: existing.email }),
  });
  expect(asked.status).toBe(202);
  let code: string | undefined;
  for (let i = 0; i < 250 && !code; i++) {
    const mail = await svc.store.collection('outbox').findOne({ to: existing.email, createdAt: { $gte: before } });
    code = mail ? /\b(\d{6})\b/.exec(mail.text)![1] : undefined;
    if (!code) await new Promise((r) => setTimeout(r, 20));
  }
  const res = await signIn('google', await idToken({ sub: 'g-201', email: existing.email, email_verified: true }), {
    code: code!,
  });
  expect(res.status).toBe(200);
  expect(jwtClaims(String(res.body.access_token)).sub).toBe(existing.customerId);
});

test('a verified e-mail of an account without a password (made by another provider) links without more', async () => {
  const first = await signIn(
    'google',
    await idToken({ sub: 'g-202', email: 'no-password@example.test', email_verified: true }),
  );
  const apple = await signIn(
    'apple',
    await idToken(
      { sub: 'a-202', email: 'no-password@example.test', email_verified: true },
      { issuer: APPLE.issuer, audience: APPLE.audience },
    ),
  );
  expect(apple.status).toBe(200);
  expect(jwtClaims(String(apple.body.access_token)).sub).toBe(jwtClaims(String(first.body.access_token)).sub);
});

test('email_verified as the string "true" counts for Apple only: from Google it is unverified and links nothing', async () => {
  const existing = await ensureCustomer(svc, { email: 'string-true@example.test' });
  const res = await signIn(
    'google',
    await idToken({ sub: 'g-203', email: 'string-true@example.test', email_verified: 'true' }),
    { password: existing.password },
  );
  expect(res.status).toBe(200);
  const sub = String(jwtClaims(String(res.body.access_token)).sub);
  expect(sub).not.toBe(existing.customerId);
  expect((await svc.store.collection('customers').findOne({ _id: sub }))!.email).toBeUndefined();
});

test("identities are matched as provider and subject together: one customer's Apple subject is free as a Google subject", async () => {
  const first = await signIn(
    'google',
    await idToken({ sub: 's-1', email: 'two-ids@example.test', email_verified: true }),
  );
  const apple = await signIn(
    'apple',
    await idToken(
      { sub: 's-2', email: 'two-ids@example.test', email_verified: true },
      { issuer: APPLE.issuer, audience: APPLE.audience },
    ),
  );
  const owner = jwtClaims(String(first.body.access_token)).sub;
  expect(jwtClaims(String(apple.body.access_token)).sub).toBe(owner);
  const someoneElse = await signIn(
    'google',
    await idToken({ sub: 's-2', email: 'other-person@example.test', email_verified: true }),
  );
  expect(someoneElse.status).toBe(200);
  expect(jwtClaims(String(someoneElse.body.access_token)).sub).not.toBe(owner);
});

test('an unverified e-mail never takes over an existing account: a separate customer is created', async () => {
  const existing = await ensureCustomer(svc, { email: 'victim@example.test' });
  const res = await signIn(
    'google',
    await idToken({ sub: 'g-300', email: 'victim@example.test', email_verified: false }),
  );
  expect(res.status).toBe(200);
  const sub = String(jwtClaims(String(res.body.access_token)).sub);
  expect(sub).not.toBe(existing.customerId);
  const created = await svc.store.collection('customers').findOne({ _id: sub });
  expect(created!.email).toBeUndefined();
});

test('Apple: e-mail_verified as the string "true", and the display name from the password JSON', async () => {
  const token = await idToken(
    { sub: 'apple-1', email: 'relay@privaterelay.apple.test', email_verified: 'true' },
    { issuer: APPLE.issuer, audience: APPLE.audience },
  );
  const res = await signIn('apple', token, { name: 'Ann Apple' });
  expect(res.status).toBe(200);
  const customer = await svc.store
    .collection('customers')
    .findOne({ _id: String(jwtClaims(String(res.body.access_token)).sub) });
  expect(customer).toMatchObject({ email: 'relay@privaterelay.apple.test', emailVerified: true, name: 'Ann Apple' });
});

test.each([
  ['signed by a key the provider does not publish', () => idToken({ sub: 'x' }, { key: strangerKey })],
  ['signed by an unknown key id', () => idToken({ sub: 'x' }, { key: strangerKey, kid: 'other-key' })],
  ['expired', () => idToken({ sub: 'x' }, { expiresIn: Math.floor(Date.now() / 1000) - 3600 })],
  ['for another audience', () => idToken({ sub: 'x' }, { audience: 'someone-else' })],
  ['from another issuer', () => idToken({ sub: 'x' }, { issuer: 'https://evil.test' })],
  ['not a JWT at all', async () => 'garbage'],
])('an ID token %s is 400 invalid_grant', async (_label, make) => {
  const res = await signIn('google', await make());
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
});

test('a password that is not the JSON credential, and a provider that is not configured, are 400 invalid_grant', async () => {
  const notJson = await tokenRequest(
    svc,
    { grant_type: 'password', username: 'google', password: 'hunter2' },
    { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
  );
  expect(notJson.status).toBe(400);
  expect(notJson.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
  const facebook = await signIn('facebook', await idToken({ sub: 'fb-1' }));
  expect(facebook.status).toBe(400);
  expect(facebook.body).toEqual({ error: 'invalid_grant', error_description: INVALID_REQUEST });
});
