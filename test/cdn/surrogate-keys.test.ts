// Surrogate keys and CDN lifetimes over HTTP: public answers name what they show (`Surrogate-Key`, `Cache-Tag`)
// and how long a CDN may keep them; private answers say nothing a shared cache could act on; what a write purges
// (the cache-purge event) matches the keys of exactly the answers that show it.
import { AnswerKeys } from '../../src/cache/answer-keys.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';
import { insertCatalogue } from '../catalogue/fixtures.js';
import { article } from '../content/fixtures.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    env: {
      CACHE_MAX_AGE: '60',
      CDN_MAX_AGE: '3600',
      CDN_STALE_WHILE_REVALIDATE: '30',
      WEBHOOKS: 'false',
      RESPONSE_CACHE_MB: '16',
    },
    beforeStart: async (store) => {
      await store.db
        .collection('articles')
        .insertMany([article('k-1'), article('k-2'), article('k-draft', { status: 'draft' })] as never[]);
      await insertCatalogue(store);
    },
  });
}, 60_000);
afterAll(() => svc?.close());

const get = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${svc.url}/graphql?${new URLSearchParams({ query }).toString()}`, { headers });
const keysOf = (res: Response) => res.headers.get('surrogate-key')?.split(' ');

test('an article answer carries its own key only, for Fastly/Varnish and Cloudflare alike', async () => {
  const res = await get('{ article(id: "k-1") { id title seo { searchTitle } } }');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('max-age=60, public');
  expect(res.headers.get('surrogate-key')).toBe('all article:k-1');
  expect(res.headers.get('cache-tag')).toBe('all,article:k-1');
  expect(res.headers.get('surrogate-control')).toBe('max-age=3600, stale-while-revalidate=30');
  expect(res.headers.get('cdn-cache-control')).toBe('max-age=3600, stale-while-revalidate=30');
});

test("the service's own cache answers with the same keys and lifetime", async () => {
  const query = '{ article(id: "k-2") { id title } }';
  const first = await get(query);
  const hit = await get(query);
  expect(hit.headers.get('x-cache')).toBe('HIT');
  for (const header of ['surrogate-key', 'cache-tag', 'surrogate-control', 'cdn-cache-control'])
    expect(hit.headers.get(header)).toBe(first.headers.get(header));
  expect(hit.headers.get('surrogate-key')).toBe('all article:k-2');
});

test('an answer whose article is not (yet) public depends on every article write', async () => {
  const res = await get('{ article(id: "k-draft") { title } }');
  expect(((await res.json()) as { data: { article: null } }).data.article).toBeNull();
  expect(keysOf(res)).toEqual(['all', 'articles']);
});

test('lists name their collection; entities reached by id are named one by one', async () => {
  const list = await get('{ articles(first: 5) { edges { node { id title } } } }');
  expect(list.status).toBe(200);
  expect(keysOf(list)).toContain('articles');
  expect(keysOf(list)?.some((k) => k.startsWith('article:'))).toBe(false);
  const product = await get(`{ product(id: "prod-weekly") { id name } }`);
  expect(product.status).toBe(200);
  expect(keysOf(product)).toEqual(['all', `product:prod-weekly`]);
});

test('REST lists carry the collections their route shows', async () => {
  const res = await fetch(`${svc.url}/cms/product/categories`);
  expect(res.status).toBe(200);
  expect(keysOf(res)).toEqual(expect.arrayContaining(['all', 'products', 'productItems', 'productCategories']));
  expect(res.headers.get('surrogate-control')).toBe('max-age=3600, stale-while-revalidate=30');
});

test('private answers carry no keys and no CDN lifetime', async () => {
  const reader = await tokenFor(svc);
  const res = await get('{ article(id: "k-1") { title } }', bearer(reader.accessToken));
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toMatch(/private/);
  for (const header of ['surrogate-key', 'cache-tag', 'surrogate-control', 'cdn-cache-control'])
    expect(res.headers.get(header)).toBeNull();
});

test('uncacheable answers carry no keys', async () => {
  const res = await get('{ article(id: "k-1") { title } nope }');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('surrogate-key')).toBeNull();
});

test('past the size bound the most numerous kind gives way to its collection key', () => {
  const keys = new AnswerKeys();
  for (let i = 0; i < 100; i++) keys.object('Article', { id: `a-long-article-id-${i}` });
  keys.object('Issue', { id: 'i-1' });
  const all = keys.keys(undefined, 10_000);
  expect(all).toHaveLength(102);
  const bounded = keys.keys(undefined, 500);
  expect(bounded).toEqual(['all', 'articles', 'issue:i-1']);
  expect(bounded.join(' ').length).toBeLessThanOrEqual(500);
});
