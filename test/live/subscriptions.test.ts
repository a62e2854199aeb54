// GraphQL subscriptions over graphql-ws against the running service: subscribe, write through a mutation
// (or straight into the store), receive; auth in connection_init, premium live blogs, limits, shutdown.
import type { ArticleDoc } from '../../src/store/content/article.doc.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { editorToken, insertLiveFixtures, liveBlog, liveMessage, liveMessages, openPoll } from './fixtures.js';
import { collect, settled, wsClient } from './ws.js';

let svc: TestService;
let editor: IssuedTokens;
let alice: IssuedTokens;
const clients: Array<{ dispose(): void | Promise<void> }> = [];

beforeAll(async () => {
  svc = await startTestService({
    env: { LIVE_MAX_SUBSCRIPTIONS: '4' },
    beforeStart: (store) => insertLiveFixtures(store.db),
  });
  editor = await editorToken(svc);
  alice = await tokenFor(svc, { email: 'alice@example.test', scopes: ['openid'] });
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await svc.close();
});

const client = (params?: Record<string, unknown>) => {
  const c = wsClient(svc.url, params);
  clients.push(c);
  return c;
};
const hubCount = () => svc.service.live.subscriptions;
const POST = `mutation($id: ID!, $input: LiveBlogMessageInput!) { postLiveBlogMessage(liveBlogId: $id, input: $input) { id } }`;
const post = (liveBlogId: string, text: string) =>
  svc.gql(POST, { id: liveBlogId, input: { text } }, bearer(editor.accessToken));

test('liveBlogMessageAdded: a message posted through the mutation reaches the subscriber', async () => {
  const c = client();
  const sub = collect<{ liveBlogMessageAdded: { id: string; text: string; liveBlogId: string } }>(
    c,
    'subscription($id: ID!) { liveBlogMessageAdded(liveBlogId: $id) { id text liveBlogId } }',
    { id: 'blog-1' },
  );
  await settled(() => hubCount() > 0);
  // The subscription is registered when a write made after it is seen: post until the first arrives.
  await waitRegistered(sub, () => post('blog-1', 'warm-up'));
  await post('blog-1', 'Kick-off');
  // A warm-up posted before registration was seen may still arrive first.
  while (!sub.results.some((r) => r.data?.liveBlogMessageAdded.text === 'Kick-off'))
    await sub.until(sub.results.length + 1);
  expect(sub.results.filter((r) => r.data?.liveBlogMessageAdded.text !== 'warm-up')).toEqual([
    {
      data: {
        liveBlogMessageAdded: { id: expect.stringMatching(/^blog-1-message-/), text: 'Kick-off', liveBlogId: 'blog-1' },
      },
    },
  ]);
  sub.unsubscribe();
});

test('liveBlogUpdates by websocketRoomName: added, edited and deleted, also for writes made straight into the store', async () => {
  const c = client();
  const sub = collect<{ liveBlogUpdates: { kind: string; messageId: string; message: { text: string } | null } }>(
    c,
    'subscription($room: String!) { liveBlogUpdates(websocketRoomName: $room) { kind liveBlogId messageId message { text } } }',
    { room: 'room-blog-2' },
  );
  await waitRegistered(sub, () => post('blog-2', 'warm-up'));
  const messages = liveMessages(svc.db);
  // The events about ext-1 (a warm-up posted before registration was seen may still arrive in between).
  const about = () => sub.results.filter((r) => r.data?.liveBlogUpdates.messageId === 'ext-1');
  const untilAbout = async (n: number) => {
    while (about().length < n) await sub.until(sub.results.length + 1);
  };
  // Each write waits for its event: an edit's event carries the message as it is when the stream reads it
  // (fullDocument: updateLookup, as on MongoDB), so a delete committed before that read leaves no edit to report.
  await messages.insertOne(liveMessage('ext-1', 'blog-2', 1000, 'from another system'));
  await untilAbout(1);
  await messages.updateOne({ _id: 'ext-1' as never }, { $set: { text: 'corrected' } });
  await untilAbout(2);
  await messages.deleteOne({ _id: 'ext-1' as never });
  await untilAbout(3);
  const results = about();
  expect(results.map((r) => r.data?.liveBlogUpdates)).toEqual([
    { kind: 'ADDED', liveBlogId: 'blog-2', messageId: 'ext-1', message: { text: 'from another system' } },
    { kind: 'EDITED', liveBlogId: 'blog-2', messageId: 'ext-1', message: { text: 'corrected' } },
    { kind: 'DELETED', liveBlogId: 'blog-2', messageId: 'ext-1', message: null },
  ]);
  sub.unsubscribe();
});

test('pollResultsChanged: a vote sends the poll with its new counts', async () => {
  const c = client(bearer(alice.accessToken));
  const sub = collect<{
    pollResultsChanged: { id: string; votes: number; results: Array<{ choiceId: string; votes: number }> };
  }>(c, 'subscription { pollResultsChanged(pollId: "poll-open") { id votes results { choiceId votes } } }');
  await settled(() => hubCount() > 0);
  const polls = svc.db.collection('polls');
  await waitRegistered(sub, () =>
    polls.updateOne({ _id: 'poll-open' as never }, { $set: { message: `m${Date.now()}` } }),
  );
  const before = sub.results.length;
  const vote = await svc.gql(
    'mutation { voteInPoll(pollId: "poll-open", choiceId: "winter") { votes } }',
    {},
    bearer(alice.accessToken),
  );
  expect(vote.body.errors).toBeUndefined();
  const [result] = (await sub.until(before + 1)).slice(before);
  expect(
    result!.data!.pollResultsChanged.results.find((r) => r.choiceId === 'PollChoice:poll-open:winter')!.votes,
  ).toBe(1);
  sub.unsubscribe();
});

test("pollResultsChanged: each subscriber's voted/votedChoice follows their own vote within the subscription", async () => {
  await svc.db.collection('polls').insertOne(openPoll('poll-voted') as never);
  const bob = await tokenFor(svc, { email: 'bob@example.test', scopes: ['openid'] });
  type Voted = {
    pollResultsChanged: {
      voted: boolean;
      votedChoice: string | null;
      results: Array<{ choiceId: string; votes: number }>;
    };
  };
  const q =
    'subscription { pollResultsChanged(pollId: "poll-voted") { voted votedChoice results { choiceId votes } } }';
  const voter = collect<Voted>(client(bearer(bob.accessToken)), q);
  const other = collect<Voted>(client(bearer(alice.accessToken)), q);
  const anonymous = collect<Voted>(client(), q);
  const polls = svc.db.collection('polls');
  const touch = () => polls.updateOne({ _id: 'poll-voted' as never }, { $set: { message: `m${Date.now()}` } });
  for (const sub of [voter, other, anonymous]) await waitRegistered(sub, touch);
  const vote = await svc.gql(
    'mutation { voteInPoll(pollId: "poll-voted", choiceId: "spring") { voted } }',
    {},
    bearer(bob.accessToken),
  );
  expect(vote.body.data).toEqual({ voteInPoll: { voted: true } });
  // The vote's own event (the first with its count): the voter's subscription shows the vote, the others' do
  // not; every event before it showed no vote to anyone.
  const counted = (r: { data?: Voted }) =>
    r.data?.pollResultsChanged.results.find((c) => c.choiceId === 'PollChoice:poll-voted:spring')?.votes === 1;
  const after = [];
  for (const sub of [voter, other, anonymous]) {
    while (!sub.results.some(counted)) await sub.until(sub.results.length + 1);
    const at = sub.results.findIndex(counted);
    expect(
      sub.results.slice(0, at).map((r) => [r.data!.pollResultsChanged.voted, r.data!.pollResultsChanged.votedChoice]),
    ).toEqual(Array(at).fill([false, null]));
    after.push(sub.results[at]!.data!.pollResultsChanged);
  }
  expect(after.map((p) => [p.voted, p.votedChoice])).toEqual([
    [true, 'PollChoice:poll-voted:spring'],
    [false, null],
    [false, null],
  ]);
  for (const s of [voter, other, anonymous]) s.unsubscribe();
});

describe('access', () => {
  test('a bad token in connection_init closes the connection with 4403', async () => {
    const c = client({ authorization: 'Bearer not-a-token' });
    expect((await c.closed).code).toBe(4403);
  });

  test('premium live blogs follow the article access rules', async () => {
    await svc.db.collection('liveBlogs').insertOne(liveBlog('blog-premium') as never);
    await svc.db.collection<ArticleDoc>('articles').insertOne({
      _id: 'premium-article',
      status: 'published',
      premium: true,
      accessControlEnabled: true,
      accessGroups: ['subscription'],
      elements: { liveBlogIds: ['blog-premium'] },
    } as never);
    const q = 'subscription { liveBlogMessageAdded(liveBlogId: "blog-premium") { id } }';
    const anonymous = collect(client(), q);
    await anonymous.ended;
    expect(anonymous.results[0]!.errors![0]!.extensions!.code).toBe('FORBIDDEN');
    const subscriber = await tokenFor(svc, {
      email: 'subscriber@example.test',
      scopes: ['openid'],
      entitlements: [{ group: 'subscription' }],
    });
    const allowed = collect<{ liveBlogMessageAdded: { id: string } }>(client(bearer(subscriber.accessToken)), q);
    await waitRegistered(allowed, () => post('blog-premium', 'members only'));
    expect(allowed.results.at(-1)!.data!.liveBlogMessageAdded.id).toMatch(/^blog-premium-message-/);
    allowed.unsubscribe();
  });

  test('unknown ids are NOT_FOUND; queries and mutations are refused over WebSocket', async () => {
    const c = client();
    const unknown = collect(c, 'subscription { pollResultsChanged(pollId: "no-such-poll") { id } }');
    await unknown.ended;
    expect(unknown.results[0]!.errors![0]!.extensions!.code).toBe('NOT_FOUND');
    const query = collect(c, '{ __typename }');
    await query.ended;
    expect(query.results[0]!.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
  });
});

describe('limits', () => {
  test('subscriptions per connection are limited', async () => {
    const c = client();
    const q = 'subscription { pollResultsChanged(pollId: "poll-open") { id } }';
    const subs = Array.from({ length: 5 }, () => collect(c, q));
    await subs[4]!.ended;
    expect(subs[4]!.results[0]!.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
    for (const s of subs) s.unsubscribe();
  });

  test('a message over the size limit closes the connection (1009)', async () => {
    const c = client();
    collect(c, `subscription { pollResultsChanged(pollId: "${'x'.repeat(70_000)}") { id } }`);
    expect((await c.closed).code).toBe(1009);
  });
});

/** Writes until the subscription sees the first result: the server registers it asynchronously. */
async function waitRegistered(sub: { results: unknown[] }, write: () => Promise<unknown>): Promise<void> {
  const start = sub.results.length;
  while (sub.results.length === start) {
    await write();
    for (let i = 0; i < 20 && sub.results.length === start; i++) await new Promise((r) => setTimeout(r, 10));
  }
}
