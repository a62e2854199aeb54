// Public, cacheable GET answers (docs/api.md): a strong ETag over the exact bytes sent,
// 304 on a matching If-None-Match, `public` caching for anonymous callers and `private` with a token.
import { createHash } from 'node:crypto';
import type Koa from 'koa';

export interface CacheableOptions {
  /** The request presented credentials: never let a shared cache keep the answer. */
  authenticated: boolean;
  maxAgeSeconds?: number;
  /** A preview (docs/api.md, "Preview"): kept by no cache at all, so never validated either (no ETag, no 304). */
  preview?: boolean;
}

/** What every preview answer says (docs/api.md, "Preview"). */
export const PREVIEW_CACHE_CONTROL = 'private, no-store';

/**
 * What a cacheable answer varies on besides its URL: the bearer token, and the preview headers, so that a cache
 * keeping the public answer never gives it to a request asking for a preview of the same URL.
 */
export const PREVIEW_VARY = ['Authorization', 'Preview', 'Preview-Token'];

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

/**
 * Sends an answer encoded as JSON bytes with validators and caching headers (hashed and sent as they are, never
 * encoded twice), or a bodiless 304 when the client has it.
 */
export function sendCacheableJson(ctx: Koa.Context, json: Buffer, opts: CacheableOptions): void {
  if (opts.preview) {
    ctx.set('Cache-Control', PREVIEW_CACHE_CONTROL);
    ctx.status = 200;
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = json;
    return;
  }
  const etag = strongEtag(json);
  const maxAge = opts.maxAgeSeconds ?? 60;
  ctx.set('ETag', etag);
  ctx.set('Cache-Control', opts.authenticated ? `private, max-age=${maxAge}` : `public, max-age=${maxAge}`);
  // The same URL answers differently cached with and without a token, and a preview of it is another answer.
  ctx.vary(PREVIEW_VARY);
  if (ifNoneMatchMatches(ctx.get('If-None-Match'), etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = 'application/json; charset=utf-8';
  ctx.body = json;
}
