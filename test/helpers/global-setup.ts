// Jest global setup: one embedded engine for the whole run, unless MONGODB_URI points at a real server.
import { startEngine } from '../../src/store/embedded/index.js';

export default async function globalSetup(): Promise<void> {
  process.env.TEST_RUN_ID = `${process.pid}-${Date.now()}`;
  if (process.env.MONGODB_URI) {
    process.env.TEST_MONGODB_URI = process.env.MONGODB_URI;
    return;
  }
  const engine = await startEngine({ host: '127.0.0.1', port: 0 });
  (globalThis as { __ENGINE__?: unknown }).__ENGINE__ = engine;
  process.env.TEST_MONGODB_URI = engine.uri;
}
