// What a CDN in front is told about a public answer: the surrogate keys of what it shows (`Surrogate-Key`,
// space-separated, for Fastly and Varnish; `Cache-Tag`, comma-separated, for Cloudflare) and how long the CDN
// may keep it (`Surrogate-Control` and `CDN-Cache-Control`), which can be longer than a browser's max-age since
// purges reach the CDN when something shown changes (src/events). Only `public` answers carry them: a private or
// uncacheable answer says nothing a shared cache could act on.
import type Koa from 'koa';
import { collectionsOfType, type AnswerKeys } from '../cache/answer-keys.js';
import { REST_SHOWS } from '../cache/shown-by.js';
import { isGraphqlPath } from '../cache/response-cache.js';
import { MAX_AGE } from '../cache/stored-answer.js';
import { ALL_KEY } from '../cache/surrogate-keys.js';

interface WithAnswer {
  context?: {
    http: { keys?: AnswerKeys };
    operation: { fields?: ReadonlyMap<string, ReadonlySet<string>> };
  };
}

export interface CdnOptions {
  /** Seconds a CDN keeps an answer sent with the default max-age. */
  maxAge: number;
  staleWhileRevalidate: number;
  /** The default browser max-age: an answer sent with less (a publication is due) is kept no longer by the CDN. */
  defaultMaxAge: number;
  /** Path prefixes (lower case) of answers no write changes. */
  staticPrefixes: readonly string[];
}

const PUBLIC = /(?:^|,)\s*public\s*(?:,|$)/;

/** The keys of a REST answer: the collections its route shows (shown-by.ts), or `all` alone for static files. */
function restKeys(path: string, staticPrefixes: readonly string[]): string[] {
  const lower = path.toLowerCase();
  if (staticPrefixes.some((prefix) => lower.startsWith(prefix))) return [ALL_KEY];
  const route = REST_SHOWS.find((r) => lower.startsWith(r.prefix));
  const collections = route ? [...new Set(route.types.flatMap((type) => collectionsOfType(type)))].sort() : [];
  return [ALL_KEY, ...collections];
}

export function cdnHeaders(options: CdnOptions): Koa.Middleware<WithAnswer> {
  return async (ctx, next) => {
    await next();
    if (ctx.status !== 200 || !(ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'POST')) return;
    const cacheControl = ctx.response.get('cache-control');
    const maxAge = MAX_AGE.exec(cacheControl);
    if (!maxAge || !PUBLIC.test(cacheControl) || Number(maxAge[1]) <= 0 || ctx.response.get('set-cookie')) return;
    const context = ctx.state.context;
    const keys = isGraphqlPath(ctx.path)
      ? context?.http.keys?.keys(context.operation.fields)
      : restKeys(ctx.path, options.staticPrefixes);
    // A GraphQL answer whose keys were not collected cannot be purged: no CDN may keep it past its max-age.
    if (keys) {
      ctx.set('Surrogate-Key', keys.join(' '));
      ctx.set('Cache-Tag', keys.join(','));
    }
    const browser = Number(maxAge[1]);
    const cdn = keys && browser >= options.defaultMaxAge ? Math.max(browser, options.maxAge) : browser;
    const lifetime = `max-age=${cdn}, stale-while-revalidate=${options.staleWhileRevalidate}`;
    ctx.set('Surrogate-Control', lifetime);
    ctx.set('CDN-Cache-Control', lifetime);
  };
}
