// Configuration is validated at start: every bad variable is named; defaults are sane.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';
import { projectRoot } from '../../src/version.js';

test('defaults: port 4000, embedded store on ./data, demo seed, playground on outside production', () => {
  const c = loadConfig({});
  expect(c.port).toBe(4000);
  expect(c.store.uri).toBeUndefined();
  expect(c.store.mode).toBe('disk');
  expect(c.store.dataDir).toBe('./data');
  expect(c.seed).toBe('demo');
  expect(c.playground).toBe(true);
  expect(loadConfig({ NODE_ENV: 'production' }).playground).toBe(false);
});

test('production seeds nothing unless asked: SEED defaults to none there (the container image runs in production)', () => {
  expect(loadConfig({ NODE_ENV: 'production' }).seed).toBe('none');
  expect(loadConfig({ NODE_ENV: 'production', SEED: 'demo' }).seed).toBe('demo');
  expect(loadConfig({ NODE_ENV: 'test' }).seed).toBe('demo');
});

test('every bad value is reported by name', () => {
  let error: unknown;
  try {
    loadConfig({ PORT: 'eighty', MONGODB_URI: 'http://nope', STORE: 'tape', LOG_LEVEL: 'loud' });
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(ConfigError);
  const message = (error as ConfigError).message;
  for (const name of ['PORT', 'MONGODB_URI', 'STORE', 'LOG_LEVEL']) expect(message).toContain(name);
});

test('CDN purges with the webhook worker turned off are refused: nothing would send them', () => {
  expect(() => loadConfig({ CDN_PURGE_URL: 'http://varnish.internal/', WEBHOOKS: 'false' })).toThrow(/CDN_PURGE_URL/);
  expect(loadConfig({ CDN_PURGE_URL: 'http://varnish.internal/' }).cdn.purgeUrl).toBe('http://varnish.internal/');
});

test('empty variables count as unset', () => {
  expect(loadConfig({ PORT: '', MONGODB_URI: '' }).port).toBe(4000);
});

test('the image starts the service with the node flags of `npm start`', () => {
  // docs/deployment.md, "Node flags": the bench measures the service with package.json's start flags, so the image
  // must run it the same way.
  const start = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts.start;
  const fromStart = /^node((?: --\S+)*) dist\/bundle\/main\.js$/.exec(start)?.[1]?.trim().split(' ');
  expect(fromStart).toContain('--max-semi-space-size=64');
  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(projectRoot, 'Dockerfile'), 'utf8'))?.[1];
  expect(JSON.parse(cmd ?? 'null')).toEqual(['node', ...fromStart!, 'dist/bundle/main.js']);
});
