// No answer that can show articles or issues is kept by a browser or CDN past the next scheduled publication
// change (src/operations/content/publication-clock.ts): its max-age is lowered to the whole seconds left until then.
import type Koa from 'koa';
import { isGraphqlPath } from '../cache/response-cache.js';
import { MAX_AGE, type EntryFacts } from '../cache/stored-answer.js';

interface WithOperation {
  context?: { operation: { types?: ReadonlySet<string> } };
}

export function scheduledMaxAge(
  nextChangeAt: () => number | undefined,
  shows: (entry: EntryFacts) => boolean,
): Koa.Middleware<WithOperation> {
  return async (ctx, next) => {
    await next();
    const at = nextChangeAt();
    if (at === undefined) return;
    const cacheControl = ctx.response.get('cache-control');
    const maxAge = MAX_AGE.exec(cacheControl);
    if (!maxAge) return;
    const graphql = isGraphqlPath(ctx.path);
    if (!shows({ key: ctx.url, graphql, shared: false, types: ctx.state.context?.operation.types })) return;
    const left = Math.max(0, Math.floor((at - Date.now()) / 1000));
    if (left < Number(maxAge[1])) ctx.set('Cache-Control', cacheControl.replace(maxAge[0], `max-age=${left}`));
  };
}
