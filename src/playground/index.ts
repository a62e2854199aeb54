// GET /graphql in a browser: the GraphiQL playground, bundled at build time and served from this service
// (no CDN). Content negotiation: a request that prefers text/html gets the page, anything else (API
// clients, `Accept: application/json`, no Accept at all) goes on to GraphQL.
import type Koa from 'koa';
import { readManifest, serveAssets, assetDir } from './assets.js';
import { DEFAULT_HEADERS, PLAYGROUND_QUERY } from './default-query.js';
import { PAGE_CSP, renderNotBuilt, renderPage } from './page.js';

export { DEFAULT_QUERY } from './default-query.js';

const API_TYPES = ['application/json', 'application/graphql-response+json'];

/** True when the client prefers HTML to every GraphQL response type (a browser's address bar). */
function prefersHtml(ctx: Koa.Context): boolean {
  return ctx.accepts([...API_TYPES, 'text/html']) === 'text/html';
}

export function playground(opts: { endpoint?: string; dir?: string } = {}): Koa.Middleware {
  const endpoint = opts.endpoint ?? '/graphql';
  const dir = opts.dir ?? assetDir;
  const assets = serveAssets(dir);
  return async (ctx, next) => {
    if (ctx.path !== endpoint) return assets(ctx, next);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    // The same URL answers HTML or JSON depending on Accept: caches must key on it.
    ctx.vary('Accept');
    if (!prefersHtml(ctx)) return next();
    const manifest = readManifest(dir);
    ctx.set('Content-Security-Policy', PAGE_CSP);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'html';
    if (!manifest) {
      ctx.status = 503;
      ctx.body = renderNotBuilt();
      return;
    }
    ctx.body = renderPage(manifest, { endpoint, defaultQuery: PLAYGROUND_QUERY, defaultHeaders: DEFAULT_HEADERS });
  };
}
