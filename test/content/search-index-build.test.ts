// The articles' text index over an archive that predates it: the store opens without waiting for its build,
// searchArticles is refused with SEARCH_UNAVAILABLE until it is ready, then answers.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { contentIndexes } from '../../src/store/content/indexes.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from './fixtures.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
  await f.insert(svc.db, {
    articles: Array.from({ length: 200 }, (_, i) =>
      f.article(`old-${i}`, { title: `Harbour report number ${i}`, summary: 'Ferries and tides.' }),
    ),
  });
});
afterAll(() => svc.close());

const SEARCH = '{ searchArticles(query: "harbour", first: 2) { totalCount edges { node { id } } } }';

test('without its text index, searchArticles is SEARCH_UNAVAILABLE, and other reads answer', async () => {
  await svc.db.collection('articles').dropIndex('articles_text');
  const refused = await svc.gql(SEARCH);
  expect(refused.body.errors?.map((e) => e.extensions?.code)).toEqual(['SEARCH_UNAVAILABLE']);
  expect(refused.body.errors?.[0]?.message).toBe('Service Unavailable');
  // An execution error, as every resolver's refusal: the answer is 200 and the field carries the error.
  expect(refused.status).toBe(200);
  const other = await svc.gql<{ article: { id: string } }>('{ article(id: "old-1") { id } }');
  expect(other.body).toEqual({ data: { article: { id: 'old-1' } } });
});

test('over existing articles the index is built after the store opened, and search answers once it is', async () => {
  const indexNames = async () => (await svc.db.collection('articles').listIndexes().toArray()).map((i) => i.name);
  if ((await indexNames()).includes('articles_text')) await svc.db.collection('articles').dropIndex('articles_text');
  await svc.store.ensureIndexes(contentIndexes);
  expect(await svc.store.indexBuilds).toEqual([{ name: 'articles_text' }]);
  expect(await indexNames()).toContain('articles_text');
  const found = await svc.gql<{ searchArticles: { totalCount: number } }>(SEARCH);
  expect(found.body.errors).toBeUndefined();
  expect(found.body.data?.searchArticles.totalCount).toBe(200);
});

test("an articles' text index of an older specification is replaced at start, and search answers over the new one", async () => {
  const articles = svc.db.collection('articles');
  await articles.dropIndex('articles_text');
  // As a store made before the status was part of the index holds it.
  await articles.createIndex(
    { title: 'text', summary: 'text' },
    { name: 'articles_text', weights: { title: 10, summary: 4 }, default_language: 'english' },
  );
  await svc.store.ensureIndexes(contentIndexes);
  await svc.store.indexBuilds;
  const text = (await articles.listIndexes().toArray()).filter((i) => (i.key as { _fts?: string })._fts === 'text');
  expect(text.map((i) => ({ name: i.name, key: i.key }))).toEqual([
    { name: 'articles_text', key: { _fts: 'text', _ftsx: 1, status: 1 } },
  ]);
  const found = await svc.gql<{ searchArticles: { totalCount: number } }>(SEARCH);
  expect(found.body.errors).toBeUndefined();
  expect(found.body.data?.searchArticles.totalCount).toBe(200);
  // A start on a store that has it now leaves it as it is.
  const before = await articles.listIndexes().toArray();
  await svc.store.ensureIndexes(contentIndexes);
  expect(await articles.listIndexes().toArray()).toEqual(before);
});

test('two gateways starting together on a store with the older index both start, and one index is built', async () => {
  const articles = svc.db.collection('articles');
  await articles.dropIndex('articles_text');
  await articles.createIndex(
    { title: 'text', summary: 'text' },
    { name: 'articles_text', weights: { title: 10, summary: 4 }, default_language: 'english' },
  );
  const other = await Store.onDb(svc.client, svc.db, { indexes: [] });
  // Only the deferred index, so that both read the store's indexes before either drops the older one.
  const deferred = contentIndexes.filter((d) => d.deferred);
  await Promise.all([svc.store.ensureIndexes(deferred), other.ensureIndexes(deferred)]);
  await Promise.all([svc.store.indexBuilds, other.indexBuilds]);
  const text = (await articles.listIndexes().toArray()).filter((i) => (i.key as { _fts?: string })._fts === 'text');
  expect(text.map((i) => ({ name: i.name, key: i.key }))).toEqual([
    { name: 'articles_text', key: { _fts: 'text', _ftsx: 1, status: 1 } },
  ]);
  const found = await svc.gql<{ searchArticles: { totalCount: number } }>(SEARCH);
  expect(found.body.data?.searchArticles.totalCount).toBe(200);
});

test('a bulk load (the seed) sets the text index aside while the articles are empty, and builds it over them after', async () => {
  const t = await openTestDb('bulk-load');
  try {
    const store = await Store.onDb(t.client, t.db);
    const articles = t.db.collection('articles');
    expect((await articles.listIndexes().toArray()).map((i) => i.name)).toContain('articles_text');
    const aside = await store.setAsideDeferred(contentIndexes);
    expect(aside.map((d) => d.options?.name)).toEqual(['articles_text']);
    expect((await articles.listIndexes().toArray()).map((i) => i.name)).not.toContain('articles_text');
    await f.insert(t.db, {
      articles: Array.from({ length: 300 }, (_, i) =>
        f.article(`bulk-${i}`, { title: `Lighthouse keeper number ${i}`, summary: 'Storms and ships.' }),
      ),
    });
    // Not empty now: nothing more is set aside.
    expect(await store.setAsideDeferred(contentIndexes)).toEqual([]);
    await store.ensureIndexes(aside);
    expect(await store.indexBuilds).toEqual([{ name: 'articles_text' }]);
    const found = await articles.countDocuments({ $text: { $search: 'lighthouse' } });
    expect(found).toBe(300);
  } finally {
    await t.close();
  }
});
