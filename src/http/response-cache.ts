// Serves stored bytes of anonymous public GET responses before any routing or GraphQL execution.
// A response is stored only when its own Cache-Control says `public, max-age=N` (N > 0): the route (REST
// shim or Apollo's cache hints) decides what is cacheable, this layer only remembers it for N seconds.
// Requests with credentials neither read nor fill the cache.
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';
import { registry } from '../metrics/metrics.js';
import { ifNoneMatchMatches } from './cacheable.js';

interface Stored {
  body: Buffer;
  headers: Record<string, string>;
  storedAt: number;
  maxAge: number;
}

/** Response headers that belong to the answer (not to one delivery of it). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'etag', 'link', 'deprecation', 'vary'];

const lookups = new Counter({ name: 'response_cache_lookups_total', help: 'Response cache lookups by result', labelNames: ['result'] as const, registers: [registry] });

function publicMaxAge(cacheControl: string): number {
  if (!/\bpublic\b/.test(cacheControl) || /no-store|private/.test(cacheControl)) return 0;
  const match = /max-age=(\d+)/.exec(cacheControl);
  return match ? Number(match[1]) : 0;
}

/** Apollo answers GET operations only with a CSRF-safe header; a cached answer must obey the same rule. */
function graphqlGetAllowed(ctx: Koa.Context): boolean {
  return ctx.path !== '/graphql' || Boolean(ctx.get('apollo-require-preflight') || ctx.get('x-apollo-operation-name'));
}

export function responseCache(maxBytes: number): Koa.Middleware {
  if (maxBytes <= 0) return (_ctx, next) => next();
  const cache = new LRUCache<string, Stored>({
    maxSize: maxBytes,
    sizeCalculation: (v) => v.body.length + 512,
    ttlAutopurge: false,
  });

  return async (ctx, next) => {
    if (ctx.method !== 'GET' || ctx.get('authorization') || ctx.path.startsWith('/oauth2') || !graphqlGetAllowed(ctx)) return next();
    const accept = ctx.path === '/graphql' ? (ctx.accepts('application/json', 'text/html') || '') : '';
    if (accept === 'text/html') return next(); // the playground page, not an API answer
    const key = ctx.url;
    const hit = cache.get(key);
    const now = Date.now();
    if (hit && now - hit.storedAt < hit.maxAge * 1000) {
      lookups.inc({ result: 'hit' });
      for (const [name, value] of Object.entries(hit.headers)) ctx.set(name, value);
      ctx.set('Age', String(Math.floor((now - hit.storedAt) / 1000)));
      ctx.set('X-Cache', 'HIT');
      if (hit.headers.etag && ifNoneMatchMatches(ctx.get('if-none-match'), hit.headers.etag)) {
        ctx.status = 304;
        return;
      }
      ctx.status = 200;
      ctx.body = hit.body;
      return;
    }
    lookups.inc({ result: 'miss' });
    await next();

    const maxAge = ctx.status === 200 ? publicMaxAge(ctx.response.get('cache-control')) : 0;
    if (maxAge <= 0 || ctx.body === undefined || ctx.body === null) return;
    const body = toBuffer(ctx.body);
    if (!body) return;
    if (!ctx.response.get('etag')) ctx.set('ETag', `"${createHash('sha1').update(body).digest('base64url')}"`);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = ctx.response.get(name);
      if (value) headers[name] = value;
    }
    cache.set(key, { body, headers, storedAt: now, maxAge });
    ctx.body = body;
    ctx.set('X-Cache', 'MISS');
  };
}

function toBuffer(body: unknown): Buffer | undefined {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') return Buffer.from(JSON.stringify(body), 'utf8');
  return undefined;
}
