// Lockout without lockout abuse (OWASP device cookies) and one-time codes nobody else can cancel. The
// service trusts one proxy, so X-Forwarded-For stands for the client address: the owner and the
// attackers come from different addresses.
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { Browser, formAction } from './browser-flow.js';
import { basic, newClient, pkcePair, tokenRequest } from './support.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    env: {
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
      LOGIN_MAX_FAILURES_PER_IP: '1000',
      LOGIN_MAX_UNKNOWN_DEVICE_FAILURES_PER_ACCOUNT: '6',
      OTP_MAX_REQUESTS_PER_ADDRESS: '6',
    },
  });
  await ensureTestClient(svc);
});
afterAll(async () => {
  await svc?.close();
});

const from = (ip: string) => ({ ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET), 'x-forwarded-for': ip });
const signIn = (email: string, password: string, ip: string, deviceToken?: string) =>
  tokenRequest(
    svc,
    { grant_type: 'password', username: email, password, ...(deviceToken ? { device_token: deviceToken } : {}) },
    { headers: from(ip) },
  );

describe('password sign-in', () => {
  test('a success answers a device token', async () => {
    const owner = await ensureCustomer(svc, {});
    const res = await signIn(owner.email, owner.password, '198.51.100.1');
    expect(res.status).toBe(200);
    expect(res.body.device_token).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  test("one attacker's guesses lock out that attacker's address only: the owner elsewhere signs in", async () => {
    const owner = await ensureCustomer(svc, {});
    for (let i = 0; i < 3; i++) expect((await signIn(owner.email, 'guess', '203.0.113.10')).status).toBe(400);
    expect((await signIn(owner.email, owner.password, '203.0.113.10')).status).toBe(429);
    expect((await signIn(owner.email, owner.password, '198.51.100.2')).status).toBe(200);
  });

  test("a distributed attack slows unknown devices down; the owner's known device keeps signing in", async () => {
    const owner = await ensureCustomer(svc, {});
    const known = String((await signIn(owner.email, owner.password, '198.51.100.3')).body.device_token);
    // Six failures from six addresses: the account's ceiling for unknown devices.
    for (let i = 0; i < 6; i++) expect((await signIn(owner.email, 'guess', `203.0.113.${20 + i}`)).status).toBe(400);
    const unknownDevice = await signIn(owner.email, owner.password, '198.51.100.4');
    expect(unknownDevice.status).toBe(429);
    expect(Number(unknownDevice.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner's device, from a new address even.
    expect((await signIn(owner.email, owner.password, '198.51.100.5', known)).status).toBe(200);
  });

  test('a device token works only for the account it was issued for, and cannot be forged', async () => {
    const owner = await ensureCustomer(svc, {});
    const other = await ensureCustomer(svc, {});
    const othersToken = String((await signIn(other.email, other.password, '198.51.100.6')).body.device_token);
    for (let i = 0; i < 6; i++) await signIn(owner.email, 'guess', `203.0.113.${40 + i}`);
    expect((await signIn(owner.email, owner.password, '198.51.100.7', othersToken)).status).toBe(429);
    const [id] = othersToken.split('.');
    expect(
      (await signIn(owner.email, owner.password, '198.51.100.7', `${id}.forgedmacforgedmacforgedmacforged`)).status,
    ).toBe(429);
  });

  test('failures with a known device count against that device only', async () => {
    const owner = await ensureCustomer(svc, {});
    const device = String((await signIn(owner.email, owner.password, '198.51.100.8')).body.device_token);
    for (let i = 0; i < 3; i++) expect((await signIn(owner.email, 'typo', '198.51.100.8', device)).status).toBe(400);
    expect((await signIn(owner.email, owner.password, '198.51.100.8', device)).status).toBe(429);
    // The same address without the device token is its own count.
    expect((await signIn(owner.email, owner.password, '198.51.100.8')).status).toBe(200);
  });
});

describe('parallel attempts', () => {
  test('parallel wrong guesses cannot pass the limit together: exactly the allowed number is checked', async () => {
    const owner = await ensureCustomer(svc, {});
    const answers = await Promise.all(Array.from({ length: 12 }, () => signIn(owner.email, 'guess', '203.0.113.200')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 400)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
    // The refused attempts were not counted: the owner elsewhere is not locked out by them.
    expect((await signIn(owner.email, owner.password, '198.51.100.30')).status).toBe(200);
  });

  test("successes do not use up the address's or the account's allowance", async () => {
    const owner = await ensureCustomer(svc, {});
    // Eight successes from unknown devices: more than the account-wide ceiling for failures (6).
    for (let i = 0; i < 8; i++)
      expect((await signIn(owner.email, owner.password, `198.51.100.${40 + i}`)).status).toBe(200);
    expect((await signIn(owner.email, 'typo', '198.51.100.60')).status).toBe(400);
  });
});

describe('the sign-in page', () => {
  test('a browser that signed in keeps a device cookie and gets through an account-wide lock', async () => {
    const owner = await ensureCustomer(svc, {});
    const spa = await newClient(svc, {
      kind: 'public',
      grantTypes: ['authorization_code'],
      redirectUris: ['http://localhost:8080/cb'],
    });
    const authorize = () =>
      `/oauth2/authorize?${new URLSearchParams({ client_id: spa.clientId, response_type: 'code', redirect_uri: 'http://localhost:8080/cb', scope: 'openid', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })}`;
    const ownBrowser = new Browser(svc);
    const first = await ownBrowser.follow(await ownBrowser.get(authorize()));
    const signedIn = await ownBrowser.post(formAction(first.html, /\/login$/), {
      email: owner.email,
      password: owner.password,
    });
    expect(signedIn.status).toBe(303);
    expect(ownBrowser.jar.header()).toContain('oauth_device=');

    for (let i = 0; i < 6; i++) await signIn(owner.email, 'guess', `203.0.113.${60 + i}`);

    const stranger = new Browser(svc);
    const strangerPage = await stranger.follow(await stranger.get(authorize()));
    const refused = await stranger.post(formAction(strangerPage.html, /\/login$/), {
      email: owner.email,
      password: owner.password,
    });
    expect(refused.status).toBe(429);

    // A fresh interaction in the owner's browser (a new login prompt), with its device cookie.
    const again = new Browser(svc);
    for (const part of ownBrowser.jar.header().split('; '))
      if (part.startsWith('oauth_device='))
        again.jar.store(new Response(null, { headers: { 'set-cookie': `${part}; Path=/` } }));
    const page = await again.follow(await again.get(authorize()));
    const ok = await again.post(formAction(page.html, /\/login$/), { email: owner.email, password: owner.password });
    expect(ok.status).toBe(303);
  });
});

describe('one-time codes', () => {
  const requestCode = (email: string, ip: string) =>
    fetch(`${svc.url}/oauth2/otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ client_id: TEST_CLIENT_ID, username: email }),
    });
  const otp = (email: string, code: string, ip: string) =>
    tokenRequest(svc, { grant_type: 'otp', username: email, code }, { headers: from(ip) });

  async function firstCode(email: string, after: Date): Promise<string> {
    for (let i = 0; i < 250; i++) {
      const mail = await svc.store
        .collection('outbox')
        .find({ to: email, createdAt: { $gte: after } })
        .sort({ createdAt: 1 })
        .limit(1)
        .next();
      if (mail) return /\b(\d{6})\b/.exec(mail.text)![1]!;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('no mail');
  }

  test("other people's requests neither cancel the mailed code nor use up the owner's requests", async () => {
    const owner = await ensureCustomer(svc, {});
    const since = new Date();
    expect((await requestCode(owner.email, '198.51.100.20')).status).toBe(202);
    const code = await firstCode(owner.email, since);
    // An attacker asks as often as one address may: then that address is refused.
    for (let i = 0; i < 3; i++) expect((await requestCode(owner.email, '203.0.113.80')).status).toBe(202);
    expect((await requestCode(owner.email, '203.0.113.80')).status).toBe(429);
    // The owner may still ask, and the first code still works.
    expect((await requestCode(owner.email, '198.51.100.20')).status).toBe(202);
    expect((await otp(owner.email, code, '198.51.100.20')).status).toBe(200);
  });

  test('requests per address have a ceiling over all addresses (no inbox flooding)', async () => {
    const target = 'flooded@example.test';
    for (let i = 0; i < 6; i++) expect((await requestCode(target, `203.0.113.${100 + i}`)).status).toBe(202);
    const limited = await requestCode(target, '203.0.113.120');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('parallel code requests for one address cannot pass its ceiling together', async () => {
    const target = 'parallel-flood@example.test';
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => requestCode(target, `203.0.113.${140 + i}`)),
    );
    expect(answers.filter((r) => r.status === 202)).toHaveLength(6);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(6);
  });

  test('parallel wrong codes cannot pass the limit together', async () => {
    const owner = await ensureCustomer(svc, {});
    const since = new Date();
    await requestCode(owner.email, '198.51.100.22');
    const code = await firstCode(owner.email, since);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 10 }, () => otp(owner.email, wrong, '203.0.113.170')));
    // Every status at once, so that a failure shows what the other answers were.
    const statuses = answers.map((r) => r.status).sort((a, b) => a - b);
    expect(statuses).toEqual([400, 400, 400, 429, 429, 429, 429, 429, 429, 429]);
    expect((await otp(owner.email, code, '198.51.100.22')).status).toBe(200);
  });

  test("wrong guesses from elsewhere do not use up the owner's attempts on the code", async () => {
    const owner = await ensureCustomer(svc, {});
    const since = new Date();
    await requestCode(owner.email, '198.51.100.21');
    const code = await firstCode(owner.email, since);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await otp(owner.email, wrong, `203.0.113.${130 + (i % 2)}`)).status).toBe(400);
    expect((await otp(owner.email, code, '198.51.100.21')).status).toBe(200);
  });
});
