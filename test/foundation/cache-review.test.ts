// Shared answers and invalidation at their edges (paths in any case, types shown but not selected, revocation,
// personal answers, deep variables), each as the behaviour the design promises (docs/decisions.md, Caching).
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { aliceCart } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';

let svc: TestService;
const csrf = { 'apollo-require-preflight': 'true' };
const DEADLINE_MS = 2_000;

beforeAll(async () => {
  svc = await startTestService({
    env: { RESPONSE_CACHE_MB: '16', CACHE_MAX_AGE: '60', RESPONSE_CACHE_TTL_SECONDS: '600' },
    beforeStart: (store) =>
      f.insert(store.db, {
        articles: [
          f.article('carrier', {
            elements: { liveBlogIds: ['blog-1'], pollIds: [], quizIds: [], videoPlatformVideoIds: [] },
          }),
          f.article('soon-premium', { body: '<p>will be gold</p>' }),
          f.article('gold', {
            premium: true,
            free: false,
            accessControlEnabled: true,
            accessGroups: ['gold'],
            body: '<p>gold only</p>',
          }),
          f.article('to-delete'),
          f.article('plain'),
          f.article('plain-2'),
        ],
        liveBlogs: [f.liveBlog('blog-1', 3)],
        liveBlogMessages: [1, 2, 3].map((seq) => f.message('blog-1', seq)),
      }),
  });
});
afterAll(() => svc.close());

const get = (query: string, variables?: object) =>
  fetch(
    `${svc.url}/graphql?${new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) })}`,
    { headers: csrf },
  );
async function until<T>(ask: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const end = Date.now() + DEADLINE_MS;
  let v = await ask();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    v = await ask();
  }
  return v;
}
const makeGold = (id: string) =>
  svc.db
    .collection('articles')
    .updateOne(
      { _id: id as never },
      { $set: { premium: true, free: false, accessControlEnabled: true, accessGroups: ['gold'] } },
    );

test('making the carrying article premium evicts a live blog read through node(id:)', async () => {
  const NODE = 'query B($id: ID!) { node(id: $id) { ... on LiveBlog { accessAllowed previewMessages { id } } } }';
  const VIA_ARTICLE = '{ article(id: "carrier") { elements { liveBlogs { accessAllowed } } } }';
  const viaNode = async () => ((await (await get(NODE, { id: 'blog-1' })).json()) as any).data.node;
  const viaArticle = async () =>
    ((await (await get(VIA_ARTICLE)).json()) as any).data.article.elements.liveBlogs[0].accessAllowed;
  expect((await viaNode()).previewMessages).toHaveLength(3);
  expect((await get(NODE, { id: 'blog-1' })).headers.get('x-cache')).toBe('HIT');
  expect(await viaArticle()).toBe(true);

  await makeGold('carrier');
  // The stream has passed the write once the answer through the article changes.
  expect(await until(viaArticle, (v) => v === false)).toBe(false);
  const after = await until(viaNode, (v) => v.accessAllowed === false);
  expect(after).toEqual({ accessAllowed: false, previewMessages: [] });
});

test('a shared answer stored through /GRAPHQL is a GraphQL answer: writes evict it from /graphql too', async () => {
  const plain = (await tokenFor(svc, { scopes: ['openid'] })).accessToken;
  const Q = 'query Soon($id: ID!) { article(id: $id) { accessAllowed body } }';
  const post = async (path: string) => {
    const res = await fetch(`${svc.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(plain) },
      body: JSON.stringify({ query: Q, variables: { id: 'soon-premium' } }),
    });
    return { cache: res.headers.get('x-cache'), article: ((await res.json()) as any).data.article };
  };
  expect(await post('/GRAPHQL')).toEqual({
    cache: 'MISS',
    article: { accessAllowed: true, body: '<p>will be gold</p>' },
  });
  expect((await post('/graphql')).cache).toBe('HIT');
  const anon = async () => ((await (await get(Q, { id: 'soon-premium' })).json()) as any).data.article.body;
  expect(await anon()).toBe('<p>will be gold</p>');

  await makeGold('soon-premium');
  expect(await until(anon, (b) => b === null)).toBeNull();
  const after = await until(
    () => post('/graphql'),
    (r) => r.article.body === null,
  );
  expect(after.article).toEqual({ accessAllowed: false, body: null });
});

test('a revoked token is refused at once, also when a shared answer is stored', async () => {
  const issued = await tokenFor(svc, { scopes: ['openid'], entitlements: [{ group: 'gold' }] });
  const Q = 'query G { article(id: "gold") { body } }';
  const post = () =>
    fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(issued.accessToken) },
      body: JSON.stringify({ query: Q }),
    });
  await (await post()).text();
  expect((await post()).headers.get('x-cache')).toBe('HIT'); // the fast path now remembers the viewer
  const { jti } = JSON.parse(Buffer.from(issued.accessToken.split('.')[1]!, 'base64url').toString()) as { jti: string };
  await svc.service.app.revocations.revokeToken(jti);
  const res = await post();
  expect({ status: res.status, body: await res.text() }).toMatchObject({ status: 401 });
});

test('an answer selecting only __typename below a root field is evicted when its document goes', async () => {
  const Q = '{ article(id: "to-delete") { __typename } }';
  const CONTROL = '{ article(id: "to-delete") { id } }';
  const ask = async (q: string) => ((await (await get(q)).json()) as any).data.article;
  expect(await ask(Q)).toEqual({ __typename: 'Article' });
  expect(await ask(CONTROL)).toEqual({ id: 'to-delete' });
  await svc.db.collection('articles').deleteOne({ _id: 'to-delete' as never });
  expect(
    await until(
      () => ask(CONTROL),
      (v) => v === null,
    ),
  ).toBeNull();
  expect(
    await until(
      () => ask(Q),
      (v) => v === null,
    ),
  ).toBeNull();
});

test('a signed-in node(id:) read of an article is shareable', async () => {
  const plain = (await tokenFor(svc, { scopes: ['openid'] })).accessToken;
  const res = await svc.gql('{ node(id: "gold") { id } }', {}, bearer(plain));
  expect(res.headers.get('cache-control')).toMatch(/private/);
});

test("deeply nested variables are the client's problem (400), never a 500, anonymous or signed in", async () => {
  const plain = (await tokenFor(svc, { scopes: ['openid'] })).accessToken;
  const depth = 100_000; // 200 KB body: through Koa's parser (1 MiB limit)
  const body = `{"query":"{ service { __typename } }","variables":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
  const send = (headers: Record<string, string>) =>
    fetch(`${svc.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  // Both keys (the cost's, the shared answer's) once serialised such variables recursively: a stack overflow, 500.
  expect([(await send({})).status, (await send(bearer(plain))).status]).toEqual([400, 400]);
});

test("a cart by node(id:) is its owner's alone, and one written after a shared null answer for its id shows at once", async () => {
  const owner = await tokenFor(svc, { scopes: ['openid', 'cart'] });
  const other = await tokenFor(svc, { scopes: ['openid', 'cart'] });
  const Q = 'query C($id: ID!) { node(id: $id) { __typename id } }';
  const ask = async (token: string) => {
    const res = await svc.gql<{ node: unknown }>(Q, { id: 'cart-late' }, bearer(token));
    return { cacheControl: res.headers.get('cache-control'), node: res.body.data?.node };
  };
  // No cart has the id: the same answer for every reader, shared.
  expect(await ask(owner.accessToken)).toEqual({ cacheControl: expect.stringMatching(/private/), node: null });
  await svc.db.collection('carts').insertOne({ ...aliceCart, _id: 'cart-late' as never, customerId: owner.customerId });
  // The write evicts the shared null answer; the cart is then its owner's, never stored for another reader.
  expect(
    await until(
      () => ask(owner.accessToken),
      (r) => r.node !== null,
    ),
  ).toEqual({ cacheControl: 'no-store', node: { __typename: 'Cart', id: 'cart-late' } });
  expect(await ask(other.accessToken)).toEqual({ cacheControl: 'no-store', node: null });
  expect(await ask(owner.accessToken)).toEqual({
    cacheControl: 'no-store',
    node: { __typename: 'Cart', id: 'cart-late' },
  });
});

test('variables nested deeper than the limit are refused over GET too, and an answer with shallow ones still comes', async () => {
  const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)]);
  // The variables object is the first level.
  const res = await get('{ service { __typename } }', { x: deep(64) });
  expect(res.status).toBe(400);
  expect(((await res.json()) as any).errors[0].extensions.code).toBe('BAD_USER_INPUT');
  expect((await get('{ service { __typename } }', { x: deep(63) })).status).toBe(200);
});

test('a write to an article leaves static answers (the OpenAPI document) cached', async () => {
  const doc = async () => {
    const res = await fetch(`${svc.url}/openapi.json`);
    await res.text();
    return res.headers.get('x-cache');
  };
  const title = async () =>
    ((await (await get('{ article(id: "plain") { title } }')).json()) as any).data.article.title;
  await doc();
  expect(await doc()).toBe('HIT');
  await title();
  await svc.db.collection('articles').updateOne({ _id: 'plain' as never }, { $set: { title: 'changed' } });
  expect(await until(title, (t) => t === 'changed')).toBe('changed');
  expect(await doc()).toBe('HIT');
});

test('a cart write evicts no anonymous node(id:) answer (anonymous readers never look carts up)', async () => {
  const NODE = '{ node(id: "plain-2") { ... on Article { title } } }';
  const cache = async (q: string) => {
    const res = await get(q);
    await res.text();
    return res.headers.get('x-cache');
  };
  await cache(NODE);
  expect(await cache(NODE)).toBe('HIT');
  // A signed-in reader's shared null answer for the id the cart will have: its eviction marks the write as seen.
  const reader = (await tokenFor(svc, { scopes: ['openid'] })).accessToken;
  const shared = async () =>
    (await svc.gql('{ node(id: "cart-x") { id } }', {}, bearer(reader))).headers.get('x-cache');
  await shared();
  expect(await shared()).toBe('HIT');
  await svc.db.collection('carts').insertOne({ ...aliceCart, _id: 'cart-x' as never });
  expect(await until(shared, (c) => c !== 'HIT')).not.toBe('HIT');
  expect(await cache(NODE)).toBe('HIT');
});
