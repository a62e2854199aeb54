// Jest global setup: builds dist/ once (the service's and the engine package's: the engine runs from it here,
// and process-level tests spawn both), then starts one embedded engine for the whole run, unless a server is
// already given: MONGODB_URI, or TEST_MONGODB_URI when the engine package's tests started theirs first.
// Jest loads this file outside its module mapper, so it imports only Node built-ins and dist/ by path.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function build(): void {
  try {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  } catch (err) {
    // tsc still emits on type errors; the typecheck proper is `npm run typecheck`. Show what it said.
    process.stderr.write(`\n[global-setup] tsc reported errors:\n${String((err as { stdout?: Buffer }).stdout ?? err)}\n`);
  }
}

export default async function globalSetup(): Promise<void> {
  process.env.TEST_RUN_ID = `${process.pid}-${Date.now()}`;
  build();
  writeFileSync(join(root, 'dist', `.built-${process.env.TEST_RUN_ID}`), new Date().toISOString());
  const given = process.env.TEST_MONGODB_URI ?? process.env.MONGODB_URI;
  if (given) {
    process.env.TEST_MONGODB_URI = given;
    return;
  }
  const { startEngine } = (await import(pathToFileURL(join(root, 'packages/engine/dist/src/index.js')).href)) as typeof import('@gateway/engine');
  // TTL sweeps every second here (the engine's default is MongoDB's 60 s) so expiry tests stay short.
  const engine = await startEngine({ host: '127.0.0.1', port: 0, ttlIntervalMs: 1000 });
  (globalThis as { __ENGINE__?: unknown }).__ENGINE__ = engine;
  process.env.TEST_MONGODB_URI = engine.uri;
}
