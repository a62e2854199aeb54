// Request bodies at the token, introspection and revocation endpoints (docs/api.md): a body over
// the limit is a 413 in RFC 6749's error shape, whether form or JSON, and the kept-alive connection it came on
// still carries the client's next request (an early answer must not reset it).
import { Client } from 'undici';
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer, ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, INVALID_REQUEST } from './support.js';

let svc: TestService;
let client: Client;
let customer: { email: string; password: string };

beforeAll(async () => {
  svc = await startTestService();
  await ensureTestClient(svc);
  customer = await ensureCustomer(svc, {});
});
beforeEach(() => {
  // One connection, kept alive: every request of a test goes over the same socket.
  client = new Client(svc.url, { pipelining: 1, connections: 1 } as ConstructorParameters<typeof Client>[1]);
});
afterEach(() => client.close());
afterAll(() => svc?.close());

const pad = 'p'.repeat(200_000);

async function post(path: string, contentType: string, body: string, headers: Record<string, string> = {}) {
  const res = await client.request({
    method: 'POST',
    path,
    headers: { 'content-type': contentType, ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET), ...headers },
    body,
  });
  const text = await res.body.text();
  return {
    status: res.statusCode,
    headers: res.headers,
    body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
  };
}

const passwordForm = () =>
  new URLSearchParams({ grant_type: 'password', username: customer.email, password: customer.password }).toString();

test.each([
  ['a form', 'application/x-www-form-urlencoded', () => `${passwordForm()}&pad=${pad}`],
  [
    'a JSON body',
    'application/json',
    () => JSON.stringify({ grant_type: 'password', username: customer.email, password: customer.password, pad }),
  ],
])(
  'token endpoint: %s over the limit is 413 invalid_request, and the connection serves the next request',
  async (_name, type, body) => {
    const big = await post('/oauth2/access_token', type, body());
    expect(big.status).toBe(413);
    expect(big.body).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
    expect(big.headers['cache-control']).toContain('no-store');
    const next = await post('/oauth2/access_token', 'application/x-www-form-urlencoded', passwordForm());
    expect(next.status).toBe(200);
    expect(typeof next.body.access_token).toBe('string');
  },
);

test('token endpoint: bodies within the limit still work both ways', async () => {
  expect(
    (
      await post(
        '/oauth2/access_token',
        'application/json',
        JSON.stringify({ grant_type: 'password', username: customer.email, password: customer.password }),
      )
    ).status,
  ).toBe(200);
  expect(
    (await post('/oauth2/access_token', 'application/x-www-form-urlencoded; charset=utf-8', passwordForm())).status,
  ).toBe(200);
});

test.each(['/oauth2/introspect', '/oauth2/revoke'])(
  '%s: a form over the limit is 413, and the connection serves the next request',
  async (path) => {
    const big = await post(path, 'application/x-www-form-urlencoded', `token=x&pad=${pad}`);
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('invalid_request');
    const next = await post(path, 'application/x-www-form-urlencoded', 'token=unknown-token');
    expect(next.status).toBe(200);
  },
);

describe('methods and media types (405, 415)', () => {
  const endpoints = ['/oauth2/access_token', '/oauth2/introspect', '/oauth2/revoke', '/oauth2/otp'];

  test.each(endpoints)('%s: GET, PUT and DELETE are 405 with Allow: POST in the RFC 6749 error shape', async (path) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await client.request({ method: method as 'GET', path });
      expect([method, res.statusCode, res.headers.allow]).toEqual([method, 405, 'POST']);
      expect(await res.body.json()).toEqual({ error: 'invalid_request', error_description: INVALID_REQUEST });
    }
  });

  test.each(endpoints)('%s: a text/plain or XML body is 415, and so is a gzip content coding', async (path) => {
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x']) {
      const res = await post(path, type, passwordForm());
      expect([type, res.status, res.body.error]).toEqual([type, 415, 'invalid_request']);
    }
    const gzip = await post(path, 'application/x-www-form-urlencoded', passwordForm(), { 'content-encoding': 'gzip' });
    expect(gzip.status).toBe(415);
    expect(gzip.headers['accept-encoding']).toBe('identity');
  });

  test.each(endpoints)(
    "%s: a body without a Content-Type is 415; no body and no type is the endpoint's own 400",
    async (path) => {
      const typeless = await client.request({
        method: 'POST',
        path,
        headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET),
        body: passwordForm(),
      });
      expect([typeless.statusCode, ((await typeless.body.json()) as { error?: string }).error]).toEqual([
        415,
        'invalid_request',
      ]);
      const empty = await client.request({ method: 'POST', path, headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) });
      await empty.body.dump();
      expect(empty.statusCode).not.toBe(415);
      expect(empty.statusCode).toBeLessThan(500);
    },
  );

  test('a JSON body is for the token endpoint and the otp request only: 415 at introspection', async () => {
    expect((await post('/oauth2/introspect', 'application/json', JSON.stringify({ token: 'x' }))).status).toBe(415);
  });

  test('a CORS preflight is not refused: the provider answers it', async () => {
    const res = await client.request({
      method: 'OPTIONS',
      path: '/oauth2/access_token',
      headers: { origin: 'http://localhost:8080', 'access-control-request-method': 'POST' },
    });
    await res.body.dump();
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:8080');
  });

  test('/oauth2/otp: a body over its limit is 413', async () => {
    const res = await post(
      '/oauth2/otp',
      'application/json',
      JSON.stringify({ client_id: TEST_CLIENT_ID, username: customer.email, pad }),
    );
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('invalid_request');
  });
});
