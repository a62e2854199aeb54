// Hardening visible to a client: content types, security headers, CORS allowlist, GraphQL limits.
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  // Small limits so the foundation's own small schema can cross them.
  svc = await startTestService({
    env: {
      GRAPHQL_MAX_DEPTH: '2',
      GRAPHQL_MAX_ALIASES: '3',
      GRAPHQL_MAX_COST: '3',
      CORS_ORIGINS: 'https://app.example',
    },
  });
});
afterAll(async () => {
  await svc.close();
});

test('a non-JSON body on /graphql is 415 problem+json', async () => {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'apollo-require-preflight': '1' },
    body: '{ service { name } }',
  });
  expect(res.status).toBe(415);
  expect(await res.json()).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
});

test('a JSON body over 1 MiB is 413', async () => {
  const query = `{ service { name } } # ${'x'.repeat(1_100_000)}`;
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(res.status).toBe(413);
  expect(await res.json()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
});

test('JSON responses carry security headers', async () => {
  const res = await fetch(`${svc.url}/healthz`);
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(res.headers.get('x-powered-by')).toBeNull();
});

// Helmet runs on every answer, /graphql's included (helmet called directly, not through koa-helmet: src/http/security.ts).
test('GraphQL answers carry every security header, and a 415 refusal too', async () => {
  const expected = {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
  const answered = await svc.gql('{ service { name } }');
  expect(answered.status).toBe(200);
  const refused = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'apollo-require-preflight': '1' },
    body: '{}',
  });
  expect(refused.status).toBe(415);
  for (const headers of [answered.headers, refused.headers]) {
    for (const [name, value] of Object.entries(expected)) expect([name, headers.get(name)]).toEqual([name, value]);
    // Plain http without an https PUBLIC_URL: never HSTS (RFC 6797 §7.2).
    expect(headers.get('strict-transport-security')).toBeNull();
  }
});

test('CORS answers allowed origins and stays silent for others', async () => {
  const allowed = await fetch(`${svc.url}/graphql`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
  });
  expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
  const denied = await fetch(`${svc.url}/graphql`, {
    method: 'OPTIONS',
    headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
  });
  expect(denied.headers.get('access-control-allow-origin')).toBeNull();
});

test('depth past the limit is rejected before execution', async () => {
  const { status, body } = await svc.gql('{ service { store { reachable } } }');
  expect(status).toBe(400);
  expect(body.errors![0].message).toMatch(/depth/i);
  expect(body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
});

test('aliases past the limit are rejected', async () => {
  const { status, body } = await svc.gql(
    '{ a: service { name } b: service { name } c: service { name } d: service { name } }',
  );
  expect(status).toBe(400);
  expect(body.errors![0].message).toMatch(/alias/i);
  expect(body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
});

test('cost past the limit is a BAD_USER_INPUT error naming the cost', async () => {
  const { status, body } = await svc.gql('{ service { name version uptimeSeconds } }');
  expect(status).toBe(400);
  expect(body.errors![0].extensions!.code).toBe('BAD_USER_INPUT');
  expect(body.errors![0].message).toMatch(/cost 4 exceeds the limit of 3/);
});

test('a query with more tokens than the limit is a validation failure, 400 (parsing stops at the limit)', async () => {
  const fields = Array.from({ length: 6000 }, () => 'name').join(' ');
  const { status, body } = await svc.gql(`{ service { ${fields} } }`);
  expect(status).toBe(400);
  expect(body.errors![0].extensions!.code).toBe('GRAPHQL_VALIDATION_FAILED');
  expect(body.errors![0].message).toMatch(/5000 tokens/);
});
