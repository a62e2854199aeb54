// Serves stored bytes of anonymous public GET responses before any routing or GraphQL execution.
// A response is stored only when its own Cache-Control says `public, max-age=N` (N > 0): the route (REST
// shim or Apollo's cache hints) decides what is cacheable, this layer only remembers it for N seconds.
// Requests with credentials never read or fill these public entries.
//
// Signed-in readers have entries of their own (`sharedAnswers()`, on /graphql after the bearer check): an answer
// the GraphQL layer declared shareable (`max-age=N, private`, see src/graphql/cache-control.ts) is stored under
// the operation, its variables and the reader's active entitlements, never the token, and given to the next
// reader with the same entitlements. Every entry is tagged with the GraphQL types its operation selects, so
// writes can evict what they change (`evict`).
//
// Two ways out of the cache. `middleware()` sits in the Koa chain after CORS, fills the cache and serves hits
// to any request. `serve()` runs before Koa, in the node:http listener, for the common case (no Origin
// header, so no CORS decision to make): it writes the stored status, headers and bytes itself, because a
// Koa context, helmet and the router cost several times what sending the bytes does; `serveShared()` does the
// same for signed-in readers after the bearer check. Both only serve entries whose complete response headers
// were captured when Koa sent the first answer, so the two ways answer with the same headers.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../logger.js';
import { routeLabel } from '../metrics/request-labels.js';
import type { Viewer } from '../viewer.js';
import { deliver, misses, replay, representationOf } from './answer-replay.js';
import { previewHeaders, previewParam } from './preview-requests.js';
import { keepAnswer } from './kept-answer.js';
import { activeEntitlements, type SharedAnswerState } from './shared-viewer.js';
import {
  discardBody,
  jsonBodyLength,
  paramsOfUrl,
  peekBody,
  sharedKey,
  ViewerMemo,
  type BearerCheck,
} from './signed-in-readers.js';
import { deliveryOf, KEPT_HEADERS, maxAgeIf, toBuffer, type EntryFacts, type Stored } from './stored-answer.js';

/** What the cache reads of a request's context (src/context.ts): who asks, when, and what the operation showed. */
interface CachedRequest {
  viewer: Viewer | null;
  now: Date;
  http: { shared?: SharedAnswerState };
  operation: { types?: ReadonlySet<string> };
}

/**
 * /graphql as the router matches it (@koa/router's defaults: any case, with or without a trailing slash). An
 * answer reached through `/GRAPHQL` is a GraphQL answer all the same: it must be stored as one (with the types
 * writes evict it by) and obey the same rules.
 */
const GRAPHQL_PATH = /^\/graphql\/?$/i;
export const isGraphqlPath = (path: string): boolean => GRAPHQL_PATH.test(path);

export class ResponseCache {
  private readonly cache: LRUCache<string, Stored>;
  private viewers: ViewerMemo | undefined;
  /** Set while writes evict what they change: how long (seconds) an answer with the default max-age is kept. */
  private longTtl: { seconds: number; defaultMaxAge: number } | undefined;
  /** The moment an entry's answer may change by itself (a scheduled publication), if one is coming. */
  private horizon: ((entry: EntryFacts) => number | undefined) | undefined;
  /** Counts `evict` calls: an answer computed while one ran may show what it evicted, so it is not stored. */
  private evictions = 0;

  constructor(
    maxBytes: number,
    private readonly log: Logger,
  ) {
    this.cache = new LRUCache<string, Stored>({
      maxSize: Math.max(1, maxBytes),
      // Room for the coded variants made later: br and gzip together stay under half of our JSON's size.
      sizeCalculation: (v) => Math.ceil(v.body.length * 1.5) + 1024,
      ttlAutopurge: false,
    });
  }

  /** The bearer check the fast path runs before it answers a signed-in reader (the app's own). */
  useAuthenticator(authenticate: BearerCheck): void {
    this.viewers = new ViewerMemo(authenticate);
  }

  /**
   * A revocation was learnt (this process's at once, another's within the revocation poll): the fast path checks
   * every token again, as the Koa chain does, instead of trusting a viewer it remembered for a few seconds.
   */
  forgetViewers(): void {
    this.viewers?.forget();
  }

  /**
   * While a change stream evicts what writes change (src/cache/invalidation.ts), answers sent with the
   * default max-age (nothing in them ends sooner) are kept `seconds` instead; `undefined` goes back to max-age.
   */
  keepLonger(ttl: { seconds: number; defaultMaxAge: number } | undefined): void {
    this.longTtl = ttl;
    if (!ttl) this.evict(() => true); // entries kept past their max-age are no longer known to be current
  }

  /**
   * `endOf` says when an entry's answer changes without a write (content scheduled to go live or to go away): no
   * entry is kept past that moment, whatever its max-age.
   */
  useHorizon(endOf: NonNullable<ResponseCache['horizon']>): void {
    this.horizon = endOf;
  }

  /** The stored answer for `key` if it is still fresh. */
  private fresh(key: string, now: number): Stored | undefined {
    const hit = this.cache.get(key);
    return hit && now < hit.expiresAt ? hit : undefined;
  }

  /**
   * Drops every entry `match` selects; returns how many. The hook for invalidation on writes: a change to
   * stored content names the GraphQL types it touches and evicts the answers whose operation selected them.
   */
  evict(match: (entry: EntryFacts) => boolean): number {
    let evicted = 0;
    this.evictions++;
    for (const [key, entry] of this.cache.entries()) {
      if (
        match({ key, graphql: entry.graphql, shared: entry.shared, types: entry.types, route: entry.route }) &&
        this.cache.delete(key)
      )
        evicted++;
    }
    return evicted;
  }

  /**
   * Answers a request from the cache straight on node:http, or returns false to hand it to Koa: anything but
   * a plain anonymous GET of a fresh entry (a token, an Origin, a browser asking /graphql for HTML) goes the
   * long way, which decides it exactly as before.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const { url, headers } = req;
    if (
      req.method !== 'GET' ||
      url === undefined ||
      headers.authorization !== undefined ||
      headers.origin !== undefined ||
      previewHeaders(headers)
    )
      return false;
    const started = performance.now();
    const now = Date.now();
    const hit = this.fresh(url, now);
    const delivery = hit?.delivery;
    if (!hit || !delivery) return false;
    if (hit.graphql && headers.accept?.includes('text/html')) return false;
    const chosen = representationOf(hit, headers['accept-encoding']);
    if (!chosen) return false;

    deliver(this.log, req, res, hit, delivery, chosen, now, started, true);
    return true;
  }

  /**
   * The fast path for a signed-in reader's GraphQL GET or POST (no Origin): after the bearer check, the answer
   * shared by readers with the same active entitlements, or false to hand the request to Koa (a POST body
   * read here is put back first). A token the check does not accept is never answered here: Koa answers 401.
   */
  serveShared(req: IncomingMessage, res: ServerResponse): Promise<boolean> | false {
    const { url, headers, method } = req;
    const authorization = headers.authorization;
    if (!this.viewers || authorization === undefined || headers.origin !== undefined || url === undefined) return false;
    if (!(url === '/graphql' || url.startsWith('/graphql?'))) return false;
    if (previewHeaders(headers) || previewParam(url)) return false;
    if (method === 'GET') {
      if (headers.accept?.includes('text/html')) return false;
    } else if (method !== 'POST' || jsonBodyLength(req) === undefined) return false;
    return this.answerShared(req, res, this.viewers, authorization);
  }

  private async answerShared(
    req: IncomingMessage,
    res: ServerResponse,
    viewers: ViewerMemo,
    authorization: string,
  ): Promise<boolean> {
    const started = performance.now();
    const now = Date.now();
    const viewer = await viewers.viewerOf(authorization, now);
    if (!viewer) return false;
    const active = await activeEntitlements(viewer, new Date(now));
    let params: unknown;
    if (req.method === 'GET') {
      params = paramsOfUrl(req.url!);
    } else {
      const body = await peekBody(req, jsonBodyLength(req)!);
      try {
        params = body && JSON.parse(body.toString('utf8'));
      } catch {
        params = undefined;
      }
    }
    const key =
      params && typeof params === 'object' && !Array.isArray(params)
        ? sharedKey(params as Record<string, unknown>, active.groups)
        : undefined;
    const hit = key === undefined ? undefined : this.fresh(key, now);
    const chosen = hit?.delivery && representationOf(hit, req.headers['accept-encoding']);
    if (!hit?.delivery || !chosen) return false;
    if (req.method !== 'GET') discardBody(req);
    deliver(this.log, req, res, hit, hit.delivery, chosen, now, started, req.method === 'GET');
    return true;
  }

  /** Koa's side: serves hits to any request that reaches it, and stores cacheable answers. */
  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      if (ctx.method !== 'GET' || ctx.get('authorization') || ctx.path.startsWith('/oauth2')) return next();
      if (previewHeaders(ctx.headers) || previewParam(ctx.url)) return next();
      const accept = isGraphqlPath(ctx.path) ? ctx.accepts('application/json', 'text/html') || '' : '';
      if (accept === 'text/html') return next(); // the playground page, not an API answer
      const key = ctx.url;
      const now = Date.now();
      const hit = this.fresh(key, now);
      if (hit) return replay(ctx, hit, now);
      misses.inc();
      const evictions = this.evictions;
      await next();

      const stored = this.evictions === evictions ? this.keep(ctx, key, 'public', now) : undefined;
      if (!stored) return;
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

  /**
   * /graphql after the bearer check: a signed-in reader is given the stored answer of a reader with the same
   * active entitlements, and shareable answers are stored for them (GET and POST alike). An entry never
   * outlives the first of those entitlements' end (the answer's max age says so, see cache-control.ts).
   */
  sharedAnswers(): Koa.Middleware<{ context?: CachedRequest }> {
    return async (ctx, next) => {
      const context = ctx.state.context;
      const get = ctx.method === 'GET';
      if (!context?.viewer || !(get || ctx.method === 'POST')) return next();
      if (previewHeaders(ctx.headers) || previewParam(ctx.url)) return next();
      const params = get ? ctx.query : (ctx.request as { body?: unknown }).body;
      const active = await activeEntitlements(context.viewer, context.now);
      const key =
        params && typeof params === 'object' ? sharedKey(params as Record<string, unknown>, active.groups) : undefined;
      if (key === undefined) return next();
      const now = context.now.getTime();
      const hit = this.fresh(key, now);
      if (hit) return replay(ctx as unknown as Koa.Context, hit, now, get);
      misses.inc();
      const evictions = this.evictions;
      await next();
      if (!context.http.shared || context.http.shared.personal || this.evictions !== evictions) return;
      const stored = this.keep(ctx as unknown as Koa.Context, key, 'private', now);
      if (!stored) return;
      stored.route = routeLabel(ctx as unknown as Koa.Context);
      // As for public entries: the fast path replays the headers the chain sent, when no Origin shaped them.
      const res = ctx.res;
      if (!ctx.get('origin'))
        res.once(
          'finish',
          () => void (res.statusCode === 200 && (stored.delivery = deliveryOf(res.getHeaders(), stored.route!))),
        );
    };
  }

  /** Stores the answer just computed when its Cache-Control allows `scope` caching, and marks it a miss. */
  private keep(ctx: Koa.Context, key: string, scope: 'public' | 'private', now: number): Stored | undefined {
    const maxAge = ctx.status === 200 ? maxAgeIf(scope, String(ctx.response.get('cache-control') ?? '')) : 0;
    if (maxAge <= 0 || ctx.body === undefined || ctx.body === null || ctx.response.get('set-cookie')) return undefined;
    const body = toBuffer(ctx.body);
    if (!body) return undefined;
    if (!ctx.response.get('etag')) ctx.set('ETag', `"${createHash('sha1').update(body).digest('base64url')}"`);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = ctx.response.get(name);
      if (value) headers[name] = value;
    }
    const graphql = isGraphqlPath(ctx.path);
    const types = graphql ? (ctx.state as { context?: CachedRequest }).context?.operation.types : undefined;
    const keptFor =
      this.longTtl && maxAge >= this.longTtl.defaultMaxAge ? Math.max(maxAge, this.longTtl.seconds) : maxAge;
    const stored: Stored = {
      body,
      headers,
      etag: headers.etag!,
      kept: keepAnswer(body, headers.etag!),
      storedAt: now,
      expiresAt: now + keptFor * 1000,
      maxAge,
      graphql,
      shared: scope === 'private',
      types,
    };
    const end = this.horizon?.({ key, graphql, shared: stored.shared, types });
    if (end !== undefined) stored.expiresAt = Math.min(stored.expiresAt, end);
    if (stored.expiresAt <= now) return undefined;
    this.cache.set(key, stored);
    ctx.body = body;
    ctx.set('X-Cache', 'MISS');
    return stored;
  }
}
