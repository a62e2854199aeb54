// Two gateway processes on one store (this test's service and a child process of the built service,
// same PUBLIC_URL): a revocation on one reaches the other's in-memory revocation list through the
// poll, without a restart and without a store read per request.
import { tokenFor, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { eventually, readAs, useTwoProcesses } from './second-process.js';
import { basic, tokenRequest } from './support.js';

const two = useTwoProcesses();

test('a token issued by one process works on the other', async () => {
  const issued = await tokenFor(two.a);
  expect(await readAs(two.bUrl, issued.accessToken)).toBe(200);
});

test("revoking a refresh token on one process: its grant's access token is refused on that process at once and on the other after a poll", async () => {
  const issued = await tokenFor(two.a);
  expect(await readAs(two.bUrl, issued.accessToken)).toBe(200);
  const revoke = await fetch(`${two.a.url}/oauth2/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    body: new URLSearchParams({ token: issued.refreshToken!, token_type_hint: 'refresh_token' }),
  });
  expect(revoke.status).toBe(200);
  expect(await readAs(two.a.url, issued.accessToken)).toBe(401);
  await eventually(async () => (await readAs(two.bUrl, issued.accessToken)) === 401);
  const introspected = await fetch(`${two.bUrl}/oauth2/introspect`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    body: new URLSearchParams({ token: issued.accessToken }),
  });
  expect(await introspected.json()).toEqual({ active: false });
}, 60_000);

test("refresh-token reuse detected on one process: the grant's access tokens are refused on the other", async () => {
  const issued = await tokenFor(two.a);
  const refresh = (url: string, token: string) =>
    fetch(`${url}/oauth2/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }),
    });
  const rotated = (await (await refresh(two.a.url, issued.refreshToken!)).json()) as {
    access_token: string;
    refresh_token: string;
  };
  expect((await refresh(two.a.url, rotated.refresh_token)).status).toBe(200);
  expect(await readAs(two.bUrl, rotated.access_token)).toBe(200);
  // The first token again, on the other process, after its successor was used: reuse.
  expect((await refresh(two.bUrl, issued.refreshToken!)).status).toBe(400);
  expect(await readAs(two.bUrl, rotated.access_token)).toBe(401);
  await eventually(async () => (await readAs(two.a.url, rotated.access_token)) === 401);
  expect(
    (
      await tokenRequest(
        two.a,
        { grant_type: 'refresh_token', refresh_token: rotated.refresh_token },
        { headers: basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
      )
    ).status,
  ).toBe(400);
}, 60_000);
