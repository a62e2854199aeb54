// Signed-in readers share answers by entitlement set: an operation without per-viewer fields is computed once
// for every reader holding the same active entitlements (GET or POST), served `private`, and never given to a
// reader with other entitlements; per-viewer operations stay `no-store`; a bad token is refused before any of it.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import type { Db } from 'mongodb';
import { connect } from 'node:net';
import { loadConfig } from '../../src/config.js';
import { createContext, type Viewer } from '../../src/context.js';
import { cacheControlDirective } from '../../src/graphql/cache-control.js';
import { createApolloServer } from '../../src/graphql/server.js';
import { createLogger } from '../../src/logger.js';
import * as f from '../content/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';

let svc: TestService;
const inAMonth = new Date(Date.now() + 30 * 86_400_000);

beforeAll(async () => {
  // Written before the service starts, so no eviction reported later can keep the first answers from being stored.
  svc = await startTestService({ env: { RESPONSE_CACHE_MB: '16' }, beforeStart: (store) => insertFixtures(store.db) });
});
afterAll(() => svc.close());

async function insertFixtures(db: Db): Promise<void> {
  await f.insert(db, {
    articles: [
      f.article('a-gold', {
        premium: true,
        free: false,
        accessControlEnabled: true,
        accessGroups: ['gold'],
        previewLimit: 4,
        body: '<p>gold only</p>',
        elements: { liveBlogIds: [], pollIds: ['poll-1'], quizIds: [], videoPlatformVideoIds: [] },
      }),
    ],
    polls: [f.poll('poll-1')],
  });
}

const ARTICLE = 'query Gold($id: ID!) { article(id: $id) { id accessAllowed body preview } }';
const VOTES = 'query Votes { article(id: "a-gold") { elements { polls { id voted votedChoice } } } }';

async function post(query: string, token?: string, variables: Record<string, unknown> = {}) {
  const res = await svc.gql<any>(query, variables, token ? bearer(token) : {});
  return { ...res, cache: res.headers.get('x-cache'), cacheControl: res.headers.get('cache-control') };
}

async function reader(entitlements: Array<{ group: string; validUntil?: Date | null }>) {
  return (await tokenFor(svc, { scopes: ['openid'], entitlements })).accessToken;
}

describe('by entitlement set', () => {
  let goldA: string;
  let goldB: string;
  let plain: string;
  let lapsed: string;

  beforeAll(async () => {
    [goldA, goldB, plain, lapsed] = await Promise.all([
      reader([{ group: 'gold' }]),
      reader([
        { group: 'gold', validUntil: null },
        { group: 'gold', validUntil: inAMonth },
      ]),
      reader([]),
      reader([{ group: 'gold', validUntil: new Date(Date.now() - 1000) }]),
    ]);
  });

  test('a premium body is shared among readers holding the entitlement, and never reaches one without it', async () => {
    const first = await post(ARTICLE, goldA, { id: 'a-gold' });
    expect(first.status).toBe(200);
    expect(first.body.data.article).toMatchObject({ accessAllowed: true, body: '<p>gold only</p>' });
    expect(first.cacheControl).toMatch(/^max-age=\d+, private$/);
    expect(first.cache).toBe('MISS');

    // Another customer with the same active set gets the stored bytes.
    const second = await post(ARTICLE, goldB, { id: 'a-gold' });
    expect(second.cache).toBe('HIT');
    expect(second.body).toEqual(first.body);

    // Without the entitlement (none, or lapsed): computed for that set, never the gold answer.
    for (const token of [plain, lapsed]) {
      const res = await post(ARTICLE, token, { id: 'a-gold' });
      expect(res.status).toBe(200);
      expect(res.body.data.article).toEqual({ id: 'a-gold', accessAllowed: false, body: null, preview: 'The ' });
      expect(JSON.stringify(res.body)).not.toContain('gold only');
    }
    // The lapsed reader's set is the empty one: the plain reader's answer, served from the cache.
    expect((await post(ARTICLE, lapsed, { id: 'a-gold' })).cache).toBe('HIT');
    // And the anonymous reader never sees either.
    const anonymous = await post(ARTICLE, undefined, { id: 'a-gold' });
    expect(anonymous.body.data.article.body).toBeNull();
    expect(anonymous.cache).toBeNull();
  });

  test('GET from a signed-in reader is shared too, and keyed by variables', async () => {
    const url = (id: string) =>
      `${svc.url}/graphql?${new URLSearchParams({ query: ARTICLE, variables: JSON.stringify({ id }) })}`;
    const headers = { 'apollo-require-preflight': 'true' };
    const first = await fetch(url('a-gold'), { headers: { ...headers, ...bearer(goldA) } });
    const firstBody = await first.text();
    expect(first.headers.get('cache-control')).toMatch(/^max-age=\d+, private$/);
    // The same URL is answered publicly to anonymous readers: a browser must not mix the two.
    expect(first.headers.get('vary')).toMatch(/\bAuthorization\b/);
    const again = await fetch(url('a-gold'), { headers: { ...headers, ...bearer(goldB) } });
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(await again.text()).toBe(firstBody);
    const conditional = await fetch(url('a-gold'), {
      headers: { ...headers, ...bearer(goldB), 'if-none-match': first.headers.get('etag')! },
    });
    expect(conditional.status).toBe(304);

    const other = await fetch(url('no-such-article'), { headers: { ...headers, ...bearer(goldA) } });
    expect(((await other.json()) as any).data.article).toBeNull();
  });

  test("the answer is not kept past the first active entitlement's end", async () => {
    const soon = await reader([{ group: 'gold', validUntil: new Date(Date.now() + 20_000) }, { group: 'silver' }]);
    const res = await post(ARTICLE, soon, { id: 'a-gold' });
    expect(res.body.data.article.body).toBe('<p>gold only</p>');
    const maxAge = Number(/^max-age=(\d+), private$/.exec(res.cacheControl ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(20);
  });

  test('a body the fast path cannot use reaches Koa whole: bad JSON is a 400, a large body is answered', async () => {
    const bad = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(goldA) },
      body: '{"query": ',
    });
    expect(bad.status).toBe(400);
    const padded = JSON.stringify({ query: `${ARTICLE}${' '.repeat(200_000)}`, variables: { id: 'a-gold' } });
    for (const expected of ['MISS', 'HIT']) {
      const res = await fetch(`${svc.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(goldA) },
        body: padded,
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBe(expected);
      expect(((await res.json()) as any).data.article.body).toBe('<p>gold only</p>');
    }
  });

  test('a client that leaves before sending the body it announced costs nothing, and the next one is answered', async () => {
    const { port } = new URL(svc.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\nAuthorization: Bearer ${goldA}\r\n\r\n{"query":`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', reject);
    });
    const res = await post(ARTICLE, goldA, { id: 'a-gold' });
    expect(res.status).toBe(200);
    expect(res.body.data.article.body).toBe('<p>gold only</p>');
  });

  test('a hit answered before Koa carries the headers of one answered through the chain', async () => {
    const body = JSON.stringify({ query: ARTICLE, variables: { id: 'a-gold' }, operationName: 'Gold' });
    const headers = { 'content-type': 'application/json', ...bearer(goldA) };
    await (await fetch(`${svc.url}/graphql`, { method: 'POST', headers, body })).text();
    const fast = await fetch(`${svc.url}/graphql`, { method: 'POST', headers, body });
    const chain = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { ...headers, origin: 'https://elsewhere.example' },
      body,
    });
    expect([fast.headers.get('x-cache'), chain.headers.get('x-cache')]).toEqual(['HIT', 'HIT']);
    expect(await fast.text()).toBe(await chain.text());
    const perDelivery = new Set(['date', 'x-request-id', 'age', 'connection', 'keep-alive', 'vary']);
    const comparable = (res: Response) =>
      Object.fromEntries(
        [...res.headers].filter(([name]) => !perDelivery.has(name) && !name.startsWith('access-control-')),
      );
    expect(comparable(fast)).toEqual(comparable(chain));
  });

  test('an invalid token is a 401 even when an answer for the query is stored', async () => {
    await post(ARTICLE, goldA, { id: 'a-gold' });
    for (const token of [`${goldA.slice(0, -4)}AAAA`, 'not-a-jwt']) {
      const res = await post(ARTICLE, token, { id: 'a-gold' });
      expect(res.status).toBe(401);
      expect(res.cache).toBeNull();
      expect(JSON.stringify(res.body)).not.toContain('gold only');
    }
  });
});

describe('per-viewer fields', () => {
  test('an operation selecting one is no-store, and each reader sees their own value', async () => {
    const [voter, other] = await Promise.all([reader([{ group: 'gold' }]), reader([{ group: 'gold' }])]);
    const tokens = await Promise.all([voter, other].map(async (t) => ({ token: t, id: await customerOf(t) })));
    await svc.db.collection('pollVotes').insertOne({
      _id: 'v-1' as never,
      pollId: 'poll-1',
      customerId: tokens[0]!.id,
      choiceId: 'yes',
      votedAt: new Date(),
    });

    const mine = await post(VOTES, tokens[0]!.token);
    expect(mine.cacheControl).toBe('no-store');
    expect(mine.body.data.article.elements.polls).toEqual([
      { id: 'poll-1', voted: true, votedChoice: 'PollChoice:poll-1:yes' },
    ]);
    const theirs = await post(VOTES, tokens[1]!.token);
    expect(theirs.cacheControl).toBe('no-store');
    expect(theirs.cache).toBeNull();
    expect(theirs.body.data.article.elements.polls).toEqual([{ id: 'poll-1', voted: false, votedChoice: null }]);
  });

  test('viewer and carts are never shared', async () => {
    const token = await reader([]);
    const res = await post('{ viewer { customerId } }', token);
    expect(res.cacheControl).toBe('no-store');
    expect(res.body.data.viewer.customerId).toBe(await customerOf(token));
  });

  test('mutations are never stored', async () => {
    const token = (await tokenFor(svc, { scopes: ['openid', 'cart'] })).accessToken;
    const res = await post(
      'mutation { removeCouponFromCart(input: { cartId: "none", couponCode: "X" }) { id } }',
      token,
    );
    expect(res.cacheControl).toBe('no-store');
    expect(res.cache).toBeNull();
  });

  test('anonymous answers with per-viewer fields stay public (there is no viewer)', async () => {
    const res = await post(VOTES);
    expect(res.cacheControl).toBe('max-age=60, public');
    expect(res.body.data.article.elements.polls).toEqual([{ id: 'poll-1', voted: false, votedChoice: null }]);
  });
});

test('fail closed: a field without the marker that reads who the viewer is makes the answer no-store', async () => {
  const query = new GraphQLObjectType({
    name: 'Query',
    fields: {
      headline: { type: GraphQLString, resolve: () => 'same for all' },
      greeting: { type: GraphQLString, resolve: (_p, _a, ctx: { viewer: Viewer }) => `hello ${ctx.viewer.customerId}` },
    },
  });
  const schema = new GraphQLSchema({ query, directives: [cacheControlDirective] });
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const apollo = createApolloServer(schema, config);
  await apollo.start();
  const viewer: Viewer = { customerId: 'c-1', scopes: new Set(), entitlements: async () => [] };
  const run = async (q: string) => {
    const context = createContext({
      requestId: 'r',
      log: createLogger('silent'),
      config,
      store: svc.store,
      mailer: undefined as never,
      viewer,
    });
    const res = await apollo.executeOperation({ query: q }, { contextValue: context });
    return { cacheControl: res.http.headers.get('cache-control'), shared: context.http.shared };
  };
  expect(await run('{ headline }')).toEqual({ cacheControl: 'max-age=60, private', shared: { personal: false } });
  expect(await run('{ headline greeting }')).toEqual({
    cacheControl: 'no-store',
    shared: { personal: true, readBy: 'customerId' },
  });
  await apollo.stop();
});

async function customerOf(token: string): Promise<string> {
  const res = await post('{ viewer { customerId } }', token);
  return res.body.data.viewer.customerId as string;
}
