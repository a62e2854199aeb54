// A connection authenticated with an access token lives no longer than the token: when it expires, or when it
// (or its grant) is revoked — through this process, or recorded by another one — the socket is closed with 4403
// and its subscriptions end; the token opens no new connection; other connections' subscriptions go on; and a
// graphql-ws client that presents a fresh token on reconnecting carries on by itself.
import { createClient } from 'graphql-ws';
import { decodeJwt, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import WebSocket from 'ws';
import { recordRevocations } from '../../src/store/oauth/revocations.store.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic } from '../oauth/support.js';
import { insertLiveFixtures, liveMessage, liveMessages } from './fixtures.js';
import { collect, settled, wsClient, type Collected } from './ws.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ beforeStart: (store) => insertLiveFixtures(store.db) });
});
afterAll(() => svc.close());

type Added = { liveBlogMessageAdded: { text: string } };
const BLOG = 'subscription($id: ID!) { liveBlogMessageAdded(liveBlogId: $id) { text } }';
const FORBIDDEN = 4403;
/** Long enough to connect and subscribe on a loaded machine; the test waits for the close, whenever it comes. */
const SHORT_LIFETIME_S = 5;

let posted = 0;
/** A message written straight into the store (as another system would), on blog-1. */
async function post(text: string): Promise<void> {
  posted++;
  await liveMessages(svc.db).insertOne(liveMessage(`lifetime-${posted}`, 'blog-1', 5000 + posted, text));
}

/** A token signed with the provider's own key, as the token endpoint would, expiring `seconds` from now. */
async function shortLivedToken(seconds: number): Promise<string> {
  const doc = await svc.store.collection('settings').findOne({ _id: 'oauth.keys' });
  const jwk = (doc!.value as { jwks: { keys: JWK[] } }).jwks.keys.find((k) => k.alg === 'ES256')!;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'openid', client_id: TEST_CLIENT_ID, jti: `short-${now}` })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: jwk.kid! })
    .setSubject('cus_short_lived')
    .setIssuer(svc.config.oauth.issuer)
    .setAudience(svc.config.oauth.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign((await importJWK(jwk, 'ES256')) as CryptoKey);
}

/** A subscriber on blog-1 through its own connection, once the server has registered it. */
async function subscriber(params?: Record<string, unknown>) {
  const before = svc.service.live.subscriptions;
  const client = wsClient(svc.url, params);
  const sub = collect<Added>(client, BLOG, { id: 'blog-1' });
  await settled(() => svc.service.live.subscriptions > before);
  return { client, sub };
}

/** Posts and waits until each of `subs` has the message. */
async function deliveredTo(subs: Array<Collected<Added>>, text: string): Promise<void> {
  const counts = subs.map((s) => s.results.length);
  await post(text);
  await Promise.all(subs.map((s, i) => s.until(counts[i]! + 1)));
  subs.forEach((s, i) => expect(s.results[counts[i]!]).toEqual({ data: { liveBlogMessageAdded: { text } } }));
}

test('a token that expires while its connection is subscribed ends it with 4403; the other connections go on', async () => {
  const expiring = await subscriber(bearer(await shortLivedToken(SHORT_LIFETIME_S)));
  const signedIn = await subscriber(bearer((await tokenFor(svc)).accessToken));
  const anonymous = await subscriber();
  await deliveredTo([expiring.sub, signedIn.sub, anonymous.sub], 'before expiry');

  expect((await expiring.client.closed).code).toBe(FORBIDDEN);
  await expiring.sub.ended;
  await settled(() => svc.service.live.connections === 2 && svc.service.live.subscriptions === 2);

  await deliveredTo([signedIn.sub, anonymous.sub], 'after expiry');
  expect(expiring.sub.results.filter((r) => r.data)).toHaveLength(1);
  await Promise.all([signedIn.client.dispose(), anonymous.client.dispose(), expiring.client.dispose()]);
  await settled(() => svc.service.live.trackedSockets === 0);
});

test('a graphql-ws client whose connectionParams give a fresh token reconnects after 4403 and its subscription goes on', async () => {
  const refreshed = (await tokenFor(svc)).accessToken;
  let token = await shortLivedToken(SHORT_LIFETIME_S);
  const closes: number[] = [];
  let connections = 0;
  const client = createClient({
    url: `${svc.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    lazy: false,
    retryAttempts: 3,
    retryWait: async () => undefined,
    onNonLazyError: () => undefined,
    // Asked again at every connect: after the 4403 the reader's app hands over its refreshed token.
    connectionParams: () => bearer(token),
    on: { closed: (event) => void closes.push((event as { code: number }).code), connected: () => void connections++ },
  });
  const sub = collect<Added>(client, BLOG, { id: 'blog-1' });
  await settled(() => connections === 1 && svc.service.live.subscriptions > 0);
  await deliveredTo([sub], 'before the refresh');

  token = refreshed;
  await settled(() => closes.includes(FORBIDDEN) && connections === 2);
  // graphql-ws resubscribes on the new connection by itself; written until the subscription has it.
  const seen = sub.results.length;
  while (sub.results.length === seen) {
    await post('after the refresh');
    for (let i = 0; i < 20 && sub.results.length === seen; i++) await new Promise((r) => setTimeout(r, 10));
  }
  expect(sub.results[seen]).toEqual({ data: { liveBlogMessageAdded: { text: 'after the refresh' } } });
  expect(sub.results.filter((r) => r.errors)).toEqual([]);
  await client.dispose();
});

test('revoking the token (its grant, through this process) ends its connection with 4403, and the token opens no new one', async () => {
  const issued = await tokenFor(svc);
  const revoked = await subscriber(bearer(issued.accessToken));
  const other = await subscriber(bearer((await tokenFor(svc)).accessToken));

  const res = await fetch(`${svc.url}/oauth2/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    body: new URLSearchParams({ token: issued.refreshToken!, token_type_hint: 'refresh_token' }),
  });
  expect(res.status).toBe(200);
  expect((await revoked.client.closed).code).toBe(FORBIDDEN);
  await revoked.sub.ended;

  const again = wsClient(svc.url, bearer(issued.accessToken));
  const refused = collect(again, BLOG, { id: 'blog-1' });
  expect((await again.closed).code).toBe(FORBIDDEN);
  await refused.ended;

  await deliveredTo([other.sub], 'after the revocation');
  await Promise.all([revoked.client.dispose(), other.client.dispose(), again.dispose()]);
});

test('a revocation recorded by another process ends the connection once this process reads it', async () => {
  const issued = await tokenFor(svc);
  const revoked = await subscriber(bearer(issued.accessToken));
  const other = await subscriber(bearer((await tokenFor(svc)).accessToken));

  await recordRevocations(svc.store, [{ kind: 'token', value: String(decodeJwt(issued.accessToken).jti) }], 3600);
  expect((await revoked.client.closed).code).toBe(FORBIDDEN);
  await revoked.sub.ended;

  await deliveredTo([other.sub], 'after the other process revoked');
  await Promise.all([revoked.client.dispose(), other.client.dispose()]);
});
