// Configuration is validated at start: every bad variable is named; defaults are sane.
import { ConfigError, loadConfig } from '../../src/config.js';

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

test('empty variables count as unset', () => {
  expect(loadConfig({ PORT: '', MONGODB_URI: '' }).port).toBe(4000);
});
