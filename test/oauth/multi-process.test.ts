// Two gateway processes on one store (this test's service and a child process of the built service,
// same PUBLIC_URL): a revocation on one reaches the other's in-memory revocation list through the
// poll, without a restart and without a store read per request.
import { distPath, ensureBuilt } from '../helpers/built.js';
import { spawnNode, type Child } from '../helpers/child.js';
import { testMongoUri } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { tokenFor, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic, tokenRequest } from './support.js';

const PUBLIC_URL = 'http://gateway.test';

let a: TestService;
let b: Child;
let bUrl: string;

beforeAll(async () => {
  await ensureBuilt();
  a = await startTestService({ env: { PUBLIC_URL, LOGIN_MAX_FAILURES_PER_IP: '1000' } });
  b = spawnNode(distPath('src/main.js'), [], {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED: 'none',
    PUBLIC_URL,
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: a.db.databaseName,
  });
  const listening = await b.waitFor((l) => typeof l.url === 'string' && String(l.msg).includes('listening'), 60_000);
  bUrl = new URL(String(listening.url)).origin;
}, 120_000);
afterAll(async () => {
  b?.proc.kill('SIGTERM');
  await b?.exited;
  await a?.close();
});

const readAs = (url: string, accessToken: string) =>
  fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` }, body: JSON.stringify({ query: '{ service { version } }' }) });

/** Asks until `ok` holds; returns how many tries it took (the poll period decides, not this loop). */
async function eventually(check: () => Promise<boolean>, tries = 200): Promise<number> {
  for (let i = 1; i <= tries; i++) {
    if (await check()) return i;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('never happened');
}

test('a token issued by one process works on the other', async () => {
  const issued = await tokenFor(a);
  expect((await readAs(bUrl, issued.accessToken)).status).toBe(200);
});

test('revoking a refresh token on one process: its grant\'s access token is refused on that process at once and on the other after a poll', async () => {
  const issued = await tokenFor(a);
  expect((await readAs(bUrl, issued.accessToken)).status).toBe(200);
  const revoke = await fetch(`${a.url}/oauth2/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    body: new URLSearchParams({ token: issued.refreshToken!, token_type_hint: 'refresh_token' }),
  });
  expect(revoke.status).toBe(200);
  expect((await readAs(a.url, issued.accessToken)).status).toBe(401);
  await eventually(async () => (await readAs(bUrl, issued.accessToken)).status === 401);
  const introspected = await fetch(`${bUrl}/oauth2/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    body: new URLSearchParams({ token: issued.accessToken }),
  });
  expect(await introspected.json()).toEqual({ active: false });
}, 60_000);

test('refresh-token reuse detected on one process: the grant\'s access tokens are refused on the other', async () => {
  const issued = await tokenFor(a);
  const refresh = (url: string, token: string) =>
    fetch(`${url}/oauth2/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }),
    });
  const rotated = (await (await refresh(a.url, issued.refreshToken!)).json()) as { access_token: string; refresh_token: string };
  expect((await refresh(a.url, rotated.refresh_token)).status).toBe(200);
  expect((await readAs(bUrl, rotated.access_token)).status).toBe(200);
  // The first token again, on the other process, after its successor was used: reuse.
  expect((await refresh(bUrl, issued.refreshToken!)).status).toBe(400);
  expect((await readAs(bUrl, rotated.access_token)).status).toBe(401);
  await eventually(async () => (await readAs(a.url, rotated.access_token)).status === 401);
  expect((await tokenRequest(a, { grant_type: 'refresh_token', refresh_token: rotated.refresh_token }, { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) })).status).toBe(400);
}, 60_000);
