// Invalidation of the response cache on writes: two gateway processes on one engine both serve an answer from
// their cache; a write made straight into the store (another system, not through a gateway) evicts it on both,
// so both answer the new content within the 2 s. Also: the REST category list, the collection map,
// and the service keeping an entry longer than the max-age it sends.
import { buildGatewaySchema } from '../../src/graphql/build-schema.js';
import { SHOWN_BY, SHOWN_COLLECTIONS, EVERYTHING } from '../../src/cache/shown-by.js';
import { isObjectType, isInterfaceType } from 'graphql';
import { ensureBuilt } from '../helpers/built.js';
import type { Child } from '../helpers/child.js';
import { spawnGateway } from '../helpers/gateway.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { insertCatalogue } from '../catalogue/fixtures.js';
import { article } from '../content/fixtures.js';

const DEADLINE_MS = 2_000;
const csrf = { 'apollo-require-preflight': 'true' };
const QUERY = 'query CachedTitle { article(id: "inv-1") { id title } }';

let svc: TestService;
let child: Child;
let childUrl: string;

beforeAll(async () => {
  await ensureBuilt();
  const env = { RESPONSE_CACHE_MB: '16', CACHE_MAX_AGE: '60', RESPONSE_CACHE_TTL_SECONDS: '600' };
  svc = await startTestService({
    env,
    beforeStart: async (store) => {
      await store.db.collection('articles').insertOne(article('inv-1', { title: 'First title' }) as never);
      await insertCatalogue(store);
    },
  });
  ({ child, url: childUrl } = await spawnGateway(svc.db.databaseName, env));
}, 120_000);
afterAll(async () => {
  child?.proc.kill('SIGTERM');
  await child?.exited;
  await svc?.close();
});

const graphqlGet = (base: string) =>
  fetch(`${base}/graphql?${new URLSearchParams({ query: QUERY }).toString()}`, { headers: csrf });
const titleOf = async (res: Response) =>
  ((await res.json()) as { data: { article: { title: string } | null } }).data.article?.title;

/** Asks until `answer` says `expected` or the deadline passes; returns the last answer. */
async function untilSeen(
  ask: () => Promise<string | undefined>,
  expected: string,
  deadlineMs: number,
): Promise<string | undefined> {
  const end = Date.now() + deadlineMs;
  let seen = await ask();
  while (seen !== expected && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await ask();
  }
  return seen;
}

test('a title changed straight in the store reaches the cached answers of both processes within 2 s', async () => {
  for (const base of [svc.url, childUrl]) {
    const first = await graphqlGet(base);
    expect(await titleOf(first)).toBe('First title');
    const second = await graphqlGet(base);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('cache-control')).toBe('max-age=60, public');
    expect(await titleOf(second)).toBe('First title');
  }

  await svc.db.collection('articles').updateOne({ _id: 'inv-1' as never }, { $set: { title: 'Second title' } });
  const [here, there] = await Promise.all(
    [svc.url, childUrl].map((base) =>
      untilSeen(async () => titleOf(await graphqlGet(base)), 'Second title', DEADLINE_MS),
    ),
  );
  expect(here).toBe('Second title');
  expect(there).toBe('Second title');
});

test('a write to a collection no cached answer shows leaves the entries in place', async () => {
  const digital = async () =>
    ((await (await fetch(`${childUrl}/cms/product/categories`)).json()) as Array<{ id: string; name: string }>).find(
      (c) => c.id === 'cat-digital',
    )?.name;
  expect(await digital()).toBe('Digital');
  await (await graphqlGet(childUrl)).text();
  await svc.db.collection('settings').insertOne({ _id: 'unrelated' as never, value: 1, updatedAt: new Date() });
  // A later catalogue write: once the child shows it, the stream has passed the settings write (and this one
  // evicts catalogue answers only, not the article's).
  await svc.db.collection('productCategories').updateOne({ _id: 'cat-digital' as never }, { $set: { name: 'Online' } });
  expect(await untilSeen(digital, 'Online', DEADLINE_MS)).toBe('Online');
  const after = await graphqlGet(childUrl);
  expect(after.headers.get('x-cache')).toBe('HIT');
  expect(await titleOf(after)).toBe('Second title');
});

test('the REST category list is evicted on both processes when a category changes in the store', async () => {
  const names = async (base: string) => {
    const res = await fetch(`${base}/cms/product/categories`);
    const body = (await res.json()) as Array<{ id: string; name: string }>;
    return { cache: res.headers.get('x-cache'), name: body.find((c) => c.id === 'cat-books')?.name };
  };
  for (const base of [svc.url, childUrl]) {
    expect((await names(base)).name).toBe('Books');
    expect(await names(base)).toEqual({ cache: 'HIT', name: 'Books' });
  }
  await svc.db
    .collection('productCategories')
    .updateOne({ _id: 'cat-books' as never }, { $set: { name: 'Paper books' } });
  for (const base of [svc.url, childUrl]) {
    expect(await untilSeen(async () => (await names(base)).name, 'Paper books', DEADLINE_MS)).toBe('Paper books');
  }
});

test('every collection a cached answer can show is mapped to types of the schema', async () => {
  const schema = await buildGatewaySchema();
  for (const [collection, types] of Object.entries(SHOWN_BY)) {
    for (const type of types) {
      if (type === EVERYTHING) continue;
      const named = schema.getType(type);
      expect({ collection, type, known: Boolean(named && (isObjectType(named) || isInterfaceType(named))) }).toEqual({
        collection,
        type,
        known: true,
      });
    }
  }
  for (const content of [
    'articles',
    'pages',
    'issues',
    'authors',
    'keywords',
    'contentCategories',
    'videos',
    'products',
    'productItems',
    'productCategories',
    'polls',
    'quizzes',
    'liveBlogs',
    'channels',
  ]) {
    expect(SHOWN_COLLECTIONS).toContain(content);
  }
  // What the store holds after the fixtures: every collection is named in the map (shown or explicitly not).
  const stored = (await svc.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name);
  for (const name of stored) expect(Object.keys(SHOWN_BY)).toContain(name);
  // An article is shown by Article and by the types that embed it.
  expect(SHOWN_BY.articles).toEqual(expect.arrayContaining(['Article', 'Issue', 'IssueContent', 'Page', 'Node']));
  expect(SHOWN_BY.products).toEqual(expect.arrayContaining(['Product', 'ProductItem', 'ProductCategory']));
});

describe('the service keeps an entry longer than the max-age it sends', () => {
  let short: TestService;
  beforeAll(async () => {
    short = await startTestService({
      env: { RESPONSE_CACHE_MB: '16', CACHE_MAX_AGE: '1', RESPONSE_CACHE_TTL_SECONDS: '600' },
      beforeStart: async (store) =>
        void (await store.db.collection('articles').insertOne(article('inv-1', { title: 'Kept' }) as never)),
    });
  });
  afterAll(() => short?.close());

  test('past its 1 s max-age the answer is still a hit, sent with an Age inside the max-age', async () => {
    const first = await graphqlGet(short.url);
    expect(first.headers.get('cache-control')).toBe('max-age=1, public');
    expect(await titleOf(first)).toBe('Kept');
    await new Promise((r) => setTimeout(r, 1_500));
    const later = await graphqlGet(short.url);
    expect(later.headers.get('x-cache')).toBe('HIT');
    expect(later.headers.get('cache-control')).toBe('max-age=1, public');
    expect(Number(later.headers.get('age'))).toBeLessThan(1);
    expect(await titleOf(later)).toBe('Kept');
  });
});
