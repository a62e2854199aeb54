// Browser-facing protections: security headers (helmet), a CORS allowlist from config, and 415 for
// request bodies that are not JSON on the JSON routes.
import cors from '@koa/cors';
import type Koa from 'koa';
import helmet from 'helmet';
import { AppError } from '../errors.js';

/**
 * Security headers on every response. The HTML pages (playground, OpenAPI viewer, login) set their own
 * Content-Security-Policy, so helmet's default one is off here and JSON responses get a deny-all policy.
 * Strict-Transport-Security only on answers to https requests (RFC 6797 §7.2: never over plain http): the
 * request came over TLS, or PUBLIC_URL is https (TLS ends in front of us), or — behind TRUST_PROXY proxies,
 * whose X-Forwarded-Proto is then believed — the client's own request was https.
 */
export function securityHeaders(opts: { publicUrl: string; trustProxyHops: number }): Koa.Middleware {
  const headers = helmet({
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  const hsts = `max-age=${365 * 24 * 3600}; includeSubDomains`;
  const publicHttps = opts.publicUrl.startsWith('https:');
  const overHttps = (ctx: Koa.Context): boolean =>
    opts.trustProxyHops > 0 ? ctx.protocol === 'https' : ctx.secure || publicHttps;
  const failed = (err?: unknown): void => {
    if (err) throw err;
  };
  return async (ctx, next) => {
    if (overHttps(ctx)) ctx.set('Strict-Transport-Security', hsts);
    // Helmet's own middleware, called as it is: it sets its headers and calls back at once. (koa-helmet wraps it in a
    // promise per request, and the continuation in another: two promises and turns of every answer for nothing.)
    headers(ctx.req, ctx.res, failed);
    await next();
    if (!ctx.response.get('Content-Security-Policy') && !ctx.response.is('html')) {
      ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    }
  };
}

/** CORS for the origins in CORS_ORIGINS (`*` for any); other origins get no CORS headers at all. */
export function corsAllowlist(origins: string[]): Koa.Middleware {
  const any = origins.includes('*');
  return cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      if (any) return '*';
      return origins.includes(origin) ? origin : '';
    },
    allowHeaders: [
      'Authorization',
      'Content-Type',
      'X-Request-Id',
      'If-None-Match',
      'Apollo-Require-Preflight',
      'Preview',
      'Preview-Token',
    ],
    exposeHeaders: ['X-Request-Id', 'ETag', 'Link', 'X-Total-Count', 'Retry-After', 'Deprecation', 'WWW-Authenticate'],
    maxAge: 600,
  });
}

const hasBody = (ctx: Koa.Context): boolean =>
  ctx.request.length > 0 || (ctx.get('transfer-encoding') !== '' && ctx.request.length === undefined);

/** A body on a JSON route must say it is JSON: anything else is 415 before the parser sees it. */
export function checkJsonBody(ctx: Koa.Context): void {
  if (hasBody(ctx) && !ctx.is('application/json', 'application/*+json')) {
    throw new AppError({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      title: 'Unsupported Media Type',
      detail: 'Send the body as application/json',
    });
  }
}
