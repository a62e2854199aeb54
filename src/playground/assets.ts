// The playground's bundle (dist/playground, built by scripts/build-playground.mjs): its manifest, and
// the files served under /playground/ with year-long caching (their names carry a content hash).
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Koa from 'koa';
import { strongEtag } from '../cache/cacheable.js';
import { keepAnswer } from '../cache/kept-answer.js';
import { projectRoot } from '../version.js';

export const ASSET_PREFIX = '/playground/';
export const assetDir = join(projectRoot, 'dist', 'playground');

export interface PlaygroundManifest {
  js: string;
  css: string;
}

/** The current bundle's file names, or undefined when it has not been built. Read per page: a rebuild shows up without a restart. */
export function readManifest(dir = assetDir): PlaygroundManifest | undefined {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PlaygroundManifest;
  } catch {
    return undefined;
  }
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};
// Only the flat, hashed names esbuild writes: no separators, so nothing outside the directory is reachable.
const ASSET_NAME = /^playground-[A-Z0-9]+\.(js|css)(\.LEGAL\.txt)?$/;

/** GET/HEAD /playground/<hashed file>: the file with immutable caching; anything else falls through (404). */
export function serveAssets(dir = assetDir): Koa.Middleware {
  // A name carries its content's hash, so a file read once is kept, with its coded variants, for the process.
  const files = new Map<string, { body: Buffer; etag: string }>();
  return async (ctx, next) => {
    if (!ctx.path.startsWith(ASSET_PREFIX) || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const name = ctx.path.slice(ASSET_PREFIX.length);
    if (!ASSET_NAME.test(name)) return next();
    let file = files.get(name);
    if (!file) {
      const read = await readFile(join(dir, name)).catch(() => undefined);
      if (!read) return next();
      const etag = strongEtag(read);
      files.set(name, (file = { body: keepAnswer(read, etag).body, etag }));
    }
    ctx.type = TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('ETag', file.etag);
    ctx.body = file.body;
  };
}
