// A real GraphQL client against the running service: Apollo Client (core) sends what frontends send —
// fragments, @include/@skip, __typename on every selection — and reads deprecations through introspection.
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { startTestService, type TestService } from '../helpers/service.js';
import { insertCatalogue } from '../catalogue/fixtures.js';

let svc: TestService;
let client: ApolloClient;
beforeAll(async () => {
  svc = await startTestService({ beforeStart: insertCatalogue });
  client = new ApolloClient({ link: new HttpLink({ uri: `${svc.url}/graphql`, fetch }), cache: new InMemoryCache() });
});
afterAll(async () => {
  client.stop();
  await svc.close();
});

const ITEM = gql`
  fragment ItemNames on ProductItem {
    id
    name
  }
  query Item($id: ID!, $withProduct: Boolean!, $skipPrices: Boolean!) {
    productItem(id: $id) {
      ...ItemNames
      productId
      productName @include(if: $withProduct)
      prices @skip(if: $skipPrices) {
        web
      }
    }
  }
`;

test('fragments and @include/@skip work through Apollo Client', async () => {
  const shown = await client.query({
    query: ITEM,
    variables: { id: 'item-print', withProduct: true, skipPrices: false },
    fetchPolicy: 'network-only',
  });
  expect(shown.error).toBeUndefined();
  expect(shown.data).toMatchObject({
    productItem: {
      __typename: 'ProductItem',
      id: 'item-print',
      productId: 'prod-weekly',
      productName: expect.any(String),
      prices: { web: expect.any(Number) },
    },
  });

  const hidden = await client.query({
    query: ITEM,
    variables: { id: 'item-print', withProduct: false, skipPrices: true },
    fetchPolicy: 'network-only',
  });
  expect(hidden.error).toBeUndefined();
  const item = (hidden.data as { productItem: Record<string, unknown> }).productItem;
  expect(item).not.toHaveProperty('productName');
  expect(item).not.toHaveProperty('prices');
  expect(item.name).toBeDefined();
});

test('introspection lists the standard directives and shows productDetails as deprecated', async () => {
  const { data, error } = await client.query<{
    __schema: { directives: { name: string }[] };
    __type: { fields: { name: string; isDeprecated: boolean; deprecationReason: string | null }[] };
  }>({
    query: gql`
      {
        __schema {
          directives {
            name
          }
        }
        __type(name: "ProductItem") {
          fields(includeDeprecated: true) {
            name
            isDeprecated
            deprecationReason
          }
        }
      }
    `,
    fetchPolicy: 'network-only',
  });
  expect(error).toBeUndefined();
  expect(data!.__schema.directives.map((d) => d.name)).toEqual(
    expect.arrayContaining(['include', 'skip', 'deprecated', 'specifiedBy', 'cacheControl']),
  );
  const details = data!.__type.fields.find((f) => f.name === 'productDetails');
  expect(details).toEqual({
    __typename: '__Field',
    name: 'productDetails',
    isDeprecated: true,
    deprecationReason: 'Use productId',
  });
});
