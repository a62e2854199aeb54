// GET /cms/product/categories is built by the category page operation and the catalogue mapper. Its answer must
// be byte for byte the JSON of the mapper's objects (catalogue.mapper.ts + product-categories.present.ts), for
// ordinary documents and for awkward ones (escapes, non-ASCII, missing and null fields, int64 and double numbers,
// empty translations that fall back, a product listing a category twice, an integer-like key, a date), on every
// page and with every bound on the embedded products. Its store reads do not grow with the catalogue.
import { Long, type Document } from 'mongodb';
import type { ProductCategoryDoc, ProductDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { toProduct, toProductCategory, toProductItem } from '../../src/store/catalogue/catalogue.mapper.js';
import { restCategory, restProduct } from '../../src/rest/product-categories.present.js';
import { startMonitoredService, type MonitoredService } from '../helpers/monitored.js';
import {
  categories as fixtureCategories,
  items as fixtureItems,
  products as fixtureProducts,
} from '../catalogue/fixtures.js';
import { statusOf } from '../helpers/status.js';

const AWKWARD = 'quote " backslash \\ newline \n tab \t bell \u0007 del \u007f é ✓ 😀 line-sep \u2028 <script>';

const base = fixtureCategories[0]!;
const cat = (
  id: string,
  parent: ProductCategoryDoc | null,
  sortPath: string,
  extra: Partial<ProductCategoryDoc> = {},
): ProductCategoryDoc => ({
  ...base,
  _id: id,
  slug: `slug-${id}`,
  parentCategoryId: parent?._id ?? null,
  ancestorIds: parent ? [...parent.ancestorIds, parent._id] : [],
  sortPath,
  featured: false,
  translations: {},
  ...extra,
});
const tricky = cat('cat-tricky', null, '0100', { name: AWKWARD, translations: { de: { name: 'Knifflig' } } });
const trickyChild = cat('cat-tricky-child', tricky, '0100.0001');
// Listed only by ?available=false: the other queries take the byte writer's path.
const odd = cat('cat-odd', null, '0200', { available: false });

const productTemplate = fixtureProducts[0]!;
const itemTemplate = fixtureItems[0]!;

const sparseProduct: Document = { ...productTemplate };
delete sparseProduct.teaser;
delete sparseProduct.text;

/** Stored as written (some fields missing on purpose), so typed loosely. */
const awkwardProducts: Document[] = [
  {
    ...productTemplate,
    _id: 'prod-awkward',
    categoryIds: ['cat-tricky', 'cat-tricky-child', 'cat-tricky'],
    order: 1,
    name: AWKWARD,
    brand: null,
    description: 'Plain description',
    settings: {
      template: AWKWARD,
      nested: { deeper: [1, 2.5, -3, true, null, 'x'] },
      sku: null,
      allowCustomPrice: true,
    },
    translatedTexts: {
      fr: { description: '' },
      de: { description: `DE ${AWKWARD}`, label1: null },
      pt: {},
      'zh-Hant': { label3: '繁體' },
    },
  },
  {
    ...sparseProduct,
    _id: 'prod-sparse',
    categoryIds: ['cat-tricky-child'],
    order: 1,
    translatedTexts: { de: { label2: 'Nur Etikett' } },
  },
  { ...productTemplate, _id: 'prod-second', categoryIds: ['cat-tricky'], order: 0.5 },
  {
    ...productTemplate,
    _id: 'prod-odd',
    categoryIds: ['cat-odd'],
    order: 1,
    settings: { 1: 'an integer-like key', template: 'x' },
  },
];
const sparseSettings: Document = { ...itemTemplate.settings };
delete sparseSettings.recurrentPrice;
delete sparseSettings.recurrentSchedule;
const withoutWeight: Document = { ...itemTemplate };
delete withoutWeight.weight;
const awkwardItems: Document[] = [
  {
    ...itemTemplate,
    _id: 'item-b',
    productId: 'prod-awkward',
    order: 2,
    name: AWKWARD,
    price: new Long(1999),
    weight: 350.5,
    stockAvailable: Long.fromNumber(2 ** 40),
    prices: { web: 1999, mobile: 1.5, compareAt: null },
    translations: { de: { name: '', subtitle: 'Untertitel' }, fr: { name: `FR ${AWKWARD}` } },
    images: [{ url: 'https://cdn.example.com/x.jpg', width: null, height: 1, alt: AWKWARD, extra: { a: [] } }, null],
  },
  // Same order as item-b: _id breaks the tie.
  {
    ...itemTemplate,
    _id: 'item-a',
    productId: 'prod-awkward',
    order: 2,
    currency: 'JPY',
    price: 500,
    prices: { web: 500, mobile: 450, compareAt: 700 },
  },
  {
    ...withoutWeight,
    _id: 'item-c',
    productId: 'prod-awkward',
    order: 1,
    settings: sparseSettings,
    relatedItems: { itemIds: ['item-a'] },
    installments: { count: 3, intervalMonths: 1 },
  },
  {
    ...itemTemplate,
    _id: 'item-s',
    productId: 'prod-sparse',
    order: 1,
    translations: { de: { subtitle: 'Nur Untertitel' } },
  },
  {
    ...itemTemplate,
    _id: 'item-odd',
    productId: 'prod-odd',
    order: 1,
    images: [{ url: 'https://cdn.example.com/odd.jpg', takenAt: new Date('2026-01-02T03:04:05Z') }],
  },
];

let svc: MonitoredService;
beforeAll(async () => {
  svc = await startMonitoredService({
    prefix: 'rbytes',
    // Every answer made afresh, so every request reads what a page reads: answers assembled from kept parts are
    // compared with fresh ones in product-categories-ready.test.ts.
    env: { READY_PARTS_MB: '0' },
    beforeStart: async (_store, db) => {
      await db
        .collection<ProductCategoryDoc>('productCategories')
        .insertMany([...fixtureCategories, tricky, trickyChild, odd]);
      await db.collection<Document>('products').insertMany([...fixtureProducts, ...awkwardProducts] as Document[]);
      await db.collection<Document>('productItems').insertMany([...fixtureItems, ...awkwardItems] as Document[]);
    },
  });
});
afterAll(() => svc.close());

/** The answer as the mapper's objects give it, from the stored documents. */
async function expectedBytes(query: {
  parentId?: string;
  featured?: boolean;
  available?: boolean;
  lang?: string;
  includeProducts?: boolean;
  page?: number;
  limit?: number;
  productsLimit?: number;
}): Promise<string> {
  const { page = 1, limit = 20, productsLimit = 10 } = query;
  const lang = query.lang ?? null;
  const allCategories = await svc.db.collection<ProductCategoryDoc>('productCategories').find().toArray();
  const byId = new Map(allCategories.map((c) => [c._id, c]));
  const listed = allCategories
    .filter((c) => c.available === (query.available ?? true))
    .filter((c) => query.featured === undefined || c.featured === query.featured)
    .filter(
      (c) => query.parentId === undefined || c.parentCategoryId === (query.parentId === 'root' ? null : query.parentId),
    )
    .sort((a, b) => (a.sortPath < b.sortPath ? -1 : 1))
    .slice((page - 1) * limit, page * limit);
  const products = (await svc.db.collection<ProductDoc>('products').find({ available: true }).toArray()).sort(
    (a, b) => a.order - b.order || (a._id < b._id ? -1 : 1),
  );
  const items = (await svc.db.collection<ProductItemDoc>('productItems').find().toArray()).sort(
    (a, b) => a.order - b.order || (a._id < b._id ? -1 : 1),
  );
  return JSON.stringify(
    listed.map((doc) => {
      const category = toProductCategory(doc, lang);
      const breadcrumbs = [...doc.ancestorIds.map((id) => toProductCategory(byId.get(id)!, lang)), category].map(
        (c) => ({ categoryId: c.id, categoryName: c.name, categorySlug: c.slug }),
      );
      const own = products.filter((p) => p.categoryIds.includes(doc._id));
      const rendered = own.slice(0, productsLimit).map((p) =>
        restProduct(
          toProduct(p, lang),
          items.filter((i) => i.productId === p._id).map((i) => toProductItem(i, lang)),
        ),
      );
      return restCategory(category, {
        breadcrumbs,
        totalProductsCount: own.length,
        products: query.includeProducts === false ? undefined : rendered,
      });
    }),
  );
}

const QUERIES: Array<[string, Parameters<typeof expectedBytes>[0]]> = [
  ['', {}],
  ['?lang=de', { lang: 'de' }],
  ['?lang=fr', { lang: 'fr' }],
  ['?lang=en', { lang: 'en' }],
  ['?parentId=root', { parentId: 'root' }],
  ['?parentId=cat-tricky&lang=de', { parentId: 'cat-tricky', lang: 'de' }],
  ['?parentId=cat-tricky&lang=fr', { parentId: 'cat-tricky', lang: 'fr' }],
  ['?parentId=cat-print&lang=fr', { parentId: 'cat-print', lang: 'fr' }],
  ['?featured=true', { featured: true }],
  ['?featured=false&lang=de', { featured: false, lang: 'de' }],
  ['?available=false', { available: false }],
  ['?available=false&lang=de', { available: false, lang: 'de' }],
  ['?includeProducts=false&lang=de', { includeProducts: false, lang: 'de' }],
  ['?limit=3', { limit: 3 }],
  ['?limit=3&page=2&lang=de', { limit: 3, page: 2, lang: 'de' }],
  ['?page=3&limit=4', { page: 3, limit: 4 }],
  ['?productsLimit=1', { productsLimit: 1 }],
  ['?parentId=root&productsLimit=1&lang=de', { parentId: 'root', productsLimit: 1, lang: 'de' }],
  ['?limit=1&page=1&productsLimit=100', { limit: 1, page: 1, productsLimit: 100 }],
];

test.each(QUERIES)("GET /cms/product/categories%s is byte for byte the mapper objects' JSON", async (search, query) => {
  const res = await fetch(`${svc.url}/cms/product/categories${search}`);
  expect(res.status).toBe(200);
  const body = await res.text();
  expect(body).toBe(await expectedBytes(query));
});

test('the awkward values come through as JSON.stringify writes them', async () => {
  const res = await fetch(`${svc.url}/cms/product/categories?parentId=root&lang=de`);
  const body = (await res.json()) as Array<{
    id: string;
    name: string;
    totalProductsCount: number;
    products: Array<Record<string, any>>;
  }>;
  const trickyOut = body.find((c) => c.id === 'cat-tricky')!;
  // Listed and counted once, though its categoryIds name the category twice.
  expect(trickyOut.products.map((p) => p.id)).toEqual(['prod-second', 'prod-awkward']);
  expect(trickyOut.totalProductsCount).toBe(2);
  const awkward = trickyOut.products[1]!;
  expect(awkward.name).toBe(AWKWARD);
  expect(awkward.description).toBe(`DE ${AWKWARD}`);
  expect(awkward.productItems.map((i: { id: string }) => i.id)).toEqual(['item-c', 'item-a', 'item-b']);
  const [c, a, b] = awkward.productItems;
  expect([b.price, b.stockAvailable, b.weight, b.prices.mobile, b.name]).toEqual([
    19.99,
    2 ** 40,
    350.5,
    0.01,
    AWKWARD,
  ]);
  expect([a.price, a.prices]).toEqual([500, { web: 500, mobile: 450, compareAt: 700 }]);
  expect('weight' in c).toBe(false);
  expect(c.settings.recurrentPrice).toBeNull();
  const children = (await (
    await fetch(`${svc.url}/cms/product/categories?parentId=cat-tricky&lang=de`)
  ).json()) as typeof body;
  const sparse = children[0]!.products.find((p) => p.id === 'prod-sparse')!;
  expect(['teaser' in sparse, 'text' in sparse, sparse.translatedTexts]).toEqual([
    false,
    false,
    { de: { description: null, label1: null, label2: 'Nur Etikett', label3: null } },
  ]);
  expect('recurrentSchedule' in c.settings).toBe(false);
});

test('the store is read once per level, whatever the page size: the same commands for one category and twenty', async () => {
  const sent = async (search: string) => {
    svc.commands.length = 0;
    expect(await statusOf(`${svc.url}/cms/product/categories${search}`)).toBe(200);
    return svc.commands.map((c) => `${c.commandName}:${String(c.command[c.commandName])}`).sort();
  };
  // Categories and their count; product pages and product counts (one aggregate each); items. The listed
  // categories' ancestors are among them, from the loader's cache.
  const all = ['aggregate:productCategories', 'aggregate:products', 'aggregate:products', 'find:productCategories'];
  expect(await sent('')).toEqual([...all, 'find:productItems']);
  expect(await sent('?limit=1')).toEqual([...all, 'find:productItems']);
  expect(await sent('?available=false&productsLimit=100')).toEqual([...all, 'find:productItems']);
  // A child's ancestors are one more read.
  expect(await sent('?parentId=cat-magazines')).toEqual([...all, 'find:productCategories', 'find:productItems'].sort());
  // Without products: the categories, their ancestors and one count for all of them.
  expect(await sent('?parentId=cat-print&includeProducts=false')).toEqual(
    ['aggregate:productCategories', 'aggregate:products', 'find:productCategories', 'find:productCategories'].sort(),
  );
});
