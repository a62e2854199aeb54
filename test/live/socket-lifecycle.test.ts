// What the server keeps per WebSocket connection ends with the connection: sockets closed by their clients while
// subscribed leave no subscription count or idle timer behind (graphql-ws completes their subscriptions after the
// socket is gone, which must not bring its state back). A connection's token is checked again at every subscribe.
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';
import { basic } from '../oauth/support.js';
import { insertLiveFixtures } from './fixtures.js';
import { collect, settled, wsClient } from './ws.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ beforeStart: (store) => insertLiveFixtures(store.db) });
});
afterAll(() => svc.close());

const BLOG = 'subscription($id: ID!) { liveBlogMessageAdded(liveBlogId: $id) { id } }';

test('clients that close while subscribed leave nothing tracked for their sockets', async () => {
  const live = svc.service.live;
  const clients = Array.from({ length: 5 }, () => wsClient(svc.url));
  for (const client of clients) collect(client, BLOG, { id: 'blog-1' });
  await settled(() => live.subscriptions === 5);
  expect(live.trackedSockets).toBe(5);

  await Promise.all(clients.map((c) => c.dispose()));
  await settled(() => live.connections === 0 && live.subscriptions === 0);
  // graphql-ws completes the subscriptions of a closed socket a moment after its close event.
  await new Promise((r) => setTimeout(r, 200));
  expect(live.trackedSockets).toBe(0);
});

test('a token revoked after connection_init opens no further subscription on that connection', async () => {
  const issued = await tokenFor(svc);
  const client = wsClient(svc.url, bearer(issued.accessToken));
  const first = collect(client, BLOG, { id: 'blog-1' });
  await settled(() => svc.service.live.subscriptions === 1);
  expect(first.results).toEqual([]);

  const revoked = await fetch(`${svc.url}/oauth2/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(TEST_CLIENT_ID, TEST_CLIENT_SECRET) },
    body: new URLSearchParams({ token: issued.refreshToken!, token_type_hint: 'refresh_token' }),
  });
  expect(revoked.status).toBe(200);
  expect((await svc.gql('{ viewer { id } }', {}, bearer(issued.accessToken))).status).toBe(401);

  const second = collect(client, BLOG, { id: 'blog-2' });
  await second.ended;
  expect(second.results[0]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  await client.dispose();
});
