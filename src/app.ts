// Koa composition: request context first, then /oauth2 (no body parser in front of it), probes,
// /graphql and the REST shims.
import { bodyParser } from '@koa/bodyparser';
import { Router } from '@koa/router';
import { koaMiddleware } from '@as-integrations/koa';
import type { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import type { GraphQLSchema } from 'graphql';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import type { Config } from './config.js';
import { createContext, type Context } from './context.js';
import { AppError, notFound, storeUnavailable } from './errors.js';
import { createApolloServer } from './graphql/server.js';
import { anonymousOnly, type Authenticator } from './http/authenticate.js';
import { sendProblem } from './http/problem.js';
import { requestContext, type RequestState } from './http/request-context.js';
import { corsAllowlist, requireJsonBody, securityHeaders } from './http/security.js';
import { ResponseCache } from './http/response-cache.js';
import type { Logger } from './logger.js';
import { createMailer, type Mailer } from './mail/index.js';
import { registry } from './metrics/metrics.js';
import { playground } from './playground/index.js';
import { createOAuthServer } from './oauth/index.js';
import { openApiRoutes } from './openapi/routes.js';
import { restRouter } from './rest/routes.js';
import type { Store } from './store/store.js';

export interface AppDeps {
  config: Config;
  log: Logger;
  store: Store;
  schema: GraphQLSchema;
  authenticate?: Authenticator;
  /** Outgoing mail (OTP codes, newsletter keys). */
  mailer: Mailer;
}

/** What createApp needs: the mailer is created from config when not given. */
export type AppOptions = Omit<AppDeps, 'mailer'> & { mailer?: Mailer };

export interface AppState extends RequestState {
  context?: Context;
}

export interface GatewayApp {
  koa: Koa<AppState>;
  apollo: ApolloServer<Context>;
  /** Answers a request from the response cache before Koa sees it (false: hand it to Koa). */
  serveCached(req: IncomingMessage, res: ServerResponse): boolean;
  /** Stops Apollo (after the HTTP server has drained). */
  stop(): Promise<void>;
  /** The bearer check and mailer in use (the WebSocket endpoint in src/live shares them). */
  authenticate: Authenticator;
  mailer: Mailer;
}

/** JSON bodies only (415 for anything else), bounded at 1 MiB (CONTRACT.md §5). */
export function jsonBody(): Koa.Middleware {
  const check = requireJsonBody();
  const parse = bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] });
  return (ctx, next) => check(ctx, () => parse(ctx, next));
}

/** Builds the per-request context: the viewer from the bearer token (401 for a bad one), loaders, store. */
export function withContext(deps: AppDeps): Koa.Middleware<AppState> {
  const authenticate = deps.authenticate ?? anonymousOnly;
  return async (ctx, next) => {
    const viewer = await authenticate(ctx.get('authorization') || undefined);
    ctx.state.context = createContext({ requestId: ctx.state.requestId, log: ctx.state.log, config: deps.config, store: deps.store, mailer: deps.mailer, viewer, clientIp: ctx.ip });
    await next();
  };
}

export async function createApp(appDeps: AppOptions): Promise<GatewayApp> {
  const deps: AppDeps = { ...appDeps, mailer: appDeps.mailer ?? createMailer({ config: appDeps.config, store: appDeps.store, log: appDeps.log }) };
  // Behind TRUST_PROXY proxies, the client IP (per-IP limits, logs) comes from X-Forwarded-For. The mounted
  // OAuth provider runs its middleware on this app's contexts, so this one setting covers it too.
  const hops = deps.config.trustProxyHops;
  const koa = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  // Browsers get our own bundled playground (or nothing): never Apollo's CDN-loaded landing page.
  const apollo = createApolloServer(deps.schema, deps.config, [ApolloServerPluginLandingPageDisabled()]);
  await apollo.start();

  koa.use(requestContext(deps.log));
  koa.use(securityHeaders());
  koa.use(corsAllowlist(deps.config.corsOrigins));
  const cache = deps.config.cache.responseCacheBytes > 0 ? new ResponseCache(deps.config.cache.responseCacheBytes, deps.log) : undefined;
  if (cache) koa.use(cache.middleware());

  // The authorization server under /oauth2, before any body parser; its bearer check is the default one.
  const oauth = await createOAuthServer({ config: deps.config, log: deps.log, store: deps.store, mailer: deps.mailer });
  deps.authenticate ??= oauth.authenticate;
  koa.keys = oauth.cookieKeys;
  koa.use(oauth.middleware);

  const probes = new Router<AppState>();
  probes.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  probes.get('/readyz', async (ctx) => {
    const store = await deps.store.status();
    if (!store.reachable) {
      sendProblem(ctx as unknown as Koa.Context, storeUnavailable(), ctx.state.requestId);
      return;
    }
    ctx.body = { status: 'ready', store };
  });
  if (deps.config.metrics) {
    probes.get('/metrics', async (ctx) => {
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    });
  }
  koa.use(probes.routes());

  if (deps.config.playground) koa.use(playground());
  // The REST API's OpenAPI document and its viewer (static, public: on in every environment).
  koa.use(openApiRoutes(deps.config));

  const graphql = new Router<AppState>();
  const gqlAuth = graphqlAuthErrors();
  const handler = koaMiddleware<Context, AppState>(apollo, { context: async ({ ctx }) => ctx.state.context! });
  graphql.all('/graphql', jsonBody(), gqlAuth, withContext(deps), handler);
  koa.use(graphql.routes());

  const rest = restRouter(deps);
  koa.use(rest.routes()).use(rest.allowedMethods({ throw: true }));

  koa.use(async (ctx) => {
    if (ctx.body === undefined && ctx.status === 404) {
      sendProblem(ctx as unknown as Koa.Context, notFound('NOT_FOUND', 'Not Found', `No route for ${ctx.method} ${ctx.path}`), ctx.state.requestId);
    }
  });

  return {
    koa,
    apollo,
    serveCached: cache ? (req, res) => cache.serve(req, res) : () => false,
    stop: () => apollo.stop(),
    authenticate: deps.authenticate,
    mailer: deps.mailer,
  };
}

/** On /graphql a rejected token is answered in GraphQL's error shape, with the HTTP status of CONTRACT.md §3. */
function graphqlAuthErrors(): Koa.Middleware<AppState> {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      ctx.status = err.status;
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      ctx.body = { errors: [{ message: err.message, extensions: { code: err.graphqlCode, requestId: ctx.state.requestId } }] };
    }
  };
}
