// A credential a client presents is either a valid bearer token or refused, the same way on every way in:
// GraphQL over HTTP (POST, and GET through the response cache), REST (problem+json), and the WebSocket
// endpoint (a real graphql-ws client sees 4403 with the reason an HTTP client reads in its error). What
// clients send by mistake — `Bearer undefined`, `Bearer ` with nothing, Basic and other schemes — is never
// read as anonymous. No header, or a blank one (a signed-out user's `token ? ... : ''`), is anonymous.
import { startTestService, type TestService } from '../helpers/service.js';
import { tokenFor } from '../helpers/tokens.js';
import { wsClient } from '../live/ws.js';
import { statusOf } from '../helpers/status.js';

let svc: TestService;
beforeAll(async () => {
  // The response cache on: its fast path must refuse what the Koa chain refuses.
  svc = await startTestService({ env: { RESPONSE_CACHE_MB: '8' } });
});
afterAll(() => svc.close());

const QUERY = '{ service { version } }';
type Answer = {
  status: number;
  challenge: string | null;
  type: string | null;
  body: {
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
    code?: string;
    detail?: string;
    data?: unknown;
  };
};

async function answer(res: Response): Promise<Answer> {
  return {
    status: res.status,
    challenge: res.headers.get('www-authenticate'),
    type: res.headers.get('content-type'),
    body: (await res.json()) as Answer['body'],
  };
}
const graphqlPost = async (authorization: string) =>
  answer(
    await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query: QUERY }),
    }),
  );
const graphqlGet = async (authorization: string) =>
  answer(await fetch(`${svc.url}/graphql?query=${encodeURIComponent(QUERY)}`, { headers: { authorization } }));
const rest = async (authorization: string) =>
  answer(await fetch(`${svc.url}/cms/product/categories`, { headers: { authorization } }));

/** How a real graphql-ws client's connection with this connection_init payload ended, or 'acked'. */
async function connect(params: Record<string, unknown>): Promise<{ code: number; reason: string } | 'acked'> {
  const client = wsClient(svc.url, params);
  const acked = new Promise<'acked'>((resolve) => client.on('connected', () => resolve('acked')));
  try {
    return await Promise.race([acked, client.closed]);
  } finally {
    await client.dispose();
  }
}

const REFUSED: Array<[string, string, RegExp]> = [
  [
    'a missing token interpolated as "undefined"',
    'Bearer undefined',
    /^Bearer realm="api", error="invalid_token", error_description="'Bearer undefined' carries no access token/,
  ],
  ['a missing token interpolated as "null"', 'Bearer null', /^Bearer realm="api", error="invalid_token"/],
  ['Bearer with nothing after it', 'Bearer ', /^Bearer realm="api", error="invalid_token"/],
  ['a token that is no JWT', 'Bearer not.a.jwt', /^Bearer realm="api", error="invalid_token"/],
  ['Basic', 'Basic dXNlcjpwYXNz', /^Bearer realm="api"$/],
  ['another scheme', 'Token abc', /^Bearer realm="api"$/],
  ['no scheme at all', 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln', /^Bearer realm="api"$/],
];

describe.each(REFUSED)('%s (%j) is refused', (_name, authorization, challenge) => {
  test('GraphQL POST and GET: 401, WWW-Authenticate: Bearer, an UNAUTHENTICATED error, no data', async () => {
    for (const res of [
      await graphqlPost(authorization),
      await graphqlGet(authorization),
      await graphqlGet(authorization),
    ]) {
      expect(res.status).toBe(401);
      expect(res.challenge).toMatch(challenge);
      expect(res.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      expect(res.body.data).toBeUndefined();
    }
  });

  test('REST: 401 problem+json with the same challenge', async () => {
    const res = await rest(authorization);
    expect(res.status).toBe(401);
    expect(res.type).toContain('application/problem+json');
    expect(res.challenge).toMatch(challenge);
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });

  test('WebSocket: graphql-ws closes with 4403 and the reason an HTTP client reads', async () => {
    const http = await graphqlPost(authorization);
    const closed = await connect({ authorization });
    expect(closed).toEqual({ code: 4403, reason: `Forbidden: ${http.body.errors![0]!.message}` });
  });
});

describe('nothing presented reads anonymously', () => {
  test.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['a blank header', '   '],
  ])('%s: 200 over HTTP, acknowledged over WebSocket', async (_name, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const post = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(post.status).toBe(200);
    expect(((await post.json()) as { data?: unknown }).data).toEqual({ service: { version: expect.any(String) } });
    expect(await statusOf(`${svc.url}/cms/product/categories`, { headers })).toBe(200);
    expect(await connect(authorization === undefined ? {} : { authorization })).toBe('acked');
  });
});

test('a valid token is accepted on every way in', async () => {
  const { accessToken } = await tokenFor(svc);
  const authorization = `Bearer ${accessToken}`;
  expect((await graphqlPost(authorization)).status).toBe(200);
  expect((await graphqlGet(authorization)).status).toBe(200);
  expect((await rest(authorization)).status).toBe(200);
  expect(await connect({ authorization })).toBe('acked');
});
