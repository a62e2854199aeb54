// Process entry: config, logger, store, service, signals. Exit 1 on bad configuration, 0 after a clean drain.
import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, wantsPrettyLog } from './logger.js';
import { Store } from './store/store.js';
import { checkIssuer } from './store/tools/issuer-check.js';
import { serviceVersion } from './version.js';
import { DEMO_PAGE_ID, FIRST_QUERY, isSeeded } from './seed/marker.js';

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
  const log = createLogger(config.logLevel, { pretty: wantsPrettyLog(config.env) });
  // The service's modules load while the store opens (the embedded engine starts on its own thread): on two
  // cores the two starts overlap instead of following each other. The demo seed, with its data generator, loads
  // only when there is something to seed.
  const loading = import('./server.js');
  loading.catch(() => undefined); // a failure surfaces where it is awaited, below
  const store = await Store.open(config.store, log);
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
