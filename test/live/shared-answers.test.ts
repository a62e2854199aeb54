// Anonymous subscribers of one operation share each event's answer (executed, serialised and encoded once) and
// each gets it framed under its own subscription id: what every socket receives, frame by frame, for several
// subscriptions of one operation on one connection and on several, with ids that need escaping; a subscription
// completed or a socket closed mid-stream gets nothing more while the others get every message, in order.
// Keep-alive: a client that does not answer pings is cut, one that does is kept.
import WebSocket from 'ws';
import { startTestService, type TestService } from '../helpers/service.js';
import { insertLiveFixtures, liveMessage, liveMessages } from './fixtures.js';
import { settled } from './ws.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    env: { LIVE_KEEPALIVE_MS: '1000' },
    beforeStart: (store) => insertLiveFixtures(store.db),
  });
});
afterAll(() => svc.close());

const ADDED = 'subscription($id: ID!) { liveBlogMessageAdded(liveBlogId: $id) { id text } }';

interface Frame {
  binary: boolean;
  message: { id?: string; type: string; payload?: unknown };
}

/** A client speaking graphql-transport-ws by hand, keeping every frame it receives after the acknowledgement. */
async function rawClient(options: { autoPong?: boolean } = {}) {
  const socket = new WebSocket(`${svc.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', options);
  const frames: Frame[] = [];
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve) => socket.once('open', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await new Promise<void>((resolve) =>
    socket.once('message', (data) => {
      expect(JSON.parse(String(data))).toEqual({ type: 'connection_ack' });
      resolve();
    }),
  );
  socket.on('message', (data, binary) =>
    frames.push({ binary, message: JSON.parse(String(data)) as Frame['message'] }),
  );
  return {
    socket,
    frames,
    closed,
    subscribe: (id: string, liveBlogId = 'blog-1') =>
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: ADDED, variables: { id: liveBlogId } } })),
    complete: (id: string) => socket.send(JSON.stringify({ id, type: 'complete' })),
    /** The texts of the messages received under `id`. */
    texts: (id: string) =>
      frames
        .filter((f) => f.message.id === id)
        .map(
          (f) =>
            (f.message.payload as { data: { liveBlogMessageAdded: { text: string } } }).data.liveBlogMessageAdded.text,
        ),
  };
}

let seq = 1000;
const post = (liveBlogId: string, text: string) => {
  const n = ++seq;
  return liveMessages(svc.db).insertOne(liveMessage(`shared-${n}`, liveBlogId, n, text, { htmlContent: '' }));
};

/** Posts messages until every subscription has one, then a mark: what follows the mark is what a test counts. */
async function warmUp(wanted: Array<[Awaited<ReturnType<typeof rawClient>>, string]>): Promise<void> {
  for (let i = 0; !wanted.every(([c, id]) => c.texts(id).length > 0); i++) {
    await post('blog-1', `warm-${i}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await post('blog-1', 'mark');
  await settled(() => wanted.every(([c, id]) => c.texts(id).includes('mark')));
}

const after = (texts: string[], mark: string) => texts.slice(texts.indexOf(mark) + 1);

test('each subscription gets every shared answer once, in order, under its own id, as a text frame', async () => {
  const live = svc.service.live;
  const base = live.subscriptions;
  const quoted = 'an id with "quotes", a \\ and ünïcödé';
  const one = await rawClient();
  const two = await rawClient();
  const other = await rawClient();
  one.subscribe('a');
  one.subscribe(quoted);
  two.subscribe('a');
  two.subscribe('3f1c0a52-9a4e-4c1b-8f55-0c9a3c3a1b2e');
  // The same document on another blog: a different answer, never mixed with blog-1's.
  other.subscribe('a', 'blog-2');
  await settled(() => live.subscriptions === base + 5);
  await warmUp([
    [one, 'a'],
    [one, quoted],
    [two, 'a'],
    [two, '3f1c0a52-9a4e-4c1b-8f55-0c9a3c3a1b2e'],
  ]);
  const texts = Array.from({ length: 30 }, (_, i) => `m${i}`);
  for (const text of texts) await post('blog-1', text);
  await post('blog-2', 'elsewhere');
  const all = [
    [one, 'a'],
    [one, quoted],
    [two, 'a'],
    [two, '3f1c0a52-9a4e-4c1b-8f55-0c9a3c3a1b2e'],
  ] as const;
  await settled(() => all.every(([c, id]) => c.texts(id).includes('m29')) && other.texts('a').includes('elsewhere'));
  for (const [client, id] of all) expect(after(client.texts(id), 'mark')).toEqual(texts);
  expect(other.texts('a')).toEqual(['elsewhere']);
  for (const client of [one, two, other]) {
    expect(client.frames.every((f) => !f.binary)).toBe(true);
    expect(new Set(client.frames.map((f) => f.message.type))).toEqual(new Set(['next']));
  }
  // The whole message as the protocol has it, the id escaped as JSON.
  const last = one.frames.filter((f) => f.message.id === quoted).at(-1)!.message;
  expect(last).toEqual({
    id: quoted,
    type: 'next',
    payload: { data: { liveBlogMessageAdded: { id: `shared-${seq - 1}`, text: 'm29' } } },
  });
  for (const client of [one, two, other]) client.socket.close();
  await settled(() => live.subscriptions === base);
});

test('a subscription completed or a socket closed mid-stream gets nothing more; the others get every message', async () => {
  const live = svc.service.live;
  const base = live.subscriptions;
  const stays = await rawClient();
  const leaves = await rawClient();
  const completes = await rawClient();
  stays.subscribe('s');
  leaves.subscribe('l');
  completes.subscribe('c');
  completes.subscribe('k');
  await settled(() => live.subscriptions === base + 4);
  await warmUp([
    [stays, 's'],
    [leaves, 'l'],
    [completes, 'c'],
    [completes, 'k'],
  ]);
  for (let i = 0; i < 10; i++) await post('blog-1', `before-${i}`);
  await settled(() => ['s', 'l'].every((id, n) => [stays, leaves][n]!.texts(id).includes('before-9')));
  leaves.socket.terminate();
  completes.complete('c');
  await settled(() => live.subscriptions === base + 2);
  const frameCount = completes.frames.length;
  const later = Array.from({ length: 20 }, (_, i) => `after-${i}`);
  for (const text of later) await post('blog-1', text);
  await settled(() => stays.texts('s').includes('after-19') && completes.texts('k').includes('after-19'));
  expect(after(stays.texts('s'), 'mark')).toEqual([...Array.from({ length: 10 }, (_, i) => `before-${i}`), ...later]);
  expect(after(completes.texts('k'), 'before-9')).toEqual(later);
  // Nothing under the completed id once the server had ended it.
  expect(completes.frames.slice(frameCount).filter((f) => f.message.id === 'c')).toEqual([]);
  expect(await leaves.closed).toBe(1006);
  stays.socket.close();
  completes.socket.close();
  await settled(() => live.subscriptions === base);
});

test('keep-alive: a client that does not answer pings is cut, one that answers is kept', async () => {
  const silent = await rawClient({ autoPong: false });
  const answering = await rawClient();
  let pinged = 0;
  answering.socket.on('ping', () => pinged++);
  // The silent one is cut within two keep-alive periods; by then the other was pinged and answered.
  expect(await silent.closed).toBe(1006);
  await settled(() => pinged >= 2);
  expect(answering.socket.readyState).toBe(WebSocket.OPEN);
  answering.socket.close();
});
