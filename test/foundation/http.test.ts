// The service's own surface: probes, request ids, the first query, error shapes.
import { startTestService, type TestService } from '../helpers/service.js';
import { serviceVersion } from '../../src/version.js';
import { statusOf } from '../helpers/status.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc.close();
});

test('GET /healthz answers 200 while the process lives', async () => {
  const res = await fetch(`${svc.url}/healthz`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok' });
});

test('GET /readyz pings the store and answers 200 with its latency', async () => {
  const res = await fetch(`${svc.url}/readyz`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { status: string; store: { reachable: boolean; latencyMs: number } };
  expect(body.status).toBe('ready');
  expect(body.store.reachable).toBe(true);
  expect(body.store.latencyMs).toBeGreaterThanOrEqual(0);
});

test('every response carries a request id; a sane incoming one is kept, an insane one replaced', async () => {
  const generated = await fetch(`${svc.url}/healthz`);
  expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

  const kept = await fetch(`${svc.url}/healthz`, { headers: { 'X-Request-Id': 'edge-1234.abc' } });
  expect(kept.headers.get('x-request-id')).toBe('edge-1234.abc');

  const replaced = await fetch(`${svc.url}/healthz`, { headers: { 'X-Request-Id': 'bad id with spaces <script>' } });
  expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
});

test('the service query reports the package version and a reachable store', async () => {
  const { status, body } = await svc.gql<{
    service: { name: string; version: string; uptimeSeconds: number; store: { reachable: boolean } };
  }>('{ service { name version uptimeSeconds store { reachable latencyMs embedded } } }');
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  expect(body.data!.service.version).toBe(serviceVersion);
  expect(body.data!.service.store.reachable).toBe(true);
  expect(body.data!.service.uptimeSeconds).toBeGreaterThanOrEqual(0);
});

test('a GraphQL syntax error is a 400 with a client code, no stack', async () => {
  const { status, body } = await svc.gql('{ service { ', undefined);
  expect(status).toBe(400);
  expect(body.errors![0].extensions!.code).toBe('GRAPHQL_PARSE_FAILED');
  expect(JSON.stringify(body)).not.toMatch(/stacktrace|at .*\.ts:/);
});

test('an unknown field is a validation error naming the field', async () => {
  const { status, body } = await svc.gql('{ nope }');
  expect(status).toBe(400);
  expect(body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
});

test('malformed JSON on /graphql is a 400 in GraphQL shape (problem fields kept), not a 500', async () => {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"query": ',
  });
  expect(res.status).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({
    status: 400,
    code: 'BAD_REQUEST',
    title: 'Bad Request',
    errors: [{ extensions: { code: 'BAD_REQUEST', requestId: res.headers.get('x-request-id') } }],
  });
});

test('an unknown path is a 404 problem+json', async () => {
  const res = await fetch(`${svc.url}/no/such/path`);
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
  expect(await res.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
});

test('a GET query needs no preflight header (no credential a browser sends by itself is honoured on /graphql)', async () => {
  const res = await fetch(`${svc.url}/graphql?query=${encodeURIComponent('{ service { name } }')}`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: { service: { name: expect.any(String) } } });
});

describe('GET /', () => {
  test('a browser gets a small HTML page linking the playground, the API docs, the OpenAPI document and the probes', async () => {
    const res = await fetch(`${svc.url}/`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await res.text();
    for (const href of ['/graphql', '/docs', '/openapi.json', '/healthz', '/readyz'])
      expect(html).toContain(`<a href="${href}">`);
  });

  test('a client asking for JSON gets the same links, and every one of them answers', async () => {
    const res = await fetch(`${svc.url}/`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { name: string; version: string; links: Array<{ rel: string; href: string }> };
    expect(body.version).toBe(serviceVersion);
    expect(body.links.map((l) => l.rel)).toEqual(
      expect.arrayContaining(['graphql', 'docs', 'openapi', 'oauth', 'health', 'ready']),
    );
    for (const { rel, href } of body.links) {
      // /graphql answers a browser with the playground and a client with GraphQL: a first query shows it is there.
      const url =
        rel === 'graphql' ? `${svc.url}${href}?query=${encodeURIComponent('{ __typename }')}` : `${svc.url}${href}`;
      expect([href, await statusOf(url)]).toEqual([href, 200]);
    }
  });
});

test("a GraphQL answer carries Apollo's content type, its exact length and a query string read as Apollo reads it", async () => {
  const post = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ service { name } }' }),
  });
  const bytes = Buffer.from(await post.arrayBuffer());
  expect(post.status).toBe(200);
  expect(post.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(Number(post.headers.get('content-length'))).toBe(bytes.length);
  expect(JSON.parse(bytes.toString('utf8'))).toEqual({ data: { service: { name: expect.any(String) } } });
  // A GET whose query has characters url.parse escapes (spaces, braces) answers the same.
  const get = await fetch(`${svc.url}/graphql?query={ service { name } }`, {
    headers: { 'apollo-require-preflight': 'true' },
  });
  expect(get.status).toBe(200);
  expect(Buffer.from(await get.arrayBuffer())).toEqual(bytes);
  const graphqlResponse = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: '{ service { name } }' }),
  });
  expect(graphqlResponse.headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
});
