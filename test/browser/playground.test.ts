// The playground over HTTP (no browser needed): content negotiation on GET /graphql, the page's CSP,
// the bundled assets' caching, and PLAYGROUND=false.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { DEFAULT_QUERY, playground } from '../../src/playground/index.js';
import { readManifest } from '../../src/playground/assets.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { ensurePlaygroundBundle } from './bundle.js';
import { statusOf } from '../helpers/status.js';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('playground on (the default outside production)', () => {
  let svc: TestService;
  beforeAll(async () => {
    await ensurePlaygroundBundle();
    svc = await startTestService();
  }, 120_000); // may bundle the playground first
  afterAll(() => svc.close());

  test('a browser gets the page, with its own strict CSP, no caching, and Vary: Accept', async () => {
    const res = await fetch(`${svc.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('vary')).toMatch(/\bAccept\b/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    const html = await res.text();
    const { js, css } = readManifest()!;
    expect(html).toContain(`src="/playground/${js}"`);
    expect(html).toContain(`href="/playground/${css}"`);
    // Nothing from elsewhere: the service works with no internet.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const settings = JSON.parse(
      /<script id="playground-settings" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!,
    );
    expect(settings).toMatchObject({
      endpoint: '/graphql',
      defaultHeaders: expect.stringContaining('"Authorization"'),
    });
    expect(settings.defaultQuery).toContain(DEFAULT_QUERY);
  });

  test('API requests on the same URL stay GraphQL: Accept application/json, */*, or none', async () => {
    const query = encodeURIComponent('{ service { name } }');
    for (const accept of ['application/json', 'application/graphql-response+json', '*/*', undefined]) {
      const headers: Record<string, string> = { 'apollo-require-preflight': 'true' };
      if (accept) headers.accept = accept;
      const res = await fetch(`${svc.url}/graphql?query=${query}`, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/json/);
      expect(((await res.json()) as { data: { service: { name: string } } }).data.service.name).toBeTruthy();
    }
    const post = await svc.gql('{ service { name } }', undefined, { accept: BROWSER_ACCEPT });
    expect(post.status).toBe(200);
    expect(post.body.data).toBeDefined();
  });

  test('bundle files are served with year-long immutable caching; unknown names are 404', async () => {
    const { js, css } = readManifest()!;
    const script = await fetch(`${svc.url}/playground/${js}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await script.text()).length).toBeGreaterThan(100_000);
    const style = await fetch(`${svc.url}/playground/${css}`);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await style.text()).length).toBeGreaterThan(1_000);
    for (const path of [
      '/playground/manifest.json',
      '/playground/..%2fpackage.json',
      '/playground/playground-NOPE.js',
    ]) {
      expect(await statusOf(`${svc.url}${path}`)).toBe(404);
    }
  });
});

test('PLAYGROUND=false: a browser gets no page, only GraphQL, and no bundle files', async () => {
  await ensurePlaygroundBundle();
  const svc = await startTestService({ env: { PLAYGROUND: 'false' } });
  try {
    const res = await fetch(`${svc.url}/graphql`, { headers: { accept: BROWSER_ACCEPT } });
    expect(res.headers.get('content-type')).not.toMatch(/html/);
    expect(await res.text()).not.toMatch(/<html|GraphiQL|playground/i);
    expect(await statusOf(`${svc.url}/playground/${readManifest()!.js}`)).toBe(404);
  } finally {
    await svc.close();
  }
}, 120_000);

test('NODE_ENV=production turns the playground off unless PLAYGROUND says otherwise', async () => {
  const { loadConfig } = await import('../../src/config.js');
  expect(loadConfig({ NODE_ENV: 'production' }).playground).toBe(false);
  expect(loadConfig({ NODE_ENV: 'production', PLAYGROUND: 'true' }).playground).toBe(true);
  expect(loadConfig({ NODE_ENV: 'development' }).playground).toBe(true);
});

test('without a built bundle the page says how to build it (503), and GraphQL is unaffected', async () => {
  const empty = mkdtempSync(join(tmpdir(), 'no-playground-'));
  const app = new Koa();
  app.use(playground({ dir: empty }));
  app.use((ctx) => {
    ctx.body = { graphql: true };
  });
  const server = app.listen(0, '127.0.0.1');
  try {
    await new Promise((r) => server.once('listening', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`;
    const page = await fetch(url, { headers: { accept: BROWSER_ACCEPT } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build');
    expect(await (await fetch(url, { headers: { accept: 'application/json' } })).json()).toEqual({ graphql: true });
  } finally {
    server.close();
    rmSync(empty, { recursive: true, force: true });
  }
});
