// Boots the real service (HTTP server, Koa, Apollo, store) on a fresh database for one test file.
import type { MongoClient, Db } from 'mongodb';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/server.js';
import type { Authenticator } from '../../src/http/authenticate.js';
import { KEYS_SETTING } from '../../src/oauth/keys.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from './db.js';

export interface TestService {
  url: string;
  store: Store;
  db: Db;
  client: MongoClient;
  config: Config;
  service: RunningService;
  /** POSTs a GraphQL operation; returns status, headers and parsed body. */
  gql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    headers: Headers;
    body: { data?: T; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
  }>;
  close(): Promise<void>;
}

export async function startTestService(
  opts: {
    env?: Record<string, string>;
    authenticate?: Authenticator;
    beforeStart?: (store: Store) => Promise<void>;
  } = {},
): Promise<TestService> {
  const { client, db, close: closeDb } = await openTestDb('svc');
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    RESPONSE_CACHE_MB: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MONGODB_DB: db.databaseName,
    ...opts.env,
  });
  const log = createLogger(config.logLevel);
  // The run's OAuth keys (global setup), stored as a service that booted here before would have: generating
  // them on every boot costs an RSA key, a quarter second of CPU. The process tests still generate theirs.
  if (process.env.TEST_OAUTH_KEYS) {
    await db
      .collection<{ _id: string; value: unknown; updatedAt: Date }>('settings')
      .insertOne({ _id: KEYS_SETTING, value: JSON.parse(process.env.TEST_OAUTH_KEYS), updatedAt: new Date() });
  }
  const store = await Store.onDb(client, db);
  await opts.beforeStart?.(store);
  const service = await startService({ config, log, store, authenticate: opts.authenticate });
  const url = service.url;
  return {
    url,
    store,
    db,
    client,
    config,
    service,
    async gql(query, variables, headers) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ query, variables }),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as never };
    },
    async close() {
      await service.stop();
      await closeDb();
    },
  };
}
