// GET /cms/product/categories: filters, localisation with fallback, every field from the stored
// documents, validation, and the public caching rules (ETag, 304, Cache-Control).
import type { ProductCategoryDoc, ProductDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as expected from './expected.js';
import { bearer, insertCatalogue, testAuthenticator } from './fixtures.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ authenticate: testAuthenticator, beforeStart: insertCatalogue });
});
afterAll(() => svc.close());

const get = (query = '', headers: Record<string, string> = {}) =>
  fetch(`${svc.url}/cms/product/categories${query}`, { headers });
const getJson = async (query = '', headers: Record<string, string> = {}) => {
  const res = await get(query, headers);
  return { res, body: (await res.json()) as Array<Record<string, unknown>> };
};
const ids = (body: Array<Record<string, unknown>>) => body.map((c) => c.id);

async function stored() {
  const db = svc.db;
  return {
    categories: new Map(
      (await db.collection<ProductCategoryDoc>('productCategories').find().toArray()).map((d) => [d._id, d]),
    ),
    products: await db.collection<ProductDoc>('products').find().toArray(),
    items: await db.collection<ProductItemDoc>('productItems').find().toArray(),
  };
}

function expectedCategory(s: Awaited<ReturnType<typeof stored>>, id: string, lang?: string, includeProducts = true) {
  const doc = s.categories.get(id)!;
  const listed = s.products.filter((p) => p.categoryIds.includes(id) && p.available).sort((a, b) => a.order - b.order);
  const itemsOf = (p: ProductDoc) => s.items.filter((i) => i.productId === p._id).sort((a, b) => a.order - b.order);
  return {
    ...expected.restCategoryFields(
      doc,
      doc.ancestorIds.map((a) => s.categories.get(a)!),
      listed.length,
      lang,
    ),
    ...(includeProducts ? { products: listed.map((p) => expected.restProduct(p, itemsOf(p), lang)) } : {}),
  };
}

describe('GET /cms/product/categories', () => {
  test('lists available categories of every level in tree order, each field from the stored documents', async () => {
    const { res, body } = await getJson();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(ids(body)).toEqual(['cat-print', 'cat-magazines', 'cat-weekly', 'cat-books', 'cat-digital']);
    const s = await stored();
    for (const category of body) expect(category).toEqual(expectedCategory(s, category.id as string));
  });

  test('a category lists only available products and counts them; items come in item order', async () => {
    const { body } = await getJson();
    const weekly = body.find((c) => c.id === 'cat-weekly')!;
    expect(weekly.totalProductsCount).toBe(2);
    const products = weekly.products as Array<{ id: string; productItems: Array<{ id: string }> }>;
    expect(products.map((p) => p.id)).toEqual(['prod-weekly', 'prod-weekly-extra']);
    expect(products[0]!.productItems.map((i) => i.id)).toEqual(['item-print', 'item-sub', 'item-upgrade']);
    // A product listed in two categories appears under both.
    expect((body.find((c) => c.id === 'cat-print')!.products as Array<{ id: string }>).map((p) => p.id)).toEqual([
      'prod-digital',
    ]);
    expect(weekly.breadcrumbs).toEqual([
      { categoryId: 'cat-print', categoryName: 'Print', categorySlug: 'slug-cat-print' },
      { categoryId: 'cat-magazines', categoryName: 'Magazines', categorySlug: 'slug-cat-magazines' },
      { categoryId: 'cat-weekly', categoryName: 'Weekly', categorySlug: 'slug-cat-weekly' },
    ]);
  });

  test('item money is decimal next to its currency; subscription items carry their action data', async () => {
    const { body } = await getJson('?parentId=cat-magazines');
    const items = (body[0]!.products as Array<{ productItems: Array<Record<string, any>> }>)[0]!.productItems;
    const print = items.find((i) => i.id === 'item-print')!;
    expect([print.price, print.currency, print.prices]).toEqual([
      4.99,
      'EUR',
      { web: 4.99, mobile: 4.49, compareAt: 5.99 },
    ]);
    const sub = items.find((i) => i.id === 'item-sub')!;
    expect(sub.settings).toMatchObject({
      recurrent: true,
      recurrentPrice: 17.9,
      recurrentStart: 30,
      recurrentSchedule: 'monthly',
    });
    expect(sub.actionDataOnPurchase).toEqual([{ function: 'grantEntitlement', param: 'P1M', group: 'subscription' }]);
  });

  test.each([
    ['?parentId=root', ['cat-print', 'cat-digital']],
    ['?parentId=cat-print', ['cat-magazines', 'cat-books']],
    ['?parentId=cat-weekly', []],
    ['?parentId=nope', []],
    ['?featured=true', ['cat-print', 'cat-books']],
    ['?featured=false', ['cat-magazines', 'cat-weekly', 'cat-digital']],
    ['?available=false', ['cat-hidden']],
    ['?available=true&featured=true&parentId=root', ['cat-print']],
  ])('filter %s', async (query, want) => {
    const { res, body } = await getJson(query);
    expect(res.status).toBe(200);
    expect(ids(body)).toEqual(want);
  });

  test('includeProducts=false leaves products out but keeps the count', async () => {
    const { body } = await getJson('?includeProducts=false');
    const s = await stored();
    for (const category of body) expect(category).toEqual(expectedCategory(s, category.id as string, undefined, false));
    expect(body.find((c) => c.id === 'cat-weekly')!.totalProductsCount).toBe(2);
  });

  test.each(['de', 'fr', 'it', 'en'])(
    'lang=%s localises every nested text, falling back to the default language',
    async (lang) => {
      const { body } = await getJson(`?lang=${lang}`);
      const s = await stored();
      for (const category of body) expect(category).toEqual(expectedCategory(s, category.id as string, lang));
    },
  );

  test('lang=de in concrete terms', async () => {
    const { body } = await getJson('?lang=de&parentId=cat-magazines');
    const weekly = body[0]!;
    expect([weekly.name, weekly.description]).toEqual(['Wöchentlich', 'Jede Woche']);
    expect((weekly.breadcrumbs as Array<{ categoryName: string }>).map((b) => b.categoryName)).toEqual([
      'Druck',
      'Zeitschriften',
      'Wöchentlich',
    ]);
    const product = (weekly.products as Array<Record<string, any>>)[0]!;
    expect(product.description).toBe('Beschreibung Wochenheft');
    expect(product.name).toBe('Product prod-weekly');
    const [print, sub] = product.productItems as Array<Record<string, unknown>>;
    expect([print!.name, print!.subtitle]).toEqual(['Einzelheft', 'Gedruckt']);
    expect([sub!.name, sub!.subtitle]).toEqual(['Item item-sub', 'Item subtitle item-sub']);
    // An empty translation falls back too.
    const { body: parents } = await getJson('?lang=de&parentId=cat-print');
    expect(parents[0]!.description).toBe('Description of cat-magazines');
  });

  test.each([
    ['?lang=deu', 'lang'],
    ['?lang=DE', 'lang'],
    ['?featured=yes', 'featured'],
    ['?available=', 'available'],
    ['?includeProducts=0', 'includeProducts'],
    ['?parentId=a%20b', 'parentId'],
    ['?parentId=' + 'x'.repeat(65), 'parentId'],
    ['?lang=de&lang=fr', 'lang'],
    ['?parent_id=root', 'parent_id'],
    ['?parentId[$ne]=x', 'parentId[$ne]'],
    ['?page=0', 'page'],
    ['?page=1000001', 'page'],
    ['?page=two', 'page'],
    ['?page=1.5', 'page'],
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=-1', 'limit'],
    ['?limit=', 'limit'],
    ['?productsLimit=0', 'productsLimit'],
    ['?productsLimit=101', 'productsLimit'],
    ['?productsLimit=1e2', 'productsLimit'],
    ['?page=1&page=2', 'page'],
    ['?products_limit=5', 'products_limit'],
  ])('%s is a 400 naming the field', async (query, field) => {
    const res = await get(query);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { code: string; title: string; errors: Array<{ field: string }> };
    expect(problem.code).toBe('BAD_REQUEST');
    expect(problem.title).toBe('Bad Request');
    expect(problem.errors.map((e) => e.field)).toContain(field);
  });

  test('pages of `limit` categories in tree order: the total in X-Total-Count, next and prev in Link', async () => {
    const all = ['cat-print', 'cat-magazines', 'cat-weekly', 'cat-books', 'cat-digital'];
    const first = await getJson('?limit=2');
    expect(ids(first.body)).toEqual(all.slice(0, 2));
    expect(first.res.headers.get('x-total-count')).toBe('5');
    expect(first.res.headers.get('link')).toBe('</cms/product/categories?limit=2&page=2>; rel="next"');
    const second = await getJson('?lang=de&limit=2&page=2');
    expect(ids(second.body)).toEqual(all.slice(2, 4));
    expect(second.res.headers.get('link')).toBe(
      '</cms/product/categories?lang=de&limit=2&page=3>; rel="next", </cms/product/categories?lang=de&limit=2&page=1>; rel="prev"',
    );
    const last = await getJson('?limit=2&page=3');
    expect(ids(last.body)).toEqual(all.slice(4));
    expect(last.res.headers.get('link')).toBe('</cms/product/categories?limit=2&page=2>; rel="prev"');
    // Past the end: an empty page that links back to the last one.
    const past = await getJson('?limit=2&page=9');
    expect([past.res.status, past.body, past.res.headers.get('x-total-count')]).toEqual([200, [], '5']);
    expect(past.res.headers.get('link')).toBe('</cms/product/categories?limit=2&page=3>; rel="prev"');
    // One page holds them all: no Link; the total counts what the filters match.
    const filtered = await getJson('?parentId=root');
    expect([filtered.res.headers.get('link'), filtered.res.headers.get('x-total-count')]).toEqual([null, '2']);
  });

  test('following next from the first page walks every category once, in order', async () => {
    const seen: unknown[] = [];
    let next: string | null = '/cms/product/categories?includeProducts=false&limit=1';
    while (next) {
      const res = await fetch(new URL(next, svc.url));
      seen.push(...ids((await res.json()) as Array<Record<string, unknown>>));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get('link') ?? '')?.[1] ?? null;
    }
    expect(seen).toEqual(ids((await getJson('?includeProducts=false')).body));
  });

  test('productsLimit embeds the first products in listing order; totalProductsCount still counts them all', async () => {
    const { body } = await getJson('?parentId=cat-magazines&productsLimit=1');
    const weekly = body[0]!;
    expect(weekly.totalProductsCount).toBe(2);
    expect((weekly.products as Array<{ id: string }>).map((p) => p.id)).toEqual(['prod-weekly']);
    const s = await stored();
    const full = expectedCategory(s, 'cat-weekly');
    expect(weekly).toEqual({ ...full, products: full.products!.slice(0, 1) });
  });

  test('anonymous answers are public for 60 s with a strong ETag; a matching If-None-Match is a 304', async () => {
    const first = await get();
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await get('', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect((await get('', { 'if-none-match': `W/${etag}` })).status).toBe(304);
    expect((await get('', { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
    expect((await get('', { 'if-none-match': '"other"' })).status).toBe(200);
    // Another representation has another tag.
    expect((await get('?lang=de')).headers.get('etag')).not.toBe(etag);
  });

  test('the ETag changes when the stored catalogue changes', async () => {
    const before = (await get('?parentId=root')).headers.get('etag')!;
    await svc.db
      .collection<ProductCategoryDoc>('productCategories')
      .updateOne({ _id: 'cat-digital' }, { $set: { name: 'Digital editions' } });
    const after = await get('?parentId=root', { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(((await after.json()) as Array<{ name: string }>)[1]!.name).toBe('Digital editions');
    await svc.db
      .collection<ProductCategoryDoc>('productCategories')
      .updateOne({ _id: 'cat-digital' }, { $set: { name: 'Digital' } });
  });

  test('with a token the answer is private; a bad token is a 401', async () => {
    const res = await get('', bearer('alice-plain'));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    const bad = await get('', bearer('forged'));
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });
});

test('the max-age follows CACHE_MAX_AGE', async () => {
  const other = await startTestService({ env: { CACHE_MAX_AGE: '5' } });
  try {
    const res = await fetch(`${other.url}/cms/product/categories`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('public, max-age=5');
  } finally {
    await other.close();
  }
});
