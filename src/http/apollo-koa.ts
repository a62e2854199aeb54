// Apollo Server as Koa middleware: the request's method, headers, query string and parsed body handed to
// `executeHTTPGraphQLRequest`, and its answer written back. The published integration (`@as-integrations/koa`
// 3.0.0, the only release for Koa 3) reads the query string with Node's legacy `url.parse`, which Node 24
// deprecates at run time: every process printed a DEP0169 warning on stderr at its first GraphQL request. Koa
// has already split the URL (`ctx.querystring`), so this is the same 30 lines without it.
import { Readable } from 'node:stream';
import { HeaderMap, type ApolloServer, type BaseContext } from '@apollo/server';
import type { ParameterizedContext } from 'koa';

export function apolloMiddleware<TContext extends BaseContext, TState>(
  server: ApolloServer<TContext>,
  context: (ctx: ParameterizedContext<TState>) => Promise<TContext>,
) {
  server.assertStarted('apolloMiddleware()');
  return async (ctx: ParameterizedContext<TState>, next: () => Promise<unknown>): Promise<void> => {
    const headers = new HeaderMap();
    for (const [name, value] of Object.entries(ctx.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: {
        method: ctx.method.toUpperCase(),
        headers,
        search: ctx.querystring ? `?${ctx.querystring}` : '',
        body: (ctx.request as { body?: unknown }).body,
      },
      context: () => context(ctx),
    });
    if (answer.body.kind === 'complete') {
      ctx.body = answer.body.string;
    } else {
      // Incremental delivery: each part flushed through the compression stream, if one has replaced the body.
      const parts = answer.body.asyncIterator;
      ctx.body = Readable.from(
        (async function* () {
          for await (const part of parts) {
            yield part;
            (ctx.body as { flush?: () => void }).flush?.();
          }
        })(),
      );
    }
    if (answer.status !== undefined) ctx.status = answer.status;
    for (const [name, value] of answer.headers) ctx.set(name, value);
    await next();
  };
}
