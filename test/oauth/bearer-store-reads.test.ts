// The bearer check reads nothing from the store: signature, claims and the revocation list are all in
// memory, so a request with a token sends exactly the store commands of the same request without one.
// Counted with command monitoring; the OAuth background polls are set to a minute so that none runs
// while the requests are counted (they would be reads of the very collections the check must not read).
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { isBackgroundCommand } from '../helpers/background.js';
import { testMongoUri, uniqueDbName } from '../helpers/db.js';
import type { TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';

let client: MongoClient;
let service: RunningService;
let store: Store;
const commands: CommandStartedEvent[] = [];
const dbName = uniqueDbName('bsr');
const config = loadConfig({
  NODE_ENV: 'test',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  MONGODB_DB: dbName,
  RESPONSE_CACHE_MB: '0',
  OAUTH_POLL_MS: '60000',
});

beforeAll(async () => {
  client = new MongoClient(testMongoUri(), { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
  client.on('commandStarted', (event) => commands.push(event));
  await client.connect();
  store = await Store.onDb(client, client.db(dbName));
  service = await startService({ config, log: createLogger('silent'), store });
});
afterAll(async () => {
  await service.stop();
  await client
    .db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
});

async function sent(headers: Record<string, string>): Promise<string[]> {
  commands.length = 0;
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: '{ service { version } }' }),
  });
  expect(res.status).toBe(200);
  return (
    commands
      // The change streams' long polls (getMore) and the service's own writes run on their own time.
      .filter((c) => c.databaseName === dbName && c.commandName !== 'getMore' && !isBackgroundCommand(c))
      .map((c) => `${c.commandName}:${String(c.command[c.commandName])}`)
  );
}

test('a request with a valid bearer token sends the store commands of an anonymous one', async () => {
  const issued = await tokenFor({ url: service.url, store, config } as TestService);
  const anonymous = await sent({});
  const withToken = await sent(bearer(issued.accessToken));
  expect(withToken).toEqual(anonymous);
  expect(withToken.filter((c) => /oauth|settings|clients|customers/.test(c))).toEqual([]);
});
