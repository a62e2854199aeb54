// HTTP status of GraphQL answers, per GraphQL over HTTP: a request error (parse, validation, variable coercion)
// is a 4xx with no `data`; an error raised while executing is a 2xx with `data` (null or partial). And a bad
// argument on one element of a list (one category's products) loses that field only, not the whole answer.
import { insertCatalogue } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    beforeStart: async (store) => {
      await insertCatalogue(store);
      await f.insert(store.db, { pages: [f.page('ee-page-1'), f.page('ee-page-2')] });
    },
  });
});
afterAll(() => svc.close());

const ACCEPTS = ['application/json', 'application/graphql-response+json'];

interface Answer {
  status: number;
  type: string | null;
  body: {
    data?: any;
    errors?: Array<{ message: string; path?: Array<string | number>; extensions?: { code?: string } }>;
  };
}

async function post(accept: string, query: string, variables?: Record<string, unknown>): Promise<Answer> {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Answer['body'] };
}

const codes = (answer: Answer) => answer.body.errors?.map((e) => e.extensions?.code);

describe.each(ACCEPTS)('Accept: %s', (accept) => {
  test("a bad `after` on one category's products loses that connection only: 200 with the rest of the answer", async () => {
    const all = await post(accept, '{ productCategories { id products(first: 1) { edges { node { id } } } } }');
    expect(all.status).toBe(200);
    const categories = all.body.data.productCategories as Array<{ id: string }>;
    expect(categories.length).toBeGreaterThan(1);

    const answer = await post(
      accept,
      'query($after: String) { productCategories { id products(first: 1, after: $after) { edges { node { id } } } } }',
      { after: 'not-a-cursor' },
    );
    expect(answer.status).toBe(200);
    expect(answer.type).toContain(accept);
    // Every category is there; each `products` is null with an error of its own that names its path.
    expect(
      (answer.body.data.productCategories as Array<{ id: string; products: unknown }>).map((c) => [c.id, c.products]),
    ).toEqual(categories.map((c) => [c.id, null]));
    expect(codes(answer)).toEqual(categories.map(() => 'BAD_USER_INPUT'));
    expect(answer.body.errors!.map((e) => e.path)).toEqual(
      categories.map((_, i) => ['productCategories', i, 'products']),
    );
  });

  test('a bad cursor on one element next to good ones: the good ones are answered', async () => {
    const first = await post(
      accept,
      '{ productCategory(id: "cat-print") { products(first: 1) { pageInfo { endCursor } } } }',
    );
    const cursor = first.body.data.productCategory.products.pageInfo.endCursor as string;
    // The cursor is bound to its category: valid for cat-print, refused for every other one.
    const answer = await post(
      accept,
      'query($after: String) { productCategories { id products(first: 1, after: $after) { totalCount } } }',
      { after: cursor },
    );
    expect(answer.status).toBe(200);
    const byId = new Map(
      (answer.body.data.productCategories as Array<{ id: string; products: unknown }>).map((c) => [c.id, c.products]),
    );
    expect(byId.get('cat-print')).toEqual({ totalCount: expect.any(Number) });
    expect([...byId].filter(([id]) => id !== 'cat-print').every(([, products]) => products === null)).toBe(true);
  });

  test('a bad argument on a non-null root field is an execution error: 200 with `data: null`', async () => {
    const answer = await post(
      accept,
      'query($after: String) { pages(first: 2, after: $after) { edges { node { id } } } }',
      { after: 'not-a-cursor' },
    );
    expect({
      status: answer.status,
      hasData: 'data' in answer.body,
      data: answer.body.data,
      codes: codes(answer),
    }).toEqual({ status: 200, hasData: true, data: null, codes: ['BAD_USER_INPUT'] });
    const range = await post(accept, '{ pages(first: 500) { totalCount } }');
    expect({ status: range.status, data: range.body.data, codes: codes(range) }).toEqual({
      status: 200,
      data: null,
      codes: ['BAD_USER_INPUT'],
    });
  });

  test('request errors stay 4xx with no `data`: validation, variable coercion, parse', async () => {
    const literal = await post(accept, '{ productCategories { products(first: "ten") { totalCount } } }');
    expect({ status: literal.status, hasData: 'data' in literal.body, codes: codes(literal) }).toEqual({
      status: 400,
      hasData: false,
      codes: ['GRAPHQL_VALIDATION_FAILED'],
    });
    const variable = await post(
      accept,
      'query($first: Int!) { productCategories { products(first: $first) { totalCount } } }',
      { first: 'ten' },
    );
    expect({ status: variable.status, hasData: 'data' in variable.body, codes: codes(variable) }).toEqual({
      status: 400,
      hasData: false,
      codes: ['BAD_USER_INPUT'],
    });
    const parse = await post(accept, '{ productCategories { id ');
    expect({ status: parse.status, hasData: 'data' in parse.body, codes: codes(parse) }).toEqual({
      status: 400,
      hasData: false,
      codes: ['GRAPHQL_PARSE_FAILED'],
    });
  });
});
