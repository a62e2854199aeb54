// The service as an Apollo Federation 2 subgraph: composed with a second subgraph by Apollo's composition library
// and queried through Apollo Gateway, all over HTTP. Entity lookups cost one store round trip per type, whatever the
// number of references; /graphql/subgraph answers only a caller holding the secret; /graphql is unchanged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { startStandaloneServer } from '@apollo/server/standalone';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { bearer, insertCatalogue, testAuthenticator } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { startMonitoredService, type MonitoredService } from '../helpers/monitored.js';
import { projectRoot } from '../../src/version.js';

const SECRET = 'a-router-secret-of-at-least-32-characters';
const ROUTER = { 'x-subgraph-secret': SECRET };

/** The second subgraph: review scores on the service's articles, and picks pointing at its articles and authors. */
const REVIEWS_SDL = parse(`
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
  type Article @key(fields: "id") {
    id: ID!
    "Stars out of five"
    reviewScore: Int!
  }
  type Author @key(fields: "id", resolvable: false) {
    id: ID!
  }
  type Cart @key(fields: "id", resolvable: false) {
    id: ID!
  }
  type Pick {
    article: Article!
    author: Author!
  }
  type Query {
    picks: [Pick!]!
    savedCart: Cart
  }
`);

const PICKS = [
  ['g-a-1-1', 'g-au-1'],
  ['g-a-1-2', 'g-au-2'],
  ['g-a-2-1', 'g-au-1'],
  ['g-a-2-2', 'g-au-2'],
  ['g-a-1-1', 'g-au-1'],
];

let svc: MonitoredService;
const stops: Array<() => Promise<unknown>> = [];
let gatewayUrl: string;

async function post(url: string, query: string, variables = {}, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: res.status,
    headers: res.headers,
    body: (await res.json()) as { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> },
  };
}

const subgraph = (query: string, variables = {}, headers: Record<string, string> = {}) =>
  post(`${svc.url}/graphql/subgraph`, query, variables, { ...ROUTER, ...headers });

beforeAll(async () => {
  svc = await startMonitoredService({
    prefix: 'federation',
    authenticate: testAuthenticator,
    env: { SUBGRAPH_SECRET: SECRET },
    beforeStart: async (store, db) => {
      await insertCatalogue(store);
      await f.insert(db, contentGraph({ prefix: 'g-', issues: 2, articlesPerIssue: 2 }).fixture);
      await f.insert(db, { articles: [f.article('a-draft', { status: 'draft' })] });
    },
  });
  stops.push(() => svc.close());

  const reviews = new ApolloServer({
    schema: buildSubgraphSchema({
      typeDefs: REVIEWS_SDL,
      resolvers: {
        Article: { reviewScore: (article: { id: string }) => article.id.length % 5 },
        Query: {
          picks: () => PICKS.map(([article, author]) => ({ article: { id: article }, author: { id: author } })),
          savedCart: () => ({ id: 'cart-alice' }),
        },
      },
    }),
    plugins: [ApolloServerPluginInlineTraceDisabled()],
  });
  const { url: reviewsUrl } = await startStandaloneServer(reviews, { listen: { port: 0, host: '127.0.0.1' } });
  stops.push(() => reviews.stop());

  // As `rover subgraph introspect` does: the service's SDL from `_service`, then composed with the other one.
  const { body } = await subgraph('{ _service { sdl } }');
  const composed = composeServices([
    { name: 'content', typeDefs: parse(body.data._service.sdl), url: `${svc.url}/graphql/subgraph` },
    { name: 'reviews', typeDefs: REVIEWS_SDL, url: reviewsUrl },
  ]);
  expect(composed.errors).toBeUndefined();

  const gateway = new ApolloGateway({
    supergraphSdl: composed.supergraphSdl!,
    buildService: ({ url }) =>
      new RemoteGraphQLDataSource<{ authorization?: string }>({
        url,
        // The router's own secret to the service, and the client's token passed on so the reader's rules apply.
        willSendRequest({ request, context }) {
          if (url?.endsWith('/graphql/subgraph')) request.http?.headers.set('x-subgraph-secret', SECRET);
          if (context.authorization) request.http?.headers.set('authorization', context.authorization);
        },
      }),
  });
  const router = new ApolloServer<{ authorization?: string }>({ gateway });
  ({ url: gatewayUrl } = await startStandaloneServer(router, {
    listen: { port: 0, host: '127.0.0.1' },
    context: async ({ req }) => ({ authorization: req.headers.authorization }),
  }));
  stops.push(() => router.stop());
}, 120_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

/** Store commands the service sent, by command and collection, sorted. */
function commands(): string[] {
  return svc.commands.map((c) => `${c.commandName}:${String(c.command[c.commandName])}`).sort();
}

test('a query across both subgraphs through the gateway: the service resolves the other subgraph’s references', async () => {
  svc.commands.length = 0;
  const { status, body } = await post(gatewayUrl, '{ picks { article { id title reviewScore } author { id name } } }');
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  expect(body.data.picks).toHaveLength(PICKS.length);
  body.data.picks.forEach((pick: any, i: number) => {
    expect(pick).toEqual({
      article: { id: PICKS[i]![0], title: expect.any(String), reviewScore: PICKS[i]![0]!.length % 5 },
      author: { id: PICKS[i]![1], name: expect.any(String) },
    });
  });
  // Five article and five author references (three and two distinct): one find per type.
  expect(commands()).toEqual(['find:articles', 'find:authors']);
});

test('a query starting at the service reaches fields the other subgraph adds to its types', async () => {
  const { body } = await post(gatewayUrl, '{ article(id: "g-a-2-1") { id title reviewScore } }');
  expect(body.errors).toBeUndefined();
  expect(body.data.article).toEqual({ id: 'g-a-2-1', title: expect.any(String), reviewScore: 'g-a-2-1'.length % 5 });
});

test("the router passes the client's token on: a cart is resolved for its owner", async () => {
  const { body } = await post(gatewayUrl, '{ savedCart { id priceMatrix { currency } } }', {}, bearer('alice-cart'));
  expect(body.errors).toBeUndefined();
  expect(body.data.savedCart).toEqual({ id: 'cart-alice', priceMatrix: { currency: expect.any(String) } });
});

const ENTITIES = `query($representations: [_Any!]!) {
  _entities(representations: $representations) { __typename ... on Node { id } ... on Article { title } }
}`;

test('_entities answers in order, null where the type has no such object or the reader may not see it', async () => {
  svc.commands.length = 0;
  const representations = [
    ...Array.from({ length: 40 }, (_, i) => ({ __typename: 'Article', id: i % 2 ? 'g-a-1-1' : 'g-a-2-2' })),
    { __typename: 'Article', id: 'a-draft' },
    { __typename: 'Article', id: 'nothing-here' },
    { __typename: 'Article', id: 'g-au-1' },
    { __typename: 'Cart', id: 'cart-alice' },
    { __typename: 'Page', id: 'g-page' },
  ];
  const { status, body, headers } = await subgraph(ENTITIES, { representations });
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  const entities = body.data._entities;
  expect(entities.slice(0, 2)).toEqual([
    { __typename: 'Article', id: 'g-a-2-2', title: expect.any(String) },
    { __typename: 'Article', id: 'g-a-1-1', title: expect.any(String) },
  ]);
  // A draft, an unknown id, another type's id, and a cart asked without its owner's token.
  expect(entities.slice(40)).toEqual([null, null, null, null, { __typename: 'Page', id: 'g-page' }]);
  // No cart is looked up for a reader without a token (src/operations/node/node.ts).
  expect(commands()).toEqual(['find:articles', 'find:pages']);
  // Entity answers are never shared: any Node type may be among them.
  expect(headers.get('cache-control')).toBe('no-store');

  const owner = await subgraph(
    ENTITIES,
    { representations: [{ __typename: 'Cart', id: 'cart-alice' }] },
    bearer('alice-cart'),
  );
  expect(owner.body.data._entities).toEqual([{ __typename: 'Cart', id: 'cart-alice' }]);
});

test.each([
  [[{ id: 'g-a-1-1' }], 'representations[0] must name a Node type in __typename'],
  [[{ __typename: 'Pick', id: 'g-a-1-1' }], 'representations[0] must name a Node type in __typename'],
  [[{ __typename: 'Article' }], 'representations[0] must hold the id as a string'],
  [[{ __typename: 'Article', id: 'no spaces!' }], 'representations[0].id must be 1 to 64 characters'],
  [['Article:g-a-1-1'], 'representations[0] must be an object'],
  [Array.from({ length: 1001 }, () => ({ __typename: 'Article', id: 'g-a-1-1' })), 'at most 1000 references'],
])('malformed references are BAD_USER_INPUT (%#)', async (representations, message) => {
  const { status, body } = await subgraph(ENTITIES, { representations });
  expect({ status, data: body.data, code: body.errors?.[0]?.extensions?.code }).toEqual({
    status: 200,
    data: null,
    code: 'BAD_USER_INPUT',
  });
  expect(body.errors![0]!.message).toContain(message);
});

test('_service answers the committed subgraph.graphql', async () => {
  const { body } = await subgraph('{ _service { sdl } }');
  expect(body.data._service.sdl).toBe(readFileSync(join(projectRoot, 'subgraph.graphql'), 'utf8'));
});

test('/graphql/subgraph refuses callers without the secret, and answers POST only', async () => {
  const refused: Array<Record<string, string>> = [
    {},
    { 'x-subgraph-secret': 'not-the-secret' },
    { 'x-subgraph-secret': `${SECRET}x` },
  ];
  for (const headers of refused) {
    const res = await post(`${svc.url}/graphql/subgraph`, '{ _service { sdl } }', {}, headers);
    expect({ status: res.status, code: res.body.errors?.[0]?.extensions?.code }).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
  }
  const get = await fetch(`${svc.url}/graphql/subgraph?query=${encodeURIComponent('{ _service { sdl } }')}`, {
    headers: ROUTER,
  });
  expect(get.status).toBe(405);
});

test('the public /graphql has no federation fields', async () => {
  const { status, body } = await post(`${svc.url}/graphql`, '{ _service { sdl } }', {}, ROUTER);
  expect(status).toBe(400);
  expect(body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
});
