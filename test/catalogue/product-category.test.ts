// productCategory(id | slug): a category page fetched by itself, its products paged, its arguments checked
// like the other entry points (exactly one of id and slug; null when there is no such category).
import { startTestService, type TestService } from '../helpers/service.js';
import { insertCatalogue } from './fixtures.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ beforeStart: insertCatalogue });
});
afterAll(() => svc.close());

const PAGE = `query($id: ID, $slug: String, $lang: String, $after: String) {
  productCategory(id: $id, slug: $slug, lang: $lang) {
    id slug name breadcrumbs { categoryId } totalProductsCount
    products(first: 1, after: $after) { edges { node { id } } pageInfo { endCursor hasNextPage } }
  }
}`;

type Page = {
  productCategory: null | {
    id: string;
    slug: string;
    name: string;
    breadcrumbs: Array<{ categoryId: string }>;
    totalProductsCount: number;
    products: { edges: Array<{ node: { id: string } }>; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
  };
};

test('by id and by slug: the same category, localised, with its breadcrumbs', async () => {
  const byId = await svc.gql<Page>(PAGE, { id: 'cat-weekly', lang: 'de' });
  expect(byId.body.errors).toBeUndefined();
  expect(byId.body.data!.productCategory).toMatchObject({
    id: 'cat-weekly',
    slug: 'slug-cat-weekly',
    name: 'Wöchentlich',
    breadcrumbs: [{ categoryId: 'cat-print' }, { categoryId: 'cat-magazines' }, { categoryId: 'cat-weekly' }],
  });
  const bySlug = await svc.gql<Page>(PAGE, { slug: 'slug-cat-weekly', lang: 'de' });
  expect(bySlug.body).toEqual(byId.body);
});

test("the category's products are paged through its own connection, to the end", async () => {
  const seen: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 10; i++) {
    const res: { body: { data?: Page; errors?: unknown } } = await svc.gql<Page>(PAGE, {
      slug: 'slug-cat-weekly',
      after,
    });
    expect(res.body.errors).toBeUndefined();
    const products: NonNullable<Page['productCategory']>['products'] = res.body.data!.productCategory!.products;
    seen.push(...products.edges.map((e) => e.node.id));
    if (!products.pageInfo.hasNextPage) break;
    after = products.pageInfo.endCursor;
  }
  // The listed (available) products of the category, in listing order, each once.
  expect(seen).toEqual(['prod-weekly', 'prod-weekly-extra']);
  const all = await svc.gql<{
    productCategories: Array<{ id: string; products: { edges: Array<{ node: { id: string } }> } }>;
  }>('{ productCategories { id products(first: 10) { edges { node { id } } } } }');
  expect(
    all.body.data!.productCategories.find((c) => c.id === 'cat-weekly')!.products.edges.map((e) => e.node.id),
  ).toEqual(seen);
});

test('a category that is not there is null, unavailable ones are answered as node(id:) answers them', async () => {
  for (const vars of [{ id: 'no-such-category' }, { slug: 'no-such-slug' }]) {
    const res = await svc.gql<Page>(PAGE, vars);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { productCategory: null } });
  }
  const hidden = await svc.gql<{ productCategory: { id: string; available: boolean } }>(
    '{ productCategory(id: "cat-hidden") { id available } }',
  );
  expect(hidden.body.data!.productCategory).toEqual({ id: 'cat-hidden', available: false });
});

test.each([
  ['both id and slug', { id: 'cat-weekly', slug: 'slug-cat-weekly' }, 'slug'],
  ['neither id nor slug', {}, 'id'],
  ['a malformed id', { id: 'no spaces!' }, 'id'],
  ['a malformed slug', { slug: '$ne' }, 'slug'],
  ['a language that is no ISO 639-1 code', { id: 'cat-weekly', lang: 'german' }, 'lang'],
])('%s: BAD_USER_INPUT naming the argument, no data for the field', async (_name, vars, field) => {
  const res = await svc.gql<Page>(PAGE, vars);
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({ productCategory: null });
  const [error] = res.body.errors!;
  expect({
    code: error!.extensions?.code,
    fields: (error!.extensions?.errors as Array<{ field: string }>).map((e) => e.field),
  }).toEqual({ code: 'BAD_USER_INPUT', fields: [field] });
  expect(error!.message).toMatch(/\S/);
});
