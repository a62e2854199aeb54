// The process's start (main.ts enters here): config, the embedded engine, logger, store, service, signals. Exit 1
// on bad configuration, 0 after a clean drain.
import { readdirSync } from 'node:fs';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startKeyPairs } from './oauth/key-pairs.js';
import { startEmbeddedEngine } from './store/engine.js';
import { serviceVersion } from './version.js';
import { DEMO_PAGE_ID, FIRST_QUERY, isSeeded } from './seed/marker.js';

/** True when the store certainly holds nothing yet: the embedded engine in memory, or on a directory not yet made. */
function storeIsNew(store: Config['store']): boolean {
  if (store.uri) return false;
  if (store.mode !== 'disk') return true;
  try {
    return readdirSync(store.dataDir).length === 0;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nSee README.md for every environment variable.\n`);
      process.exit(1);
    }
    throw err;
  }
  // The embedded engine starts first, before the service's modules load (this module imports only what it takes
  // to start it): its thread loads the engine and opens the store on one core while this thread loads the
  // service on the other. The demo seed, with its data generator, loads only when there is something to seed.
  // A new store gets new OAuth signing keys: their key pairs are made on libuv's threads from now on, while the
  // service loads (the RSA one alone takes 0.1 to 0.8 s of CPU), rather than after.
  if (!(config.oauth.jwks && config.oauth.cookieKeys) && storeIsNew(config.store)) startKeyPairs();
  const logging = import('./logger.js').then(({ createLogger, wantsPrettyLog }) =>
    createLogger(config.logLevel, { pretty: wantsPrettyLog(config.env) }),
  );
  const engine = config.store.uri
    ? undefined
    : startEmbeddedEngine(config.store, (msg, fields) => void logging.then((log) => log.info(fields ?? {}, msg)));
  const loading = import('reflect-metadata').then(() => import('./server.js'));
  loading.catch(() => undefined); // a failure surfaces where it is awaited, below
  // The driver connects once the service's modules are evaluated: evaluating them holds this thread for a second
  // or more, and a connect begun before would spend that of its STORE_TIMEOUT_MS waiting (on a loaded machine,
  // all of it). The engine's thread is starting meanwhile either way.
  const [{ Store }, log] = await Promise.all([import('./store/store.js'), logging, loading]);
  const store = await Store.open(config.store, log, { engine });
  // The embedded engine's thread died: nothing can be answered any more, so stop and let the supervisor restart.
  void store.engineFailure?.then((err) => {
    log.fatal({ err }, 'the embedded store engine stopped; exiting');
    process.exit(1);
  });
  if (config.seed === 'demo') {
    const started = Date.now();
    if (!(await isSeeded(store))) {
      const { seedIfEmpty } = await import('./seed/index.js');
      const counts = await seedIfEmpty(store, 'demo', log);
      if (counts) log.info({ counts, ms: Date.now() - started }, 'empty store: seeded the demo data');
      if (counts)
        log.info(
          { query: FIRST_QUERY },
          `try this first query in the GraphQL playground at /graphql, or GET /cms/page/${DEMO_PAGE_ID}/issues?limit=2`,
        );
    }
  }
  const starting = loading.then(({ startService }) => startService({ config, log, store }));
  // Signals are handled from before the service answers: /readyz is 200 as soon as it listens, while the rest of
  // its start (the live half) is still running, and a stop then must still drain and close the store.
  let signalled = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (signalled) return;
    signalled = true;
    log.info({ signal }, 'shutting down: draining in-flight requests');
    try {
      const service = await starting;
      await service.stop();
      await store.close();
      log.info('shutdown complete');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  const service = await starting;
  // After the service started: the OAuth keys exist in the store by now.
  const { checkIssuer } = await import('./store/tools/issuer-check.js');
  await checkIssuer(store, config.oauth, log).catch((err: unknown) => {
    // A stop during the check closes the store under it: nothing was found wrong, so nothing to warn about.
    if (!signalled) log.warn({ err }, 'could not check the store for OAuth state of another issuer');
  });
  log.info(
    { url: service.url, version: serviceVersion, env: config.env },
    `gateway listening on ${service.url} (GraphQL at ${service.url}/graphql)`,
  );
  if (config.env === 'development') {
    // A shutdown may close the store under this read: then there is nothing to tell.
    const { demoAccessNotice } = await import('./seed/customers.seed.js');
    const demo = await demoAccessNotice(store, service.url).catch((err: unknown) => {
      if (!signalled) throw err;
    });
    if (demo) log.info(demo);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
