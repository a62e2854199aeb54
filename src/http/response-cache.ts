// Serves stored bytes of anonymous public GET responses before any routing or GraphQL execution.
// A response is stored only when its own Cache-Control says `public, max-age=N` (N > 0): the route (REST
// shim or Apollo's cache hints) decides what is cacheable, this layer only remembers it for N seconds.
// Requests with credentials neither read nor fill the cache.
//
// Two ways out of the cache. `middleware()` sits in the Koa chain after CORS, fills the cache and serves hits
// to any request. `serve()` runs before Koa, in the node:http listener, for the common case (no Origin
// header, so no CORS decision to make): it writes the stored status, headers and bytes itself, because a
// Koa context, helmet and the router cost several times what sending the bytes does. It only serves
// entries whose complete response headers were captured when Koa sent the first answer, so the two ways
// answer with the same headers.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { LRUCache } from 'lru-cache';
import { Counter } from 'prom-client';
import type { Logger } from '../logger.js';
import { httpRequests, registry } from '../metrics/metrics.js';
import { ifNoneMatchMatches } from './cacheable.js';
import { routeLabel, SANE_REQUEST_ID } from './request-context.js';

/** What the fast path needs to answer like the Koa chain did. */
interface Delivery {
  /** Every response header of the first answer but those of one delivery, as `writeHead`'s flat list. */
  headers: string[];
  ok: ReturnType<typeof httpRequests.labels>;
  notModified: ReturnType<typeof httpRequests.labels>;
}

interface Stored {
  body: Buffer;
  headers: Record<string, string>;
  etag: string;
  storedAt: number;
  maxAge: number;
  graphql: boolean;
  /** The metrics label of the request that computed it (a GraphQL operation, a route pattern). */
  route?: string;
  delivery?: Delivery;
}

/** Response headers that belong to the answer (not to one delivery of it, nor to the request's origin). */
const KEPT_HEADERS = ['content-type', 'cache-control', 'etag', 'link', 'deprecation', 'vary'];
/** Headers of one delivery, never replayed by the fast path. */
const PER_DELIVERY = new Set(['x-request-id', 'date', 'content-length', 'age', 'x-cache', 'connection', 'keep-alive', 'transfer-encoding']);

const lookups = new Counter({ name: 'response_cache_lookups_total', help: 'Response cache lookups by result', labelNames: ['result'] as const, registers: [registry] });
const hits = lookups.labels({ result: 'hit' });
const misses = lookups.labels({ result: 'miss' });

function publicMaxAge(cacheControl: string): number {
  if (!/\bpublic\b/.test(cacheControl) || /no-store|private/.test(cacheControl)) return 0;
  const match = /max-age=(\d+)/.exec(cacheControl);
  return match ? Number(match[1]) : 0;
}

/** Apollo answers GET operations only with a CSRF-safe header; a cached answer must obey the same rule. */
function graphqlGetAllowed(ctx: Koa.Context): boolean {
  return ctx.path !== '/graphql' || Boolean(ctx.get('apollo-require-preflight') || ctx.get('x-apollo-operation-name'));
}

export class ResponseCache {
  private readonly cache: LRUCache<string, Stored>;

  constructor(
    maxBytes: number,
    private readonly log: Logger,
  ) {
    this.cache = new LRUCache<string, Stored>({ maxSize: Math.max(1, maxBytes), sizeCalculation: (v) => v.body.length + 1024, ttlAutopurge: false });
  }

  /** The stored answer for `url` if it is still fresh. */
  private fresh(url: string, now: number): Stored | undefined {
    const hit = this.cache.get(url);
    return hit && now - hit.storedAt < hit.maxAge * 1000 ? hit : undefined;
  }

  /**
   * Answers a request from the cache straight on node:http, or returns false to hand it to Koa: anything but
   * a plain anonymous GET of a fresh entry (a token, an Origin, a browser asking /graphql for HTML, a GraphQL
   * GET without the CSRF-safe header) goes the long way, which decides it exactly as before.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const { url, headers } = req;
    if (req.method !== 'GET' || url === undefined || headers.authorization !== undefined || headers.origin !== undefined) return false;
    const started = performance.now();
    const now = Date.now();
    const hit = this.fresh(url, now);
    const delivery = hit?.delivery;
    if (!hit || !delivery) return false;
    if (hit.graphql && ((!headers['apollo-require-preflight'] && !headers['x-apollo-operation-name']) || headers.accept?.includes('text/html'))) return false;

    const incoming = headers['x-request-id'];
    const requestId = typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const notModified = ifNoneMatchMatches(headers['if-none-match'] ?? '', hit.etag);
    const out = delivery.headers.concat('x-request-id', requestId, 'age', String(Math.floor((now - hit.storedAt) / 1000)), 'x-cache', 'HIT');
    hits.inc();
    if (notModified) {
      res.writeHead(304, out).end();
    } else {
      out.push('content-length', String(hit.body.length));
      res.writeHead(200, out).end(hit.body);
    }
    const ms = performance.now() - started;
    (notModified ? delivery.notModified : delivery.ok).observe(ms / 1000);
    if (this.log.isLevelEnabled('info')) this.log.info({ requestId, method: 'GET', path: url.split('?', 1)[0], status: notModified ? 304 : 200, ms: Math.round(ms * 10) / 10 }, 'request');
    return true;
  }

  /** Koa's side: serves hits to any request that reaches it, and stores cacheable answers. */
  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      if (ctx.method !== 'GET' || ctx.get('authorization') || ctx.path.startsWith('/oauth2') || !graphqlGetAllowed(ctx)) return next();
      const accept = ctx.path === '/graphql' ? (ctx.accepts('application/json', 'text/html') || '') : '';
      if (accept === 'text/html') return next(); // the playground page, not an API answer
      const key = ctx.url;
      const now = Date.now();
      const hit = this.fresh(key, now);
      if (hit) {
        hits.inc();
        // Counted under the route or operation that computed the answer, as the fast path counts it.
        if (hit.route) (ctx as { _matchedRoute?: string })._matchedRoute = hit.route;
        for (const [name, value] of Object.entries(hit.headers)) ctx.set(name, value);
        ctx.set('Age', String(Math.floor((now - hit.storedAt) / 1000)));
        ctx.set('X-Cache', 'HIT');
        if (ifNoneMatchMatches(ctx.get('if-none-match'), hit.etag)) {
          ctx.status = 304;
          return;
        }
        ctx.status = 200;
        ctx.body = hit.body;
        return;
      }
      misses.inc();
      await next();

      const maxAge = ctx.status === 200 ? publicMaxAge(ctx.response.get('cache-control')) : 0;
      if (maxAge <= 0 || ctx.body === undefined || ctx.body === null || ctx.response.get('set-cookie')) return;
      const body = toBuffer(ctx.body);
      if (!body) return;
      if (!ctx.response.get('etag')) ctx.set('ETag', `"${createHash('sha1').update(body).digest('base64url')}"`);
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = ctx.response.get(name);
        if (value) headers[name] = value;
      }
      const stored: Stored = { body, headers, etag: headers.etag!, storedAt: now, maxAge, graphql: ctx.path === '/graphql' };
      this.cache.set(key, stored);
      ctx.body = body;
      ctx.set('X-Cache', 'MISS');
      // The fast path replays the headers the whole chain sent (security headers, CSP, Vary), captured once
      // they are final; the headers of an answer that depended on the request's Origin are left to Koa.
      const res = ctx.res;
      const withOrigin = Boolean(ctx.get('origin'));
      res.once('finish', () => {
        stored.route = routeLabel(ctx);
        if (res.statusCode === 200 && !withOrigin) stored.delivery = deliveryOf(res.getHeaders(), stored.route);
      });
    };
  }
}

function deliveryOf(sent: OutgoingHttpHeaders, route: string): Delivery {
  const headers: string[] = [];
  for (const [name, value] of Object.entries(sent)) {
    if (PER_DELIVERY.has(name) || value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [String(value)]) headers.push(name, one);
  }
  return {
    headers,
    ok: httpRequests.labels({ method: 'GET', route, status: '200' }),
    notModified: httpRequests.labels({ method: 'GET', route, status: '304' }),
  };
}

function toBuffer(body: unknown): Buffer | undefined {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function') return Buffer.from(JSON.stringify(body), 'utf8');
  return undefined;
}
