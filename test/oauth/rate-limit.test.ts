// Brute-force limits (docs/api.md): failed password and otp attempts are counted per account and per
// client IP in the store; past the limit the answer is 429 with Retry-After, for known and unknown
// accounts alike, and even the right password waits.
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, tokenRequest } from './support.js';

let perAccount: TestService;
let perIp: TestService;
let behindProxy: TestService;

beforeAll(async () => {
  perAccount = await startTestService({
    env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_IP: '1000' },
  });
  perIp = await startTestService({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000', LOGIN_MAX_FAILURES_PER_IP: '4' } });
  behindProxy = await startTestService({
    env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000', LOGIN_MAX_FAILURES_PER_IP: '2', TRUST_PROXY: '1' },
  });
  await ensureTestClient(perAccount);
  await ensureTestClient(perIp);
  await ensureTestClient(behindProxy);
});
afterAll(async () => {
  await perAccount?.close();
  await perIp?.close();
  await behindProxy?.close();
});

const password = (svc: TestService, username: string, pw: string, headers: Record<string, string> = {}) =>
  tokenRequest(
    svc,
    { grant_type: 'password', username, password: pw },
    { headers: { ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET), ...headers } },
  );

function expectLimited(res: { status: number; headers: Headers; body: Record<string, unknown> }): void {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.body).toEqual({
    error: 'temporarily_unavailable',
    error_description: 'Too many failed attempts; try again later',
  });
}

test('per account: after the limit of failures, 429 with Retry-After, even with the right password', async () => {
  const customer = await ensureCustomer(perAccount, {});
  for (let i = 0; i < 3; i++) expect((await password(perAccount, customer.email, 'wrong')).status).toBe(400);
  expectLimited(await password(perAccount, customer.email, 'wrong'));
  expectLimited(await password(perAccount, customer.email, customer.password));
  // Other accounts are not affected.
  const other = await ensureCustomer(perAccount, {});
  expect((await password(perAccount, other.email, other.password)).status).toBe(200);
});

test('an unknown account is limited exactly like a known one', async () => {
  for (let i = 0; i < 3; i++) expect((await password(perAccount, 'ghost@example.test', 'wrong')).status).toBe(400);
  expectLimited(await password(perAccount, 'ghost@example.test', 'wrong'));
});

test("a success clears the account's failures", async () => {
  const customer = await ensureCustomer(perAccount, {});
  for (let i = 0; i < 2; i++) await password(perAccount, customer.email, 'wrong');
  expect((await password(perAccount, customer.email, customer.password)).status).toBe(200);
  for (let i = 0; i < 2; i++) expect((await password(perAccount, customer.email, 'wrong')).status).toBe(400);
  expect((await password(perAccount, customer.email, customer.password)).status).toBe(200);
});

test('otp attempts count against the same account limit', async () => {
  const customer = await ensureCustomer(perAccount, {});
  const otp = (code: string) =>
    tokenRequest(
      perAccount,
      { grant_type: 'otp', username: customer.email, code },
      { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    );
  for (let i = 0; i < 3; i++) expect((await otp('000000')).status).toBe(400);
  expectLimited(await otp('000000'));
});

test('code requests are limited per address too (429, never a hint whether it exists)', async () => {
  const ask = () =>
    fetch(`${perAccount.url}/oauth2/otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: TEST_CLIENT_ID, username: 'flood@example.test' }),
    });
  for (let i = 0; i < 3; i++) expect((await ask()).status).toBe(202);
  const limited = await ask();
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
});

test('per IP: failures across many accounts lock the IP out', async () => {
  for (let i = 0; i < 4; i++) expect((await password(perIp, `someone-${i}@example.test`, 'wrong')).status).toBe(400);
  const customer = await ensureCustomer(perIp, {});
  expectLimited(await password(perIp, customer.email, customer.password));
});

test('the counters live in the store, so every process shares them', async () => {
  const docs = await perIp.store.collection('login_failures').find({}).toArray();
  expect(docs.some((d) => d.key.startsWith('login:ip:') && d.points >= 4)).toBe(true);
});

test('X-Forwarded-For is ignored unless TRUST_PROXY says a proxy sets it', async () => {
  // perIp trusts no proxy: the header cannot spread failures over made-up addresses.
  const fresh = await startTestService({
    env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000', LOGIN_MAX_FAILURES_PER_IP: '2' },
  });
  try {
    await ensureTestClient(fresh);
    for (const ip of ['203.0.113.1', '203.0.113.2'])
      expect((await password(fresh, 'nobody@example.test', 'wrong', { 'x-forwarded-for': ip })).status).toBe(400);
    expectLimited(await password(fresh, 'nobody@example.test', 'wrong', { 'x-forwarded-for': '203.0.113.3' }));
  } finally {
    await fresh.close();
  }
});

test('behind one trusted proxy, each client address has its own count, taken from what the proxy appended', async () => {
  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  for (let i = 0; i < 2; i++)
    expect((await password(behindProxy, `p-${i}@example.test`, 'wrong', from('198.51.100.7'))).status).toBe(400);
  expectLimited(await password(behindProxy, 'p-2@example.test', 'wrong', from('198.51.100.7')));
  // A client prepending its own entry is still counted by the address the proxy saw.
  expectLimited(await password(behindProxy, 'p-3@example.test', 'wrong', from('192.0.2.99, 198.51.100.7')));
  // Another client behind the same proxy is not locked out.
  const customer = await ensureCustomer(behindProxy, {});
  expect((await password(behindProxy, customer.email, customer.password, from('198.51.100.8'))).status).toBe(200);
});
