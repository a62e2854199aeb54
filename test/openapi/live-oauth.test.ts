// The token endpoint's and the one-time-code request's live answers against the served OpenAPI
// document: tokens from each grant a test can run, and each RFC 6749 error a test can provoke, in both
// the form and the JSON encodings.
import { randomBytes } from 'node:crypto';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, newClient } from '../oauth/support.js';
import { json, startLive, unexercised, type Live } from './live.js';

let live: Live;
let customer: { email: string; password: string };
const TOKEN = '/oauth2/access_token';
const OTP = '/oauth2/otp';
const client = () => basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET);

beforeAll(async () => {
  live = await startLive({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '3', LOGIN_MAX_FAILURES_PER_IP: '1000' } });
  await ensureTestClient(live.svc);
  customer = await ensureCustomer(live.svc, { email: 'token-user@example.test' });
});
afterAll(() => live?.svc.close());

const form = (params: Record<string, string>, headers: Record<string, string> = client()) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(params).toString(),
});
const token = (expect: number, init: RequestInit) => live.call(TOKEN, TOKEN, { ...init, expect });
const password = () => ({
  grant_type: 'password',
  username: customer.email,
  password: customer.password,
  scope: 'openid offline_access cart',
});

describe('POST /oauth2/access_token', () => {
  test('200 from the password grant (client_secret_basic, form), the same as JSON with client_secret_post, and the refresh grant', async () => {
    const issued = JSON.parse((await token(200, form(password()))).text) as { refresh_token: string };
    await token(200, {
      method: 'POST',
      ...json({ ...password(), client_id: TEST_CLIENT_ID, client_secret: TEST_CLIENT_SECRET, scope: 'cart' }),
    });
    await token(200, form({ grant_type: 'refresh_token', refresh_token: issued.refresh_token }));
  });

  test('400 for each error a client can cause', async () => {
    const cases: Array<[string, RequestInit]> = [
      ['invalid_grant', form({ ...password(), password: 'wrong', username: 'nobody@example.test' })],
      ['invalid_request', form({ grant_type: 'password', username: customer.email })],
      ['invalid_request', { method: 'POST', ...json({ grant_type: 'password', username: ['a', 'b'] }, client()) }],
      ['unsupported_grant_type', form({ grant_type: 'client_credentials' })],
      ['invalid_scope', form({ ...password(), scope: 'openid admin' })],
    ];
    const noPassword = await newClient(live.svc, { grantTypes: ['refresh_token', 'otp'] });
    cases.push(['unauthorized_client', form(password(), basic(noPassword.clientId, noPassword.secret))]);
    for (const [error, init] of cases) expect(JSON.parse((await token(400, init)).text).error).toBe(error);
  });

  test('401 invalid_client for a wrong secret or an unknown client', async () => {
    await token(401, form(password(), basic(TEST_CLIENT_ID, 'wrong-secret')));
    await token(401, form(password(), basic('no-such-client', 'x')));
  });

  test('429 temporarily_unavailable once an account has too many failed attempts', async () => {
    const victim = await ensureCustomer(live.svc, { email: `victim-${randomBytes(4).toString('hex')}@example.test` });
    let status = 400;
    for (let i = 0; i < 10 && status === 400; i++) {
      status = (
        await fetch(
          `${live.svc.url}${TOKEN}`,
          form({ grant_type: 'password', username: victim.email, password: `wrong-${i}` }),
        )
      ).status;
    }
    expect(status).toBe(429);
    await token(429, form({ grant_type: 'password', username: victim.email, password: victim.password }));
  });
});

describe('POST /oauth2/otp', () => {
  const otp = (expect: number, init: RequestInit) => live.call(OTP, OTP, { ...init, expect });

  test('202 for a known and an unknown address, as JSON and as a form', async () => {
    await otp(202, { method: 'POST', ...json({ client_id: TEST_CLIENT_ID, username: customer.email }) });
    await otp(202, form({ client_id: TEST_CLIENT_ID, username: 'nobody@example.test' }, {}));
  });

  test('400 invalid_request and unauthorized_client, 401 invalid_client, 429 after too many requests', async () => {
    await otp(400, { method: 'POST', ...json({ client_id: TEST_CLIENT_ID, username: 'not an address' }) });
    const noOtp = await newClient(live.svc, { grantTypes: ['password'] });
    await otp(400, { method: 'POST', ...json({ client_id: noOtp.clientId, username: customer.email }) });
    await otp(401, { method: 'POST', ...json({ client_id: 'no-such-client', username: customer.email }) });
    let status = 202;
    for (let i = 0; i < 10 && status === 202; i++) {
      status = (
        await fetch(`${live.svc.url}${OTP}`, {
          method: 'POST',
          ...json({ client_id: TEST_CLIENT_ID, username: 'flood@example.test' }),
        })
      ).status;
    }
    expect(status).toBe(429);
    await otp(429, { method: 'POST', ...json({ client_id: TEST_CLIENT_ID, username: 'flood@example.test' }) });
  });
});

test('every documented OAuth response was produced and checked, except server failures no test can cause', () => {
  expect(unexercised(live.conformance, (key) => key.includes(' /oauth2/'), / 500$/)).toEqual([]);
});
