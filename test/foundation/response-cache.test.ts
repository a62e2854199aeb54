// Anonymous public reads are served from stored bytes (GraphQL GET with automatic persisted queries, and
// the REST lists); nothing is cached for a token-bearing request or for uncacheable answers.
import { createHash } from 'node:crypto';
import { startTestService, type TestService } from '../helpers/service.js';
import { tokenFor } from '../helpers/tokens.js';

let svc: TestService;

beforeAll(async () => {
  // The harness turns the response cache off (other suites change data and re-read at once); on here.
  // The channel is written before the service starts: a write after it would be reported by the invalidation
  // stream at some later moment, evicting (or keeping from being stored) whatever the first test computes.
  svc = await startTestService({
    env: { RESPONSE_CACHE_MB: '16', CORS_ORIGINS: 'https://app.example' },
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
afterAll(async () => {
  await svc.close();
});

const QUERY = 'query EveningChannel { channel(id: "11") { id name description } }';
const csrf = { 'apollo-require-preflight': 'true' };
const getUrl = (params: Record<string, string>) => `${svc.url}/graphql?${new URLSearchParams(params).toString()}`;

test('a public GraphQL GET is computed once, then served from stored bytes with its ETag', async () => {
  const first = await fetch(getUrl({ query: QUERY }), { headers: csrf });
  expect(first.status).toBe(200);
  expect(first.headers.get('cache-control')).toBe('max-age=60, public');
  expect(first.headers.get('x-cache')).toBe('MISS');
  const firstBody = await first.text();
  expect(JSON.parse(firstBody).data.channel.name).toBe('Evening Edition');

  // (A write to the store evicts the entry: test/foundation/cache-invalidation.test.ts.)
  const second = await fetch(getUrl({ query: QUERY }), { headers: csrf });
  expect(second.headers.get('x-cache')).toBe('HIT');
  expect(await second.text()).toBe(firstBody);
  expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  expect(Number(second.headers.get('age'))).toBeGreaterThanOrEqual(0);

  const notModified = await fetch(getUrl({ query: QUERY }), {
    headers: { ...csrf, 'if-none-match': first.headers.get('etag')! },
  });
  expect(notModified.status).toBe(304);
  // RFC 9110 §13.1.2: weak comparison, and a list of tags.
  const weakInList = await fetch(getUrl({ query: QUERY }), {
    headers: { ...csrf, 'if-none-match': `"other", W/${first.headers.get('etag')}` },
  });
  expect(weakInList.status).toBe(304);
});

test('automatic persisted queries: register by hash once, then GET by hash alone (and cached)', async () => {
  const query = 'query PersistedChannel { channel(id: "11") { id } }';
  const hash = createHash('sha256').update(query).digest('hex');
  const extensions = JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });

  const unknown = await fetch(getUrl({ extensions }), { headers: csrf });
  expect(
    ((await unknown.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code,
  ).toBe('PERSISTED_QUERY_NOT_FOUND');

  const register = await fetch(getUrl({ query, extensions }), { headers: csrf });
  expect(register.status).toBe(200);
  const byHash = await fetch(getUrl({ extensions }), { headers: csrf });
  expect(byHash.status).toBe(200);
  expect(((await byHash.json()) as { data: { channel: { id: string } } }).data.channel.id).toBe('11');
  expect((await fetch(getUrl({ extensions }), { headers: csrf })).headers.get('x-cache')).toBe('HIT');
});

test('uncacheable answers (store status) are never stored', async () => {
  const query = '{ service { store { reachable } } }';
  const first = await fetch(getUrl({ query }), { headers: csrf });
  expect(first.headers.get('cache-control')).toBe('no-store');
  const second = await fetch(getUrl({ query }), { headers: csrf });
  expect(second.headers.get('x-cache')).toBeNull();
});

test('a token-bearing request neither reads nor fills the public entries, and its answer is private', async () => {
  const { accessToken } = await tokenFor(svc, { scopes: ['openid'] });
  const query = 'query TokenChannel { channel(id: "11") { name } }';
  const withToken = await fetch(getUrl({ query }), { headers: { ...csrf, authorization: `Bearer ${accessToken}` } });
  expect(withToken.status).toBe(200);
  // Shared with readers of the same entitlements only (test/foundation/shared-answers.test.ts), never publicly.
  expect(withToken.headers.get('cache-control')).toBe('max-age=60, private');

  const anonymous = await fetch(getUrl({ query }), { headers: csrf });
  expect(anonymous.headers.get('x-cache')).toBe('MISS');
  expect(anonymous.headers.get('cache-control')).toBe('max-age=60, public');
});

test('a GraphQL GET without a preflight header is answered from the cache like one with it', async () => {
  await fetch(getUrl({ query: QUERY }), { headers: csrf });
  const res = await fetch(getUrl({ query: QUERY }));
  expect(res.status).toBe(200);
  expect(res.headers.get('x-cache')).toBe('HIT');
});

test('a hit answered before Koa (no Origin) carries the same headers as one answered through the whole chain', async () => {
  const query = 'query HeadersChannel { channel(id: "11") { id description } }';
  const first = await fetch(getUrl({ query }), { headers: csrf });
  expect(first.headers.get('x-cache')).toBe('MISS');
  await first.text();

  const plain = await fetch(getUrl({ query }), { headers: { ...csrf, 'x-request-id': 'fast-path-1' } });
  const withOrigin = await fetch(getUrl({ query }), { headers: { ...csrf, origin: 'https://app.example' } });
  expect(plain.status).toBe(200);
  expect(withOrigin.status).toBe(200);
  expect(await plain.text()).toBe(await withOrigin.text());
  expect(plain.headers.get('x-request-id')).toBe('fast-path-1');
  expect(withOrigin.headers.get('access-control-allow-origin')).toBe('https://app.example');
  expect(plain.headers.get('access-control-allow-origin')).toBeNull();

  const perDelivery = new Set(['date', 'x-request-id', 'age', 'connection', 'keep-alive']);
  const comparable = (res: Response) =>
    Object.fromEntries(
      [...res.headers].filter(([name]) => !perDelivery.has(name) && !name.startsWith('access-control-')),
    );
  expect(comparable(plain)).toEqual(comparable(withOrigin));
  // The security headers of the chain are part of what is replayed.
  expect(plain.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(plain.headers.get('x-content-type-options')).toBe('nosniff');

  const notModified = await fetch(getUrl({ query }), {
    headers: { ...csrf, 'if-none-match': plain.headers.get('etag')! },
  });
  expect(notModified.status).toBe(304);
  expect(notModified.headers.get('etag')).toBe(plain.headers.get('etag'));

  // Hits are counted under the operation's name like any other request.
  const metrics = await (await fetch(`${svc.url}/metrics`)).text();
  expect(metrics).toMatch(
    /http_request_duration_seconds_count\{[^}]*route="graphql:HeadersChannel"[^}]*status="200"[^}]*\} [3-9]/,
  );
  expect(metrics).toMatch(
    /http_request_duration_seconds_count\{[^}]*route="graphql:HeadersChannel"[^}]*status="304"[^}]*\} 1/,
  );
});
