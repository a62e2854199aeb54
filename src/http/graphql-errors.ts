// Errors raised on /graphql before Apollo answers (a rejected token, a body that is not JSON, too large, of the
// wrong media type) in GraphQL's shape — an `errors` array with a code and the request id, next to the problem
// fields REST clients know — and the request id added to Apollo's own HTTP-level refusals (batching, unreadable GET parameters),
// which never reach its plugins.
import type Koa from 'koa';
import type { AppState } from './app-context.js';
import { toAppError } from './problem.js';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';

/** The media type Apollo would answer with: JSON unless the client prefers graphql-response+json. */
function graphqlMediaType(ctx: Koa.Context | Koa.ParameterizedContext<AppState>): string {
  return ctx.accepts('application/json', GRAPHQL_RESPONSE) === GRAPHQL_RESPONSE
    ? `${GRAPHQL_RESPONSE}; charset=utf-8`
    : 'application/json; charset=utf-8';
}

interface ErrorBody {
  errors?: Array<{ extensions?: Record<string, unknown> }>;
}

export function graphqlHttpErrors(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const appError = toAppError(err);
      if (!appError || appError.status >= 500) throw err;
      ctx.status = appError.status;
      for (const [name, value] of Object.entries(appError.headers)) ctx.set(name, value);
      ctx.type = graphqlMediaType(ctx);
      ctx.body = {
        errors: [{ message: appError.message, extensions: { code: appError.code, requestId: ctx.state.requestId } }],
        title: appError.title,
        status: appError.status,
        code: appError.code,
      };
      ctx.state.log.debug({ code: appError.code, status: appError.status }, 'GraphQL request refused');
      return;
    }
    if (
      ctx.status >= 400 &&
      typeof ctx.body === 'string' &&
      ctx.body.startsWith('{"errors"') &&
      !ctx.body.includes('"requestId"')
    ) {
      const body = JSON.parse(ctx.body) as ErrorBody;
      for (const error of body.errors ?? []) error.extensions = { ...error.extensions, requestId: ctx.state.requestId };
      const type = ctx.response.get('content-type');
      ctx.body = JSON.stringify(body);
      if (type) ctx.set('content-type', type);
    }
  };
}
