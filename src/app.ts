// Koa composition: request context first, then /oauth2 (no body parser in front of it), /graphql, probes,
// the OpenAPI document and the REST shims.
import { Router } from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import {
  ApolloServerPluginInlineTraceDisabled,
  ApolloServerPluginLandingPageDisabled,
} from '@apollo/server/plugin/disabled';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Koa from 'koa';
import { CacheInvalidation, showsPublishedContent } from './cache/invalidation.js';
import { ReadyParts } from './cache/ready-parts.js';
import { ResponseCache } from './cache/response-cache.js';
import type { Context } from './context.js';
import type { Authenticator } from './http/authenticate.js';
import { devOutboxRoutes } from './http/dev-outbox.route.js';
import { CursorCodec } from './cursors/codec.js';
import { loadCursorKeys } from './cursors/keys.js';
import { PreviewTokens } from './operations/content/preview-token.js';
import { notFound, storeUnavailable } from './errors.js';
import { createApolloServer } from './graphql/server.js';
import { trustedDocumentPlugin } from './graphql/documents/plugin.js';
import { DocumentRegistry } from './graphql/documents/registry.js';
import { apolloMiddleware } from './http/apollo-koa.js';
import { jsonBody, withContext, type AppDeps, type AppState } from './http/app-context.js';
import { compression } from './http/compression.js';
import { graphqlHttpErrors } from './http/graphql-errors.js';
import { routerOnly, SUBGRAPH_PATH } from './http/subgraph-secret.js';
import { home } from './http/home.js';
import { sendProblem } from './http/problem.js';
import { requestContext } from './http/request-context.js';
import { corsAllowlist, securityHeaders } from './http/security.js';
import { discardUnreadBody } from './http/unread-body.js';
import { trustedDocuments } from './http/trusted-documents.js';
import { createMailer, type Mailer } from './mail/index.js';
import { registry } from './metrics/metrics.js';
import { ASSET_PREFIX } from './playground/assets.js';
import { playground } from './playground/index.js';
import { createOAuthServer, OAUTH_MOUNT } from './oauth/index.js';
import type { RevocationList } from './oauth/revocations.js';
import { ASSETS_PREFIX } from './openapi/docs/assets.js';
import { DOCS_PATH, OPENAPI_PATH, openApiRoutes } from './openapi/routes.js';
import { READY_COLLECTIONS, restRouter } from './rest/routes.js';
import { PublicationClock } from './operations/content/publication-clock.js';
import { cdnHeaders } from './http/cdn-headers.js';
import { scheduledMaxAge } from './http/scheduled-max-age.js';
import { preview } from './http/preview.js';

export type { AppDeps } from './http/app-context.js';

/** What createApp needs: the mailer is created from config when not given. */
export type AppOptions = Omit<AppDeps, 'mailer'> & { mailer?: Mailer };

export interface GatewayApp {
  koa: Koa<AppState>;
  apollo: ApolloServer<Context>;
  /** Answers a request from the response cache before Koa sees it (false, or a promise of false: hand it to Koa). */
  serveCached(req: IncomingMessage, res: ServerResponse): boolean | Promise<boolean>;
  /** Stops Apollo and the cache's change stream (after the HTTP server has drained, before the store closes). */
  stop(): Promise<void>;
  /** The bearer check and mailer in use (the WebSocket endpoint in src/live shares them). */
  authenticate: Authenticator;
  mailer: Mailer;
  /** The process's revocation list (the WebSocket endpoint closes connections whose token is revoked). */
  revocations: RevocationList;
}

/**
 * The integration sets the answer's body before Apollo's headers, and Koa guesses the type of a string body
 * without a Content-Type with a regular expression over the whole answer (a copy of it, on every answer).
 * Apollo's own Content-Type header replaces this one on every answer it gives.
 */
const typedAnswer: Koa.Middleware = (ctx, next) => {
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  return next();
};

export async function createApp(appDeps: AppOptions): Promise<GatewayApp> {
  const signingKeys =
    appDeps.cursors && appDeps.previewTokens
      ? undefined
      : await loadCursorKeys(appDeps.config, appDeps.store, appDeps.log);
  const deps: AppDeps = {
    ...appDeps,
    mailer: appDeps.mailer ?? createMailer({ config: appDeps.config, store: appDeps.store, log: appDeps.log }),
    cursors: appDeps.cursors ?? new CursorCodec(signingKeys!),
    previewTokens: appDeps.previewTokens ?? new PreviewTokens(signingKeys!),
  };
  // Behind TRUST_PROXY proxies, the client IP (per-IP limits, logs) comes from X-Forwarded-For. The mounted
  // OAuth provider runs its middleware on this app's contexts, so this one setting covers it too.
  const hops = deps.config.trustProxyHops;
  const koa = new Koa<AppState>({ proxy: hops > 0, maxIpsCount: hops });
  // Browsers get our own bundled playground (or nothing): never Apollo's CDN-loaded landing page.
  const apollo = createApolloServer(deps.schema, deps.config, [
    ApolloServerPluginLandingPageDisabled(),
    trustedDocumentPlugin,
  ]);
  await apollo.start();
  // The federation subgraph (docs/decisions.md, "The federation subgraph has an endpoint of its own"): only with a
  // secret, and its libraries loaded only then (a second of start-up). Apollo would trace every resolver of a
  // subgraph's answers for the router's usage reports: we send none.
  const secret = deps.config.subgraphSecret;
  const subgraph = secret
    ? createApolloServer((await import('./graphql/subgraph.js')).buildSubgraph(deps.schema), deps.config, [
        ApolloServerPluginLandingPageDisabled(),
        ApolloServerPluginInlineTraceDisabled(),
      ])
    : undefined;
  await subgraph?.start();

  koa.use(requestContext(deps.log));
  koa.use(discardUnreadBody);
  // Outside the response cache, which keeps each answer's coded variants for it to send.
  koa.use(compression());
  koa.use(securityHeaders({ publicUrl: deps.config.publicUrl, trustProxyHops: hops }));
  koa.use(corsAllowlist(deps.config.corsOrigins));
  const cache =
    deps.config.cache.responseCacheBytes > 0
      ? new ResponseCache(deps.config.cache.responseCacheBytes, deps.log)
      : undefined;
  if (cache) koa.use(cache.middleware());
  // No write changes the OpenAPI document, its viewer or the playground's files.
  const staticPaths = [OPENAPI_PATH, DOCS_PATH, ASSETS_PREFIX, ASSET_PREFIX];
  // The parts that follow a change stream start together. Scheduled publication changes: made by every process's
  // clock (exactly one makes each), and no cached answer that can show articles or issues outlives the next one.
  // Ready parts: the REST lists' objects, kept while a stream of this process evicts them (the response cache's when
  // there is one, before the answers made of them). Invalidation: writes from any process or system evict what they
  // change, so entries may live longer.
  const readyBytes = deps.config.cache.readyPartsBytes;
  const following = cache && readyBytes > 0 ? ReadyParts.following(readyBytes, READY_COLLECTIONS) : undefined;
  const [clock, ready, invalidation] = await startTogether(
    PublicationClock.start(deps.store, deps.log),
    following ??
      (readyBytes > 0 ? ReadyParts.start(deps.store, deps.log, readyBytes, READY_COLLECTIONS) : ReadyParts.off()),
    cache
      ? CacheInvalidation.start(
          deps.store,
          cache,
          deps.log,
          { seconds: deps.config.cache.responseCacheTtl, defaultMaxAge: deps.config.cache.maxAge },
          staticPaths,
          following,
        )
      : undefined,
  );
  const showsContent = showsPublishedContent(staticPaths);
  const nextChangeAt = () => clock.nextChangeAt();
  cache?.useHorizon((entry) => (showsContent(entry) ? nextChangeAt() : undefined));
  clock.onEarlierChange(() => cache?.evict(showsContent));
  const scheduled = scheduledMaxAge(nextChangeAt, showsContent);
  // Outside `scheduled` (it sees the max-age it lowered), inside the cache (it keeps the headers).
  koa.use(
    cdnHeaders({
      ...deps.config.cdn,
      defaultMaxAge: deps.config.cache.maxAge,
      staticPrefixes: staticPaths.map((path) => path.toLowerCase()),
    }),
  );
  koa.use(scheduled);

  // The authorization server under /oauth2, before any body parser; its bearer check is the default one.
  const oauth = await createOAuthServer({
    config: deps.config,
    log: deps.log,
    store: deps.store,
    mailer: deps.mailer,
    keys: deps.oauthKeys,
  });
  deps.authenticate ??= oauth.authenticate;
  cache?.useAuthenticator(deps.authenticate);
  if (cache) oauth.revocations.onRevoked(() => cache.forgetViewers());
  koa.keys = oauth.cookieKeys;
  // Its middlewares (the provider's mount, two routers, the token endpoint's checks) only for the paths it serves:
  // under the mount, and the metadata alias under /.well-known. Every other request skipped six of them for nothing.
  const oauthPrefix = `${OAUTH_MOUNT}/`;
  koa.use((ctx, next) =>
    ctx.path.startsWith(oauthPrefix) || ctx.path === OAUTH_MOUNT || ctx.path.startsWith('/.well-known/')
      ? oauth.middleware(ctx, next)
      : next(),
  );

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
  // The playground answers browsers' GET /graphql; then /graphql itself, ahead of the routers of other paths (the
  // probes, the OpenAPI document), which it would otherwise pass through, each matching its routes, on every request.
  if (deps.config.playground) koa.use(playground());
  const graphql = new Router<AppState>();
  const handler = apolloMiddleware<Context, AppState>(apollo, async (ctx) => ctx.state.context!);
  const shared = cache ? [cache.sharedAnswers()] : [];
  const documents = trustedDocuments(deps.config, new DocumentRegistry(deps.store));
  graphql.all(
    '/graphql',
    graphqlHttpErrors(),
    jsonBody(),
    withContext(deps),
    preview(),
    documents,
    ...shared,
    scheduled, // inside the shared answers' store: they keep the lowered max-age
    typedAnswer,
    handler,
  );
  if (subgraph && secret) {
    // POST only, as routers send: the response cache stores GET answers by URL, which would skip the secret.
    const routerHandler = apolloMiddleware<Context, AppState>(subgraph, async (ctx) => ctx.state.context!);
    const guard = routerOnly(secret);
    graphql.post(
      SUBGRAPH_PATH,
      graphqlHttpErrors(),
      guard,
      jsonBody(),
      withContext(deps),
      scheduled,
      typedAnswer,
      routerHandler,
    );
  }
  koa.use(graphql.routes());

  koa.use(home(deps.config, OAUTH_MOUNT));
  koa.use(probes.routes());
  const outbox = devOutboxRoutes(deps.config, deps.store);
  if (outbox) koa.use(outbox.routes());
  // The REST API's OpenAPI document and its viewer (static, public: on in every environment).
  koa.use(openApiRoutes(deps.config));

  const rest = restRouter(deps, ready);
  koa.use(rest.routes()).use(rest.allowedMethods({ throw: true }));

  koa.use(async (ctx) => {
    if (ctx.body === undefined && ctx.status === 404) {
      sendProblem(
        ctx as unknown as Koa.Context,
        notFound('NOT_FOUND', 'Not Found', `No route for ${ctx.method} ${ctx.path}`),
        ctx.state.requestId,
      );
    }
  });

  // Every part is stopped even when one fails (a poll or stream left running would hold the store open).
  const stop = async (): Promise<void> => {
    let failure: unknown;
    for (const part of [
      () => apollo.stop(),
      () => subgraph?.stop(),
      () => oauth.stop(),
      () => clock.stop(),
      () => invalidation?.stop(),
      () => ready.stop(),
    ]) {
      try {
        await part();
      } catch (err) {
        failure ??= err;
      }
    }
    if (failure !== undefined) throw failure;
  };
  return {
    koa,
    apollo,
    serveCached: cache ? (req, res) => cache.serve(req, res) || cache.serveShared(req, res) : () => false,
    stop,
    authenticate: deps.authenticate,
    mailer: deps.mailer,
    revocations: oauth.revocations,
  };
}

/**
 * Waits for parts started together; when one fails, stops those that started (a stream left running would hold the
 * store open) and throws its error.
 */
async function startTogether<T extends Array<{ stop(): Promise<void> } | undefined>>(
  ...starting: { [K in keyof T]: Promise<T[K]> | T[K] }
): Promise<T> {
  const settled = await Promise.allSettled(starting);
  const failed = settled.find((s) => s.status === 'rejected');
  if (!failed) return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as T;
  await Promise.all(
    settled.map((s) => (s.status === 'fulfilled' ? s.value?.stop().catch(() => undefined) : undefined)),
  );
  throw failed.reason;
}
