// Answers in the coding a client asks for, read as bytes off the wire: Content-Encoding, Vary, an ETag per
// representation and 304 for each, 406 when every coding is refused, identity for small bodies and for
// Accept-Encoding values that make no sense; and the response cache's kept variants, compressed once.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { startTestService, type TestService } from '../helpers/service.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: Buffer;
}

function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

function decoded(raw: Raw): string {
  const coding = raw.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(raw.bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(raw.bytes).toString('utf8');
  expect(coding).toBeUndefined();
  return raw.bytes.toString('utf8');
}

const varies = (raw: Raw): string[] =>
  String(raw.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase());

/** Asks until the answer comes in `coding` (a kept variant is made off the event loop on first demand). */
async function untilCoded(base: string, path: string, coding: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 400; i++) {
    const raw = await get(base, path, { 'accept-encoding': coding, ...headers });
    if (raw.headers['content-encoding'] === coding && raw.headers['x-cache'] !== 'MISS') return raw;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${path} never came in ${coding}`);
}

const LIST = '/cms/page/g-page/issues?limit=3';
const BIG_QUERY = `/graphql?query=${encodeURIComponent(`{ a: __schema { types { name description } } }`)}`;
const CACHED_QUERY = `/graphql?query=${encodeURIComponent('{ articles(first: 9) { edges { cursor node { id title __typename } } } }')}`;
const SMALL_QUERY = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
const preflight = { 'apollo-require-preflight': '1' };

async function seeded(env: Record<string, string>): Promise<TestService> {
  return startTestService({
    env,
    beforeStart: (store) => f.insert(store.db, contentGraph({ prefix: 'g-', issues: 3, articlesPerIssue: 3 }).fixture),
  });
}

describe('without the response cache (compressed per request)', () => {
  let svc: TestService;
  let identity: Raw;
  beforeAll(async () => {
    svc = await seeded({});
    identity = await get(svc.url, LIST, { 'accept-encoding': 'identity' });
  }, 60_000);
  afterAll(() => svc.close());

  test('br and gzip decode to the identity bytes, each with its own strong ETag, all varying on Accept-Encoding', async () => {
    expect(identity.status).toBe(200);
    expect(identity.bytes.length).toBeGreaterThan(1024);
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(varies(identity)).toContain('accept-encoding');
    const etag = String(identity.headers.etag);
    for (const coding of ['br', 'gzip']) {
      const raw = await get(svc.url, LIST, { 'accept-encoding': coding });
      expect([coding, raw.headers['content-encoding']]).toEqual([coding, coding]);
      expect(varies(raw)).toContain('accept-encoding');
      expect(raw.headers.etag).toMatch(new RegExp(`^"[^"]+-${coding}\\d+"$`));
      expect(raw.headers.etag).not.toBe(etag);
      expect(raw.headers.etag!.slice(0, etag.length - 1)).toBe(etag.slice(0, -1));
      expect(raw.bytes.length).toBeLessThan(identity.bytes.length / 2);
      expect(decoded(raw)).toBe(identity.bytes.toString('utf8'));
    }
  });

  test('304 for each representation: its own ETag matches, another coding answers 200', async () => {
    const br = await get(svc.url, LIST, { 'accept-encoding': 'br' });
    const gzip = await get(svc.url, LIST, { 'accept-encoding': 'gzip' });
    const again = await get(svc.url, LIST, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect([again.status, again.headers.etag, again.bytes.length]).toEqual([304, br.headers.etag, 0]);
    const other = await get(svc.url, LIST, { 'accept-encoding': 'gzip', 'if-none-match': String(br.headers.etag) });
    expect([other.status, other.headers['content-encoding'], other.headers.etag]).toEqual([
      200,
      'gzip',
      gzip.headers.etag,
    ]);
    const plain = await get(svc.url, LIST, { 'if-none-match': String(identity.headers.etag) });
    expect(plain.status).toBe(304);
  });

  test.each([
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip, br', 'br'],
    ['*', 'br'],
    ['deflate', undefined],
    ['*;q=0, identity', undefined],
    ['identity;q=0, gzip', 'gzip'],
    ['', undefined],
    ['br;q=abc, gzip;q=', 'gzip'],
    [';;;,,, ===, br;;q=1', 'br'],
    ['BR', 'br'],
  ])('Accept-Encoding %j: content coding %s', async (header, coding) => {
    const raw = await get(svc.url, LIST, { 'accept-encoding': header });
    expect(raw.status).toBe(200);
    expect(raw.headers['content-encoding']).toBe(coding);
    expect(decoded(raw)).toBe(identity.bytes.toString('utf8'));
  });

  test.each(['identity;q=0', '*;q=0', 'deflate, identity;q=0', 'br;q=0, gzip;q=0, identity;q=0'])(
    'Accept-Encoding %j refuses every coding: 406 problem',
    async (header) => {
      const raw = await get(svc.url, LIST, { 'accept-encoding': header });
      expect(raw.status).toBe(406);
      expect(raw.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(raw.headers.etag).toBeUndefined();
      expect(JSON.parse(raw.bytes.toString('utf8'))).toMatchObject({
        status: 406,
        code: 'NOT_ACCEPTABLE',
        type: 'urn:gateway:problem:not-acceptable',
      });
    },
  );

  test('small bodies stay identity and still vary; an error is never turned into a 406', async () => {
    const small = await get(svc.url, SMALL_QUERY, { 'accept-encoding': 'br', ...preflight });
    expect([small.status, small.headers['content-encoding']]).toEqual([200, undefined]);
    expect(varies(small)).toContain('accept-encoding');
    const missing = await get(svc.url, '/cms/page/nothing/issues', { 'accept-encoding': 'identity;q=0' });
    expect(missing.status).toBe(404);
    const long = await get(svc.url, LIST, { 'accept-encoding': `${'x'.repeat(4000)};q=1` });
    expect([long.status, long.headers['content-encoding']]).toEqual([200, undefined]);
  });

  test('GraphQL over GET and POST, and the OpenAPI document, come compressed', async () => {
    const getAnswer = await get(svc.url, BIG_QUERY, { 'accept-encoding': 'br', ...preflight });
    expect([getAnswer.status, getAnswer.headers['content-encoding']]).toEqual([200, 'br']);
    expect(JSON.parse(decoded(getAnswer)).data.a.types.length).toBeGreaterThan(10);
    // undici's fetch asks for gzip and decodes it.
    const post = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ a: __schema { types { name description } } }' }),
    });
    expect(post.headers.get('content-encoding')).toBe('gzip');
    expect(await post.json()).toEqual(JSON.parse(decoded(getAnswer)));
    // The document is kept: compressed once at the high level, identity until then.
    const doc = await untilCoded(svc.url, '/openapi.json', 'br');
    expect(doc.headers.etag).toMatch(/-br11"$/);
    const plain = await get(svc.url, '/openapi.json');
    expect(decoded(doc)).toBe(plain.bytes.toString('utf8'));
    const notModified = await get(svc.url, '/openapi.json', {
      'accept-encoding': 'br',
      'if-none-match': String(doc.headers.etag),
    });
    expect(notModified.status).toBe(304);
  });

  test("the docs viewer's files come compressed, images as they are", async () => {
    const js = await untilCoded(svc.url, '/docs/assets/swagger-ui.css', 'gzip');
    expect(js.headers.etag).toMatch(/-gzip9"$/);
    const png = await get(svc.url, '/docs/assets/favicon-32x32.png', { 'accept-encoding': 'br' });
    expect([png.status, png.headers['content-encoding']]).toEqual([200, undefined]);
  });
});

describe('with the response cache (variants kept)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await seeded({ RESPONSE_CACHE_MB: '16' });
  }, 60_000);
  afterAll(() => svc.close());

  test('a cached answer is sent from its kept variant, with an ETag and a 304 per representation', async () => {
    const first = await get(svc.url, LIST, { 'accept-encoding': 'identity' });
    expect(first.headers['x-cache']).toBe('MISS');
    const br = await untilCoded(svc.url, LIST, 'br');
    expect(br.headers['x-cache']).toBe('HIT');
    expect(br.headers.etag).toBe(`${String(first.headers.etag).slice(0, -1)}-br11"`);
    expect(varies(br)).toContain('accept-encoding');
    expect(decoded(br)).toBe(first.bytes.toString('utf8'));
    // The same bytes every time: compressed once.
    const again = await get(svc.url, LIST, { 'accept-encoding': 'br' });
    expect(again.bytes.equals(br.bytes)).toBe(true);
    const notModified = await get(svc.url, LIST, { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect([notModified.status, notModified.headers.etag, notModified.headers['x-cache']]).toEqual([
      304,
      br.headers.etag,
      'HIT',
    ]);
    const identity = await get(svc.url, LIST, { 'if-none-match': String(br.headers.etag) });
    expect([identity.status, identity.headers.etag, identity.headers['content-encoding']]).toEqual([
      200,
      first.headers.etag,
      undefined,
    ]);
    // Through Koa (an Origin), the same representations.
    const viaKoa = await get(svc.url, LIST, { 'accept-encoding': 'br', origin: 'https://example.com' });
    expect([viaKoa.headers['x-cache'], viaKoa.headers.etag]).toEqual(['HIT', br.headers.etag]);
    expect(viaKoa.bytes.equals(br.bytes)).toBe(true);
  });

  test('a cached answer to a client refusing every coding is a 406; one refusing identity alone is compressed', async () => {
    await get(svc.url, LIST);
    const refused = await get(svc.url, LIST, { 'accept-encoding': 'identity;q=0' });
    expect(refused.status).toBe(406);
    const gzipOnly = await get(svc.url, LIST, { 'accept-encoding': 'gzip, identity;q=0' });
    expect([gzipOnly.status, gzipOnly.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(JSON.parse(decoded(gzipOnly))).toEqual(JSON.parse((await get(svc.url, LIST)).bytes.toString('utf8')));
  });

  test('a cached GraphQL GET comes compressed from the fast path', async () => {
    const first = await get(svc.url, CACHED_QUERY, preflight);
    expect([first.status, first.headers['x-cache']]).toEqual([200, 'MISS']);
    const br = await untilCoded(svc.url, CACHED_QUERY, 'br', preflight);
    expect(br.headers['x-cache']).toBe('HIT');
    expect(decoded(br)).toBe(first.bytes.toString('utf8'));
  });
});
