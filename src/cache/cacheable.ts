// Public, cacheable GET answers (docs/api.md): a strong ETag over the exact bytes sent,
// 304 on a matching If-None-Match, `public` caching for anonymous callers and `private` with a token.
import { createHash } from 'node:crypto';
import type Koa from 'koa';

export interface CacheableOptions {
  /** The request presented credentials: never let a shared cache keep the answer. */
  authenticated: boolean;
  maxAgeSeconds?: number;
}

export function strongEtag(bytes: string | Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url')}"`;
}

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored; `*` matches. */
export function ifNoneMatchMatches(header: string, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/** Sends `body` as JSON with validators and caching headers, or a bodiless 304 when the client has it. */
export function sendCacheable(ctx: Koa.Context, body: unknown, opts: CacheableOptions): void {
  sendCacheableJson(ctx, Buffer.from(JSON.stringify(body)), opts);
}

/** The same for an answer already encoded as JSON bytes: hashed and sent as they are, never encoded twice. */
export function sendCacheableJson(ctx: Koa.Context, json: Buffer, opts: CacheableOptions): void {
  const etag = strongEtag(json);
  const maxAge = opts.maxAgeSeconds ?? 60;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', opts.authenticated ? `private, max-age=${maxAge}` : `public, max-age=${maxAge}`);
  // The same URL answers differently cached with and without a token.
  ctx.vary('Authorization');
  if (ifNoneMatchMatches(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}
