// Jest global setup: builds dist/ with swc (the command-line tests spawn dist/src/cli.js), then starts one engine the
// wire-level tests share, unless a server is already given: MONGODB_URI, or TEST_MONGODB_URI when the
// service's tests run in the same jest run and started theirs first.
// Jest loads this file outside its module mapper, so it imports only packages and files by path.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The engine package's swc build (plain JavaScript, imported by path like everything here). */
async function loadSwcBuild(): Promise<(root: string, dirs: string[]) => Promise<void>> {
  const mod = (await import(pathToFileURL(join(root, 'test/helpers/swc-build.mjs')).href)) as {
    swcBuild: (root: string, dirs: string[]) => Promise<void>;
  };
  return mod.swcBuild;
}

export default async function globalSetup(): Promise<void> {
  const swcBuild = await loadSwcBuild();
  await swcBuild(root, ['src']);
  const given = process.env.TEST_MONGODB_URI ?? process.env.MONGODB_URI;
  if (given) {
    process.env.TEST_MONGODB_URI = given;
    return;
  }
  const { startEngine } = (await import(
    pathToFileURL(join(root, 'dist/src/index.js')).href
  )) as typeof import('../../src/index.js');
  // TTL sweeps every second here (the engine's default is MongoDB's 60 s) so expiry tests stay short.
  const engine = await startEngine({ host: '127.0.0.1', port: 0, ttlIntervalMs: 1000 });
  (globalThis as { __ENGINE_TESTS_ENGINE__?: unknown }).__ENGINE_TESTS_ENGINE__ = engine;
  process.env.TEST_MONGODB_URI = engine.uri;
}
