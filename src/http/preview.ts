// Preview on HTTP (docs/api.md, "Preview"): reads what a request asks for (the `Preview` header, a preview token as
// the `Preview-Token` header or the `previewToken` query parameter), has it decided before anything is read, and
// makes the answer private and unstored whatever the API below set: `Cache-Control: private, no-store`, no ETag
// (nothing may keep it, so nothing validates it). The response cache never looks such a request up
// (src/cache/preview-requests.ts). One middleware for /graphql and the REST paths, after the request's context.
import type Koa from 'koa';
import { PREVIEW_CACHE_CONTROL } from '../cache/cacheable.js';
import {
  PREVIEW_HEADER,
  PREVIEW_TOKEN_HEADER,
  PREVIEW_TOKEN_PARAM,
  previewHeaders,
} from '../cache/preview-requests.js';
import { badRequest } from '../errors.js';
import { startPreview, type PreviewAsk } from '../operations/content/preview.js';
import type { AppState } from './app-context.js';

function one(value: string | string[] | undefined, field: string): string | undefined {
  if (Array.isArray(value)) throw badRequest(`${field} is given more than once`, [{ field, message: 'Repeated' }]);
  return value;
}

/**
 * What the request asks for; 400 for a value that means nothing (a preview is never guessed at). A blank header or
 * `Preview: false` asks for nothing, as a blank Authorization header presents nothing, but the answer to a request
 * carrying one is still kept by no cache: the caches' own checks look at the headers alone.
 */
function askOf(ctx: Koa.ParameterizedContext<AppState>): PreviewAsk | undefined {
  const header = ctx.get(PREVIEW_HEADER).trim().toLowerCase();
  const tokenHeader = ctx.get(PREVIEW_TOKEN_HEADER).trim();
  const tokenParam = one(ctx.query[PREVIEW_TOKEN_PARAM], PREVIEW_TOKEN_PARAM);
  if (!previewHeaders(ctx.headers) && tokenParam === undefined) return undefined;
  if (header !== '' && header !== 'true' && header !== 'false')
    throw badRequest('The Preview header must be true or false', [{ field: 'Preview', message: 'Invalid value' }]);
  if (tokenHeader !== '' && tokenParam !== undefined && tokenHeader !== tokenParam)
    throw badRequest('Two different preview tokens were given', [{ field: PREVIEW_TOKEN_PARAM, message: 'Conflict' }]);
  const token = tokenHeader || tokenParam;
  if (token === '')
    throw badRequest('previewToken is empty', [{ field: PREVIEW_TOKEN_PARAM, message: 'Invalid preview token' }]);
  return { every: header === 'true', token };
}

export function preview(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    const ask = askOf(ctx);
    if (!ask) return next();
    const context = ctx.state.context!;
    try {
      await startPreview(context, ask);
      await next();
    } finally {
      // Refusals too: they answer one request's credentials, not the URL.
      ctx.set('Cache-Control', PREVIEW_CACHE_CONTROL);
      ctx.remove('ETag');
    }
  };
}
