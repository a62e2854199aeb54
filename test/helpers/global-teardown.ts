// Jest global teardown: stops the engine global setup started, and the build markers of this run.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export default async function globalTeardown(): Promise<void> {
  const engine = (globalThis as { __ENGINE__?: { close(): Promise<void> } }).__ENGINE__;
  await engine?.close();
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  rmSync(join(root, 'dist', `.built-${process.env.TEST_RUN_ID}`), { force: true });
}
