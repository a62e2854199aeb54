// Fan-out under pressure: a subscriber that stops reading is dropped while the others get every message
// in order; shutdown closes connections with 1001; an idle connection is closed.
import WebSocket from 'ws';
import { startTestService, type TestService } from '../helpers/service.js';
import { insertLiveFixtures, liveMessage } from './fixtures.js';
import { collect, settled, wsClient } from './ws.js';

let svc: TestService;

beforeAll(async () => {
  // The stalled subscriber reads its close frame only once the fast one has every message, which takes longer
  // than the default grace on a loaded machine: it would be cut (1006) before it could see the 1013.
  svc = await startTestService({
    env: { LIVE_CLOSE_GRACE_MS: '60000' },
    beforeStart: (store) => insertLiveFixtures(store.db),
  });
});
afterAll(() => svc.close());

const SUBSCRIBE = 'subscription { liveBlogMessageAdded(liveBlogId: "blog-1") { id seq: text htmlContent } }';

/** A client that speaks the protocol by hand so it can stop reading its socket. */
async function stalledSubscriber(url: string): Promise<{ socket: WebSocket; closed: Promise<number> }> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await new Promise((resolve) => socket.once('message', resolve));
  socket.send(JSON.stringify({ type: 'subscribe', id: '1', payload: { query: SUBSCRIBE } }));
  return { socket, closed };
}

const message = (seq: number, html: string) =>
  liveMessage(`bulk-${seq}`, 'blog-1', seq, String(seq), { htmlContent: html });

test('a subscriber that stops reading is dropped; the others receive every message in order', async () => {
  const fast = wsClient(svc.url);
  const received = collect<{ liveBlogMessageAdded: { seq: string } }>(fast, SUBSCRIBE);
  const slow = await stalledSubscriber(svc.url);
  // Both registered: a first message reaches the fast one (the slow one subscribed before it).
  const messages = svc.db.collection('liveBlogMessages');
  let seq = 0;
  while (received.results.length === 0) {
    await messages.insertOne(message(++seq, '') as never);
    await new Promise((r) => setTimeout(r, 20));
  }
  // Warm-up messages inserted before the first one arrived may still be on their way: wait for the
  // last one, so everything after it is the bulk below.
  const lastSeq = () => Number(received.results.at(-1)!.data!.liveBlogMessageAdded.seq);
  await settled(() => lastSeq() === seq);
  const first = seq + 1;
  const base = received.results.length;
  slow.socket.pause();
  const html = 'x'.repeat(32 * 1024);
  const total = 400;
  // In batches the fast subscriber reads before the next: its own backlog stays far below the limit even on a
  // loaded machine, while the stalled one's grows with every batch.
  const batch = 10;
  for (let i = 0; i < total; i += batch) {
    await messages.insertMany(Array.from({ length: batch }, (_, k) => message(first + i + k, html)) as never);
    await received.until(base + i + batch);
  }
  const results = await received.until(base + total);
  expect(results.slice(base).filter((r) => !r.data)).toEqual([]);
  const seqs = results.slice(base).map((r) => Number(r.data!.liveBlogMessageAdded.seq));
  expect(seqs).toEqual(Array.from({ length: total }, (_, k) => first + k));
  slow.socket.resume();
  expect(await slow.closed).toBe(1013);
  await fast.dispose();
});

test('shutdown closes subscribers with 1001; a connection without subscriptions is closed when idle', async () => {
  const other = await startTestService({ env: { LIVE_IDLE_TIMEOUT_MS: '1000' } });
  const idle = wsClient(other.url);
  const active = wsClient(other.url);
  const sub = collect(active, 'subscription { pollResultsChanged(pollId: "poll-x") { id } }');
  await sub.ended; // NOT_FOUND, so the connection holds nothing: idle too
  const busy = wsClient(other.url);
  collect(busy, SUBSCRIBE.replace('blog-1', 'blog-none'));
  expect((await idle.closed).code).toBe(4408);
  await other.db.collection('liveBlogs').insertOne({
    _id: 'blog-held',
    title: 't',
    startDate: new Date(),
    endDate: null,
    websocketRoomName: 'held',
    lastSeq: 0,
  } as never);
  const held = wsClient(other.url);
  collect(held, 'subscription { liveBlogMessageAdded(liveBlogId: "blog-held") { id } }');
  await settled(() => other.service.live.subscriptions === 1);
  await other.close();
  expect((await held.closed).code).toBe(1001);
});
