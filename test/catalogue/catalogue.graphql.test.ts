// The catalogue over GraphQL: productCategories with its filters and `lang`, product, productItem,
// related items, translation lookups and the products connection, every field from stored values.
import type { ProductCategoryDoc, ProductDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as expected from './expected.js';
import { insertCatalogue, testAuthenticator } from './fixtures.js';
import { CATEGORIES, ITEM, PRODUCT } from './queries.js';

let svc: TestService;
let s: { categories: Map<string, ProductCategoryDoc>; products: ProductDoc[]; items: ProductItemDoc[] };
beforeAll(async () => {
  svc = await startTestService({ authenticate: testAuthenticator, beforeStart: insertCatalogue });
  s = {
    categories: new Map(
      (await svc.db.collection<ProductCategoryDoc>('productCategories').find().toArray()).map((d) => [d._id, d]),
    ),
    products: await svc.db.collection<ProductDoc>('products').find().toArray(),
    items: await svc.db.collection<ProductItemDoc>('productItems').find().toArray(),
  };
});
afterAll(() => svc.close());

const itemsOf = (p: ProductDoc) => s.items.filter((i) => i.productId === p._id).sort((a, b) => a.order - b.order);
const productDoc = (id: string) => s.products.find((p) => p._id === id)!;
const itemDoc = (id: string) => s.items.find((i) => i._id === id)!;

function expectedCategory(id: string, lang?: string) {
  const doc = s.categories.get(id)!;
  const listed = s.products.filter((p) => p.categoryIds.includes(id) && p.available).sort((a, b) => a.order - b.order);
  return expected.asGraphQL({
    ...expected.restCategoryFields(
      doc,
      doc.ancestorIds.map((a) => s.categories.get(a)!),
      listed.length,
      lang,
    ),
    products: listed.map((p) => expected.restProduct(p, itemsOf(p), lang)),
  });
}

async function ok<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const res = await svc.gql<T>(query, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data!;
}

describe('productCategories', () => {
  test('every field of categories, products and items from the stored documents', async () => {
    const data = await ok<{ productCategories: Array<{ id: string }> }>(CATEGORIES);
    expect(data.productCategories.map((c) => c.id)).toEqual([
      'cat-print',
      'cat-magazines',
      'cat-weekly',
      'cat-books',
      'cat-digital',
    ]);
    for (const category of data.productCategories) expect(category).toEqual(expectedCategory(category.id));
  });

  test.each(['de', 'fr', 'it'])(
    'lang=%s localises every nested name, subtitle and description, with the fallback',
    async (lang) => {
      const data = await ok<{ productCategories: Array<{ id: string }> }>(CATEGORIES, { lang });
      for (const category of data.productCategories) expect(category).toEqual(expectedCategory(category.id, lang));
    },
  );

  test.each<[Record<string, unknown>, string[]]>([
    [{ parentId: 'root' }, ['cat-print', 'cat-digital']],
    [{ parentId: 'cat-print' }, ['cat-magazines', 'cat-books']],
    [{ featured: true }, ['cat-print', 'cat-books']],
    [{ featured: false }, ['cat-magazines', 'cat-weekly', 'cat-digital']],
    [{ available: false }, ['cat-hidden']],
  ])('filter %j', async (variables, want) => {
    const data = await ok<{ productCategories: Array<{ id: string }> }>(
      'query($parentId: ID, $featured: Boolean, $available: Boolean! = true) { productCategories(parentId: $parentId, featured: $featured, available: $available) { id } }',
      variables,
    );
    expect(data.productCategories.map((c) => c.id)).toEqual(want);
  });

  test('translation(language:) finds one translation or null', async () => {
    const data = await ok(
      `{ productCategories(parentId: "root") { id de: translation(language: "de") { language name description } it: translation(language: "it") { name } } }`,
    );
    expect(data.productCategories[0]).toEqual({
      id: 'cat-print',
      de: { language: 'de', name: 'Druck', description: 'Gedruckte Produkte' },
      it: null,
    });
  });

  test('products is a connection: first/after pages in listing order with a total count', async () => {
    const page = `query($after: String) { productCategories(parentId: "cat-magazines") {
      products(first: 1, after: $after) { totalCount edges { cursor node { id } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } } }`;
    const first = (await ok(page)).productCategories[0].products;
    expect(first.totalCount).toBe(2);
    expect(first.edges.map((e: any) => e.node.id)).toEqual(['prod-weekly']);
    expect(first.pageInfo).toMatchObject({
      hasNextPage: true,
      hasPreviousPage: false,
      endCursor: first.edges[0].cursor,
    });
    const second = (await ok(page, { after: first.pageInfo.endCursor })).productCategories[0].products;
    expect(second.edges.map((e: any) => e.node.id)).toEqual(['prod-weekly-extra']);
    expect(second.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });

  test.each([
    ['a bad language code', '{ productCategories(lang: "deu") { id } }'],
    ['a malformed parent id', '{ productCategories(parentId: "a b") { id } }'],
    ['a cursor we did not issue', '{ productCategories { products(first: 1, after: "garbage") { totalCount } } }'],
    ['first out of range', '{ productCategories { products(first: 0) { totalCount } } }'],
  ])('%s is BAD_USER_INPUT', async (_name, query) => {
    const res = await svc.gql(query);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('product and productItem', () => {
  test('product(id) with its items, every field from the stored documents', async () => {
    const data = await ok(`query { product(id: "prod-weekly") { ...Product } }\n${PRODUCT}\n${ITEM}`);
    expect(data.product).toEqual(
      expected.asGraphQL(expected.restProduct(productDoc('prod-weekly'), itemsOf(productDoc('prod-weekly')))),
    );
  });

  test('product(id, lang) localises the description and the items; translatedText(language:) looks one up', async () => {
    const data = await ok(
      `{ product(id: "prod-weekly", lang: "de") { description productItems { name subtitle } de: translatedText(language: "de") { description label1 label2 } fr: translatedText(language: "fr") { label2 } it: translatedText(language: "it") { label1 } } }`,
    );
    expect(data.product).toEqual({
      description: 'Beschreibung Wochenheft',
      productItems: [
        { name: 'Einzelheft', subtitle: 'Gedruckt' },
        { name: 'Item item-sub', subtitle: 'Item subtitle item-sub' },
        { name: 'Item item-upgrade', subtitle: 'Item subtitle item-upgrade' },
      ],
      de: { description: 'Beschreibung Wochenheft', label1: 'Etikett 1', label2: null },
      fr: { label2: 'Étiquette' },
      it: null,
    });
  });

  test('productItem(id) with every field, its product name and translation lookup', async () => {
    const data = await ok(
      `query { productItem(id: "item-sub") { ...Item de: translation(language: "de") { name } } }\n${ITEM}`,
    );
    expect(data.productItem).toEqual({
      ...expected.asGraphQL(expected.restItem(itemDoc('item-sub'), 'Product prod-weekly')),
      de: null,
    });
    const fr = await ok(
      `{ productItem(id: "item-print", lang: "fr") { name subtitle translation(language: "fr") { language name subtitle } } }`,
    );
    expect(fr.productItem).toEqual({
      name: 'Numéro',
      subtitle: 'Item subtitle item-print',
      translation: { language: 'fr', name: 'Numéro', subtitle: null },
    });
  });

  test('related items resolve to the items that exist, in the listed order, in the same language', async () => {
    const data = await ok(
      `{ productItem(id: "item-print", lang: "de") { relatedItems { itemIds items { id name productName } } } }`,
    );
    expect(data.productItem.relatedItems).toEqual({
      itemIds: ['item-sub', 'item-missing', 'item-year'],
      items: [
        { id: 'item-sub', name: 'Item item-sub', productName: 'Product prod-weekly' },
        { id: 'item-year', name: 'Item item-year', productName: 'Product prod-digital' },
      ],
    });
  });

  test('absent ids are null without an error; malformed ids are BAD_USER_INPUT', async () => {
    expect(await ok('{ product(id: "nope") { id } productItem(id: "nope") { id } }')).toEqual({
      product: null,
      productItem: null,
    });
    const bad = await svc.gql('{ product(id: "not an id!") { id } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  test('an unavailable product is still readable by id but not listed', async () => {
    const data = await ok('{ product(id: "prod-weekly-gone") { id available } }');
    expect(data.product).toEqual({ id: 'prod-weekly-gone', available: false });
  });
});
