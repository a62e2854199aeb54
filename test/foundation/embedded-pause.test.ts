// The embedded engine runs in the service's own process, and a start on a cold disk holds its thread for a second
// or two at a time while it reads pages. The driver must not take such a pause for a lost store: a heartbeat that
// waits longer than the store timeout does not fail, and a read under way meanwhile is answered. (With the store
// timeout as the monitor's limit the pool was cleared and the read failed with "interrupted due to server monitor
// timeout", which made such a start exit.) The engine here is the embedded one, started by the test with mongod's
// test commands so that a fail point can hold its answers.
import { MongoClient, type ServerHeartbeatFailedEvent } from 'mongodb';
import { startEngine } from '@gateway/engine';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { Store } from '../../src/store/store.js';

test('answers held past the store timeout fail no heartbeat and no read of the embedded store', async () => {
  const engine = await startEngine({ port: 0, testCommands: true });
  const admin = await MongoClient.connect(engine.uri);
  const config = loadConfig({ NODE_ENV: 'test', STORE: 'memory', STORE_TIMEOUT_MS: '1000' });
  const store = await Store.open(config.store, createLogger('silent'), {
    engine: { running: Promise.resolve(engine), dbPath: undefined, thread: false },
  });
  try {
    const articles = store.collection('articles');
    await articles.insertOne({ _id: 'a-1' } as never);
    const failed: ServerHeartbeatFailedEvent[] = [];
    store.client.on('serverHeartbeatFailed', (event) => failed.push(event));
    // The service's handshakes and reads are answered after twice the store timeout, as by a thread reading pages.
    await admin.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: 'alwaysOn',
      data: {
        failCommands: ['hello', 'isMaster', 'find'],
        blockConnection: true,
        blockTimeMS: 2_000,
        appName: 'gateway',
      },
    });
    await new Promise<void>((resolve) => store.client.once('serverHeartbeatStarted', () => resolve()));
    const read = articles.findOne({ _id: 'a-1' });
    const heartbeat = new Promise<string>((resolve) => {
      store.client.once('serverHeartbeatSucceeded', () => resolve('succeeded'));
      store.client.once('serverHeartbeatFailed', () => resolve('failed'));
    });
    await expect(read).resolves.toMatchObject({ _id: 'a-1' });
    expect(await heartbeat).toBe('succeeded');
    await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    expect(await articles.countDocuments({})).toBe(1);
    expect(failed.map((event) => event.failure.message)).toEqual([]);
  } finally {
    await store.close();
    await admin.close();
  }
});

test("the change streams' client connects to a store whose handshakes take longer than the store timeout", async () => {
  const engine = await startEngine({ port: 0, testCommands: true });
  const admin = await MongoClient.connect(engine.uri);
  const config = loadConfig({ NODE_ENV: 'test', MONGODB_URI: engine.uri, STORE_TIMEOUT_MS: '1000' });
  const store = await Store.open(config.store, createLogger('silent'));
  const watching = store.watchClient();
  try {
    await admin.db('admin').command({
      configureFailPoint: 'failCommand',
      mode: 'alwaysOn',
      // A new connection's handshake is the legacy `ismaster` until the server has said it knows `hello`.
      data: {
        failCommands: ['hello', 'isMaster', 'ismaster'],
        blockConnection: true,
        blockTimeMS: 2_000,
        appName: 'gateway-live',
      },
    });
    await expect(watching.connect()).resolves.toBe(watching);
    await admin.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' });
    expect(await watching.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
  } finally {
    await watching.close();
    await store.close();
    await admin.close();
    await engine.close();
  }
});
