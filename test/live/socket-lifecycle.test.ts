// What the server keeps per WebSocket connection ends with the connection: sockets closed by their clients while
// subscribed leave no subscription count or idle timer behind (graphql-ws completes their subscriptions after the
// socket is gone, which must not bring its state back). A connection whose token is revoked or expires is closed:
// test/live/token-lifetime.test.ts.
import { startTestService, type TestService } from '../helpers/service.js';
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

  await Promise.all(clients.map(async (c) => c.dispose()));
  await settled(() => live.connections === 0 && live.subscriptions === 0);
  // graphql-ws completes the subscriptions of a closed socket a moment after its close event.
  await new Promise((r) => setTimeout(r, 200));
  expect(live.trackedSockets).toBe(0);
});
