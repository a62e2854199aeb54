// First middleware: request id, per-request logger, access log line, and the last word on errors.
import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from '../logger.js';
import { httpRequests, rateLimitRejections } from '../metrics/metrics.js';
import { routeLabel, SANE_REQUEST_ID } from '../metrics/request-labels.js';
import { sendInternalError, sendProblem, toAppError } from './problem.js';

export interface RequestState {
  requestId: string;
  log: Logger;
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
        if (appError.status >= 500) ctx.state.log.warn({ err, code: appError.code }, 'request failed');
      } else {
        ctx.state.log.error({ err }, 'unhandled error');
        sendInternalError(ctx as unknown as Koa.Context, requestId);
      }
    } finally {
      const route = routeLabel(ctx);
      httpRequests.observe(
        { method: ctx.method, route, status: String(ctx.status) },
        (performance.now() - started) / 1000,
      );
      if (ctx.status === 429) rateLimitRejections.inc({ route });
      ctx.state.log.info(
        {
          method: ctx.method,
          path: ctx.path,
          status: ctx.status,
          ms: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    }
  };
}
