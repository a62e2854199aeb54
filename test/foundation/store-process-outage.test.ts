// The engine as its own process, stopped under a running service: /readyz and store-backed requests
// answer 503 with Retry-After promptly instead of hanging, and the service recovers by itself once the
// store is back, without a restart.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { engineCli, ensureBuilt } from '../helpers/built.js';
import { spawnNode, type Child } from '../helpers/child.js';
import { statusOf } from '../helpers/status.js';

let engine: Child;
let store: Store;
let service: RunningService;
let port: number;
const dbPath = mkdtempSync(join(tmpdir(), 'engine-outage-'));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: p } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return p;
}

async function startEngineProcess(): Promise<Child> {
  const child = spawnNode(engineCli, ['--port', String(port), '--dbpath', dbPath], {});
  await child.waitFor((l) => String(l.msg).startsWith('mongodb://'));
  return child;
}

/** A request that must reach the store: a channel lookup. */
const storeQuery = () =>
  fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ channel(id: "7") { id name } }' }),
    signal: AbortSignal.timeout(2_000),
  });

beforeAll(async () => {
  await ensureBuilt();
  port = await freePort();
  engine = await startEngineProcess();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    STORE_TIMEOUT_MS: '1000',
    MONGODB_URI: `mongodb://127.0.0.1:${port}/?directConnection=true`,
    MONGODB_DB: 'outage',
  });
  const log = createLogger('silent');
  store = await Store.open(config.store, log);
  await store.collection('channels').insertOne({
    _id: '7',
    name: 'Seven',
    image: null,
    description: null,
    objectType: 'channel',
    configuration: { linkables: [], dynamicSections: [] },
  });
  service = await startService({ config, log, store });
}, 60_000);

afterAll(async () => {
  await service?.stop();
  await store?.close().catch(() => undefined);
  engine?.proc.kill('SIGKILL');
  rmSync(dbPath, { recursive: true, force: true });
});

test('stop the store: 503 with Retry-After within 2 s; start it again: recovered within 5 s, no restart', async () => {
  const before = await storeQuery();
  expect(before.status).toBe(200);
  expect(((await before.json()) as { data: { channel: { name: string } } }).data.channel.name).toBe('Seven');

  engine.proc.kill('SIGKILL');
  await engine.exited;

  const ready = await fetch(`${service.url}/readyz`, { signal: AbortSignal.timeout(2_000) });
  expect(ready.status).toBe(503);
  expect(ready.headers.get('retry-after')).toBeTruthy();

  const during = await storeQuery();
  expect(during.status).toBe(503);
  expect(during.headers.get('retry-after')).toBeTruthy();
  const body = (await during.json()) as { errors: Array<{ extensions: Record<string, unknown>; message: string }> };
  expect(body.errors[0]!.extensions.requestId).toEqual(expect.any(String));
  expect(JSON.stringify(body)).not.toMatch(/Mongo|ECONNREFUSED|127\.0\.0\.1/);

  engine = await startEngineProcess();
  const deadline = Date.now() + 5_000;
  let status = 0;
  while (Date.now() < deadline) {
    status = await statusOf(`${service.url}/readyz`);
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(status).toBe(200);
  const after = await storeQuery();
  expect(after.status).toBe(200);
  expect(((await after.json()) as { data: { channel: { name: string } } }).data.channel.name).toBe('Seven');
}, 60_000);
