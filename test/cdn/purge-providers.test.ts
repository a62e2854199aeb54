// The same purges driving Fastly's and Cloudflare's purge APIs (CDN_PURGE_PROVIDER): a local receiver stands in
// for each API and records the requests the gateway sends, which must be what the API takes: the method, path,
// the keys where the API reads them and the token as the API expects it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../../src/config.js';
import { Purger } from '../../src/events/purger.js';
import { article } from '../content/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';

interface Request {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let api: Server;
let base: string;
const requests: Request[] = [];

beforeAll(async () => {
  api = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += String(chunk)));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","success":true}');
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => api?.close(resolve)));

/** Starts a gateway purging through `provider` at `path`, writes one article, returns the requests it caused. */
async function purgesOf(provider: string, path: string, token: string, id: string): Promise<Request[]> {
  requests.length = 0;
  let svc: TestService | undefined;
  try {
    svc = await startTestService({
      env: {
        CDN_PURGE_PROVIDER: provider,
        CDN_PURGE_URL: `${base}${path}`,
        CDN_PURGE_TOKEN: token,
        CDN_PURGE_WINDOW_MS: '0',
        WEBHOOK_POLL_MS: '100',
      },
    });
    await svc.db.collection('articles').insertOne(article(id) as never);
    for (const deadline = Date.now() + 30_000; requests.length === 0; await new Promise((r) => setTimeout(r, 50)))
      if (Date.now() > deadline) throw new Error(`no purge reached the ${provider} API`);
    return [...requests];
  } finally {
    await svc?.close();
  }
}

test('Fastly: POST /service/{id}/purge with the keys in Surrogate-Key and the token in Fastly-Key', async () => {
  const [purge, ...more] = await purgesOf('fastly', '/service/svc-1/purge', 'fastly-secret', 'fastly-1');
  expect(more).toEqual([]);
  expect(purge!.method).toBe('POST');
  expect(purge!.path).toBe('/service/svc-1/purge');
  expect(purge!.headers['fastly-key']).toBe('fastly-secret');
  expect(String(purge!.headers['surrogate-key']).split(' ').sort()).toEqual(['article:fastly-1', 'articles']);
  expect(purge!.headers.authorization).toBeUndefined();
}, 60_000);

test('Cloudflare: POST /zones/{id}/purge_cache with {"tags": [...]} and a bearer token', async () => {
  const [purge, ...more] = await purgesOf('cloudflare', '/client/v4/zones/zone-1/purge_cache', 'cf-secret', 'cf-1');
  expect(more).toEqual([]);
  expect(purge!.method).toBe('POST');
  expect(purge!.path).toBe('/client/v4/zones/zone-1/purge_cache');
  expect(purge!.headers.authorization).toBe('Bearer cf-secret');
  expect(purge!.headers['content-type']).toBe('application/json');
  const body = JSON.parse(purge!.body) as { tags: string[] };
  expect(Object.keys(body)).toEqual(['tags']);
  expect([...body.tags].sort()).toEqual(['article:cf-1', 'articles']);
  expect(purge!.headers['fastly-key']).toBeUndefined();
}, 60_000);

test('a Fastly or Cloudflare purge URL without a token is refused at start', () => {
  for (const provider of ['fastly', 'cloudflare'])
    expect(() => loadConfig({ CDN_PURGE_PROVIDER: provider, CDN_PURGE_URL: `${base}/purge` })).toThrow(ConfigError);
  expect(() => loadConfig({ CDN_PURGE_PROVIDER: 'akamai' })).toThrow(ConfigError);
});

test('long key lists are split so that no request names more than a header line holds', async () => {
  requests.length = 0;
  const purger = new Purger({ url: `${base}/`, provider: 'varnish' }, { connectTimeoutMs: 2_000, timeoutMs: 5_000 });
  try {
    // 200 keys of about 60 bytes: 12 KB in one xkey-purge line, over Varnish's 8 KiB.
    const keys = Array.from({ length: 200 }, (_, i) => `productItem:${String(i).padStart(4, '0')}-${'x'.repeat(44)}`);
    const { attempt, failed } = await purger.purge(keys);
    expect(attempt.error).toBeNull();
    expect(failed.size).toBe(0);
    expect(requests.length).toBeGreaterThan(1);
    for (const r of requests) expect(Buffer.byteLength(String(r.headers['xkey-purge']))).toBeLessThanOrEqual(7_000);
    expect(requests.flatMap((r) => String(r.headers['xkey-purge']).split(' '))).toEqual(keys);
  } finally {
    await purger.close();
  }
});

test('a cache refusing every request gets a bounded number of them, not two per key', async () => {
  let asked = 0;
  const refusing = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      asked++;
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"success":false,"errors":["no such zone"]}');
    });
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/client/v4/zones/wrong/purge_cache`;
  const purger = new Purger({ url, provider: 'cloudflare', token: 't' }, { connectTimeoutMs: 2_000, timeoutMs: 5_000 });
  try {
    const keys = Array.from({ length: 300 }, (_, i) => `article:${i}`); // ten requests of 30
    const { attempt, failed } = await purger.purge(keys);
    expect(attempt.error).toMatch(/^HTTP 400/);
    expect(failed.size).toBe(300);
    expect(asked).toBeLessThanOrEqual(purger.requestsAtMost(keys));
    expect(purger.requestsAtMost(keys)).toBe(10 + 2 * (10 + 16));
  } finally {
    await purger.close();
    await new Promise((resolve) => refusing.close(resolve));
  }
});
