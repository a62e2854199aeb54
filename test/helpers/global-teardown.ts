// Jest global teardown: stops the engine global setup started.
import type { RunningEngine } from '../../src/store/embedded/index.js';

export default async function globalTeardown(): Promise<void> {
  const engine = (globalThis as { __ENGINE__?: RunningEngine }).__ENGINE__;
  await engine?.close();
}
