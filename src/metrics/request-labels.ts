// How a request is named in metrics and logs, the same whether Koa answers it or the response cache's fast path
// does: its id, and its route as a bounded label.
import type Koa from 'koa';

const OAUTH_SEGMENTS = new Set([
  'access_token',
  'otp',
  'auth',
  'jwks',
  'token',
  'interaction',
  '.well-known',
  'session',
  'me',
]);
/** An incoming X-Request-Id is kept when it looks like one; anything else gets a fresh id. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The matched route pattern (bounded), the GraphQL operation name on /graphql, or "unmatched". */
export function routeLabel(ctx: Koa.ParameterizedContext | Koa.Context): string {
  const operation = (ctx.state as { context?: { http: { operationName?: string } } }).context?.http.operationName;
  if (operation) return `graphql:${operation}`;
  const matched = (ctx as unknown as { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (ctx.path.startsWith('/oauth2/')) {
    const segment = ctx.path.split('/')[2] ?? '';
    return OAUTH_SEGMENTS.has(segment) ? `/oauth2/${segment}` : '/oauth2/other';
  }
  return 'unmatched';
}
