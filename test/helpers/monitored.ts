// The real service on a fresh database whose driver records every command it sends, for tests that count
// round trips or search what reached the store.
import { MongoClient, type CommandStartedEvent, type Db } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import type { Authenticator } from '../../src/http/authenticate.js';
import { createLogger } from '../../src/logger.js';
import { startService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { isBackgroundCommand } from './background.js';
import { testMongoUri, uniqueDbName } from './db.js';

export interface MonitoredService {
  url: string;
  db: Db;
  /**
   * Every command the service's driver started on this service's database because of a request, in order (what the
   * service sends on its own left out: see background.ts); clear it with `length = 0`.
   */
  commands: CommandStartedEvent[];
  close(): Promise<void>;
}

export async function startMonitoredService(opts: {
  prefix: string;
  authenticate?: Authenticator;
  beforeStart?: (store: Store, db: Db) => Promise<void>;
  /** More environment settings for the service. */
  env?: Record<string, string>;
}): Promise<MonitoredService> {
  const dbName = uniqueDbName(opts.prefix);
  const commands: CommandStartedEvent[] = [];
  const client = new MongoClient(testMongoUri(), { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
  client.on('commandStarted', (event) => {
    if (event.databaseName === dbName && !isBackgroundCommand(event)) commands.push(event);
  });
  await client.connect();
  const db = client.db(dbName);
  const store = await Store.onDb(client, db);
  await opts.beforeStart?.(store, db);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RESPONSE_CACHE_MB: '0',
    MONGODB_DB: dbName,
    ...opts.env,
  });
  const service = await startService({ config, log: createLogger('silent'), store, authenticate: opts.authenticate });
  return {
    url: service.url,
    db,
    commands,
    async close() {
      await service.stop();
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}
