// First middleware: request id, per-request logger, access log line, and the last word on errors.
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../logger.js';
import { httpRequests, rateLimitRejections } from '../metrics/metrics.js';
import { sendInternalError, sendProblem, toAppError } from './problem.js';

const OAUTH_SEGMENTS = new Set(['access_token', 'otp', 'auth', 'jwks', 'token', 'interaction', '.well-known', 'session', 'me']);
/** An incoming X-Request-Id is kept when it looks like one; anything else gets a fresh id. */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestState {
  requestId: string;
  log: Logger;
}

/** The matched route pattern (bounded), the GraphQL operation name on /graphql, or "unmatched". */
export function routeLabel(ctx: Koa.ParameterizedContext<RequestState> | Koa.Context): string {
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

export function requestContext(log: Logger): Koa.Middleware<RequestState> {
  return async (ctx, next) => {
    const started = performance.now();
    const incoming = ctx.get('x-request-id');
    const requestId = SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } catch (err) {
      const appError = toAppError(err);
      if (appError) {
        sendProblem(ctx as unknown as Koa.Context, appError, requestId);
        if (appError.status >= 500) ctx.state.log.warn({ err }, 'request failed: store unavailable');
      } else {
        ctx.state.log.error({ err }, 'unhandled error');
        sendInternalError(ctx as unknown as Koa.Context, requestId);
      }
    } finally {
      const route = routeLabel(ctx);
      httpRequests.observe({ method: ctx.method, route, status: String(ctx.status) }, (performance.now() - started) / 1000);
      if (ctx.status === 429) rateLimitRejections.inc({ route });
      ctx.state.log.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round((performance.now() - started) * 10) / 10 },
        'request',
      );
    }
  };
}
