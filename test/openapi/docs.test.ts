// GET /openapi.json and the /docs viewer over HTTP: the document with its validators, the page with its
// own CSP and no inline script, every file it references served from this service (no CDN) with a
// content type and caching, and nothing outside the allowlist.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { serviceVersion } from '../../src/version.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { statusOf } from '../helpers/status.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${svc.url}${path}`, { headers });
const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

test('GET /openapi.json: the 3.1 document as JSON, with an ETag, public caching and a 304', async () => {
  const res = await get('/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  expect(res.headers.get('x-request-id')).toBeTruthy();
  const doc = (await res.json()) as { openapi: string; info: { version: string }; servers: Array<{ url: string }> };
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.info.version).toBe(serviceVersion);
  expect(doc.servers[0]!.url).toBe(svc.config.publicUrl);
  const again = await get('/openapi.json', { 'if-none-match': res.headers.get('etag')! });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe('');
});

test('other methods on /openapi.json are a 405 problem', async () => {
  const res = await fetch(`${svc.url}/openapi.json`, { method: 'POST' });
  expect(res.status).toBe(405);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(((await res.json()) as { code: string }).code).toBe('METHOD_NOT_ALLOWED');
});

test('GET /docs: Swagger UI with its own CSP (scripts from this origin only), no inline script, not cached', async () => {
  for (const path of ['/docs', '/docs/']) {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-eval/);
    const html = await res.text();
    // Every <script> has a src: nothing inline for the CSP to allow.
    expect(html.match(/<script\b[^>]*>/g)!.every((tag) => / src="/.test(tag))).toBe(true);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  }
});

test('every file the page references is served from this service, with a content type, caching, an ETag and a 304', async () => {
  const html = await (await get('/docs')).text();
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
    .map((m) => m[1]!)
    .filter((ref) => ref.startsWith('/docs/'));
  expect(refs.map((r) => r.replace(/\?.*$/, '')).sort()).toEqual([
    '/docs/assets/docs-init.js',
    '/docs/assets/favicon-16x16.png',
    '/docs/assets/favicon-32x32.png',
    '/docs/assets/swagger-ui-bundle.js',
    '/docs/assets/swagger-ui.css',
  ]);
  const types: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/, png: /^image\/png$/ };
  for (const ref of refs) {
    const res = await get(ref);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(types[ref.replace(/\?.*$/, '').split('.').pop()!]!);
    expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const body = Buffer.from(await res.arrayBuffer());
    const name = ref.replace(/\?.*$/, '').split('/').pop()!;
    if (name !== 'docs-init.js') expect(body.equals(readFileSync(join(distDir, name)))).toBe(true);
    const again = await get(ref, { 'if-none-match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
  }
});

test('the initializer starts Swagger UI on /openapi.json, with no outside validator', async () => {
  const init = await (await get('/docs/assets/docs-init.js')).text();
  expect(init).toContain('url: "/openapi.json"');
  expect(init).toContain('validatorUrl: null');
});

test('the bundled OAuth redirect page is served with the docs CSP', async () => {
  const res = await get('/docs/assets/oauth2-redirect.html');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect((await get('/docs/assets/oauth2-redirect.js')).status).toBe(200);
});

test('only the allowlisted files are reachable', async () => {
  for (const path of [
    '/docs/assets/package.json',
    '/docs/assets/index.html',
    '/docs/assets/swagger-ui-bundle.js.map',
    '/docs/assets/..%2Fpackage.json',
    '/docs/assets/%2e%2e%2fpackage.json',
  ]) {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  }
});

test('API_DOCS=false: no viewer (404 problem), the document still served', async () => {
  const off = await startTestService({ env: { API_DOCS: 'false' } });
  try {
    for (const path of ['/docs', '/docs/', '/docs/assets/swagger-ui.css']) {
      const res = await fetch(`${off.url}${path}`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
    }
    expect(await statusOf(`${off.url}/openapi.json`)).toBe(200);
  } finally {
    await off.close();
  }
});
