// Jest global setup: builds dist/ once (the service's and the engine package's: the engine runs from it here,
// and process-level tests spawn both, as `npm start` runs them), then starts one embedded engine for the whole
// run, unless a server is already given: MONGODB_URI, or TEST_MONGODB_URI when the engine package's tests
// started theirs first. Jest loads this file outside its module mapper, so it imports only packages and files
// by path.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const engineRoot = join(root, 'packages', 'engine');

/** The engine package's swc build (plain JavaScript, imported by path like everything here). */
async function loadSwcBuild(): Promise<(root: string, dirs: string[]) => Promise<void>> {
  const mod = (await import(pathToFileURL(join(engineRoot, 'test/helpers/swc-build.mjs')).href)) as {
    swcBuild: (root: string, dirs: string[]) => Promise<void>;
  };
  return mod.swcBuild;
}

async function build(): Promise<void> {
  const swcBuild = await loadSwcBuild();
  await Promise.all([swcBuild(engineRoot, ['src']), swcBuild(root, ['src', 'scripts', 'bench'])]);
  // The bundle `npm start` runs, from the files just built (process-level tests start the service from it).
  execFileSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { cwd: root, stdio: 'pipe' });
}

export default async function globalSetup(): Promise<void> {
  process.env.TEST_RUN_ID = `${process.pid}-${Date.now()}`;
  await build();
  writeFileSync(join(root, 'dist', `.built-${process.env.TEST_RUN_ID}`), new Date().toISOString());
  // One OAuth key set for the run (test/helpers/service.ts stores it): an RSA key costs a quarter second of CPU.
  const { generateKeys } = (await import(
    pathToFileURL(join(root, 'dist/src/oauth/keys.js')).href
  )) as typeof import('../../src/oauth/keys.js');
  process.env.TEST_OAUTH_KEYS = JSON.stringify(await generateKeys());
  const given = process.env.TEST_MONGODB_URI ?? process.env.MONGODB_URI;
  if (given) {
    process.env.TEST_MONGODB_URI = given;
    return;
  }
  const { startEngine } = (await import(
    pathToFileURL(join(engineRoot, 'dist/src/index.js')).href
  )) as typeof import('@gateway/engine');
  // TTL sweeps every second here (the engine's default is MongoDB's 60 s) so expiry tests stay short.
  const engine = await startEngine({ host: '127.0.0.1', port: 0, ttlIntervalMs: 1000 });
  (globalThis as { __ENGINE__?: unknown }).__ENGINE__ = engine;
  process.env.TEST_MONGODB_URI = engine.uri;
}
