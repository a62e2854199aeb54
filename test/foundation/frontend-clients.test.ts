// Frontend GraphQL clients in their default configuration against the running service: urql (queries as GET,
// no preflight header) and Apollo Client's HttpLink with useGETForQueries. /graphql honours no credential a
// browser sends by itself (only a bearer token a script sets), so a plain GET query is answered, from the
// response cache too; mutations still run over POST only.
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { startTestService, type TestService } from '../helpers/service.js';
import { tokenFor } from '../helpers/tokens.js';

let svc: TestService;
beforeAll(async () => {
  // The channel is written before the service starts, so no later invalidation event evicts its cached answer.
  svc = await startTestService({
    env: { RESPONSE_CACHE_MB: '8' },
    beforeStart: async (store) => {
      await store.db.collection('channels').insertOne({
        _id: '11' as never,
        name: 'Evening Edition',
        image: null,
        description: 'News at six',
        objectType: 'channel',
        configuration: { linkables: [], dynamicSections: [] },
      });
    },
  });
});
afterAll(() => svc.close());

interface Sent {
  method: string;
  headers: Headers;
  cache: string | null;
}

/** The platform's fetch, noting what each request sent and whether the response cache answered it. */
function recording(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    sent.push({
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      cache: res.headers.get('x-cache'),
    });
    return res;
  };
}

const CHANNEL = 'query FrontendChannel { channel(id: "11") { id name } }';

test('urql with its default exchanges sends queries as GET without a preflight header, and they are answered (and cached)', async () => {
  const sent: Sent[] = [];
  const client = new Client({
    url: `${svc.url}/graphql`,
    exchanges: [cacheExchange, fetchExchange],
    fetch: recording(sent),
  });
  const first = await client.query(CHANNEL, {}, { requestPolicy: 'network-only' }).toPromise();
  expect(first.error).toBeUndefined();
  expect(first.data).toEqual({ channel: { __typename: 'Channel', id: '11', name: 'Evening Edition' } });
  const second = await client.query(CHANNEL, {}, { requestPolicy: 'network-only' }).toPromise();
  expect(second.data).toEqual(first.data);
  expect(sent.map((s) => s.method)).toEqual(['GET', 'GET']);
  expect(sent[0]!.headers.has('apollo-require-preflight')).toBe(false);
  expect(sent[0]!.headers.has('content-type')).toBe(false);
  // The second answer came from the response cache's fast path, before Koa.
  expect(sent.map((s) => s.cache)).toEqual(['MISS', 'HIT']);
});

test('urql with a bearer token in fetchOptions reads as the customer', async () => {
  const { accessToken } = await tokenFor(svc, { scopes: ['openid', 'cart'] });
  const query = '{ cart(id: "no-such-cart") { id } }';
  const anonymous = new Client({ url: `${svc.url}/graphql`, exchanges: [fetchExchange] });
  expect((await anonymous.query(query, {}).toPromise()).error?.graphQLErrors[0]?.extensions.code).toBe(
    'UNAUTHENTICATED',
  );
  const signedIn = new Client({
    url: `${svc.url}/graphql`,
    exchanges: [fetchExchange],
    fetchOptions: () => ({ headers: { authorization: `Bearer ${accessToken}` } }),
  });
  const res = await signedIn.query(query, {}).toPromise();
  expect(res.error).toBeUndefined();
  expect(res.data).toEqual({ cart: null });
});

test("Apollo Client's HttpLink with useGETForQueries: queries go as GET and are answered", async () => {
  const sent: Sent[] = [];
  const client = new ApolloClient({
    link: new HttpLink({ uri: `${svc.url}/graphql`, fetch: recording(sent), useGETForQueries: true }),
    cache: new InMemoryCache(),
  });
  try {
    const { data, error } = await client.query({ query: gql(CHANNEL), fetchPolicy: 'network-only' });
    expect(error).toBeUndefined();
    expect(data).toEqual({ channel: { __typename: 'Channel', id: '11', name: 'Evening Edition' } });
    expect(sent.map((s) => s.method)).toEqual(['GET']);
    expect(sent[0]!.headers.has('apollo-require-preflight')).toBe(false);
  } finally {
    client.stop();
  }
});

test('a mutation sent as GET is refused (405, Allow: POST) and not run; as POST it runs', async () => {
  const mutation = 'mutation { subscribeToNewsletter(channelId: "1", email: "get@example.com") { accepted } }';
  const get = await fetch(`${svc.url}/graphql?query=${encodeURIComponent(mutation)}`);
  expect(get.status).toBe(405);
  expect(get.headers.get('allow')).toBe('POST');
  expect(((await get.json()) as { data?: unknown }).data).toBeUndefined();
  expect(await svc.db.collection('newsletterSubscriptions').countDocuments({})).toBe(0);
});

test('a JSON-less POST (what an HTML form can send) is refused before it runs', async () => {
  const form = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `query=${encodeURIComponent('{ service { name } }')}`,
  });
  expect(form.status).toBe(415);
});
