// Boots the whole service in-process (used by main.ts and by tests): store, schema, app, HTTP listener,
// and a graceful stop that stops accepting, drains in-flight requests, then closes the store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import { createApp, type AppDeps, type GatewayApp } from './app.js';
import { answerClientError } from './http/client-error.js';
import type { Logger } from './logger.js';
import { startLive, type LiveServer } from './live/index.js';
import { startWebhooks, type Webhooks } from './events/index.js';
import { buildGatewaySchema } from './graphql/build-schema.js';
import { loadKeys } from './oauth/keys.js';
import type { Store } from './store/store.js';

export interface RunningService {
  server: Server;
  app: GatewayApp;
  /** GraphQL subscriptions over WebSocket on /graphql. */
  live: LiveServer;
  url: string;
  stop(): Promise<void>;
}

export async function startService(
  deps: { config: Config; log: Logger; store: Store } & Partial<Pick<AppDeps, 'authenticate' | 'mailer'>>,
): Promise<RunningService> {
  // The OAuth keys are read (and on a new store generated: key pairs, made on libuv's threads) while this thread
  // builds the schema.
  const oauthKeys = loadKeys(deps.config, deps.store, deps.log.child({ component: 'oauth' }));
  oauthKeys.catch(() => undefined); // a failure surfaces where createApp awaits them
  const schema = await buildGatewaySchema();
  const app = await createApp({ ...deps, schema, oauthKeys });
  let draining = false;
  const koaHandler = app.koa.callback();
  const server = createServer((req, res) => {
    if (draining) res.setHeader('Connection', 'close');
    else {
      const served = app.serveCached(req, res);
      if (served === true) return;
      // A signed-in reader's lookup waits for the bearer check; Koa takes the request when it finds nothing.
      if (served) {
        served.then(
          (done) => void (done || koaHandler(req, res)),
          () => void koaHandler(req, res),
        );
        return;
      }
    }
    void koaHandler(req, res);
  });
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.config.port, deps.config.host, () => resolve());
  });
  let live: LiveServer;
  let webhooks: Webhooks | undefined;
  try {
    if (deps.config.webhooks.enabled)
      webhooks = await startWebhooks(deps.store, deps.config.webhooks, deps.log, deps.config.cdn);
    live = await startLive({
      server,
      schema,
      config: deps.config,
      log: deps.log,
      store: deps.store,
      mailer: app.mailer,
      authenticate: app.authenticate,
      revocations: app.revocations,
    });
  } catch (err) {
    await webhooks?.stop().catch(() => undefined);
    // Nothing would stop the listener, the OAuth polls and the invalidation stream otherwise.
    await new Promise((resolve) => server.close(resolve));
    await app.stop().catch(() => undefined);
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const host = deps.config.host === '0.0.0.0' || deps.config.host === '::' ? 'localhost' : deps.config.host;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      draining = true;
      await live.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), deps.config.shutdownTimeoutMs);
      await closed;
      clearTimeout(force);
      await webhooks?.stop();
      await app.stop();
    })());

  return { server, app, live, url: `http://${host}:${port}`, stop };
}
