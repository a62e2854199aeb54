// /readyz follows the store: 200 while it answers, 503 with Retry-After once it stops.
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/server.js';
import { startEngine, type RunningEngine } from '@gateway/engine';
import { Store } from '../../src/store/store.js';
import { statusOf } from '../helpers/status.js';

let engine: RunningEngine;
let store: Store;
let service: RunningService;

beforeAll(async () => {
  engine = await startEngine({ host: '127.0.0.1', port: 0 });
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    MONGODB_URI: engine.uri,
    // The default (2 s) bounds how long /readyz waits to say 503; a shorter one failed the first connection
    // to this in-process engine on a busy CI machine (the handshake took over 500 ms).
    STORE_TIMEOUT_MS: '2000',
  });
  const log = createLogger('silent');
  store = await Store.open(config.store, log);
  service = await startService({ config, log, store });
});
afterAll(async () => {
  await service.stop();
  await store.close().catch(() => undefined);
  await engine.close().catch(() => undefined);
});

test('/readyz turns 503 problem+json with Retry-After when the store stops answering', async () => {
  expect(await statusOf(`${service.url}/readyz`)).toBe(200);
  await engine.close();
  const res = await fetch(`${service.url}/readyz`);
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('2');
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
  expect(typeof body.requestId).toBe('string');
  expect(await statusOf(`${service.url}/healthz`)).toBe(200);
});
