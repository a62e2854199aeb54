// Jest global setup: builds dist/ (the command-line tests spawn dist/src/cli.js), then starts one engine the
// wire-level tests share, unless a server is already given: MONGODB_URI, or TEST_MONGODB_URI when the
// service's tests run in the same jest run and started theirs first.
// Jest loads this file outside its module mapper, so it imports only Node built-ins and dist/ by path.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function build(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
  } catch (err) {
    // tsc still emits on type errors; the typecheck proper is `npm run typecheck`. Show what it said.
    process.stderr.write(`\n[engine global-setup] tsc reported errors:\n${String((err as { stdout?: Buffer }).stdout ?? err)}\n`);
  }
}

export default async function globalSetup(): Promise<void> {
  build();
  const given = process.env.TEST_MONGODB_URI ?? process.env.MONGODB_URI;
  if (given) {
    process.env.TEST_MONGODB_URI = given;
    return;
  }
  const { startEngine } = (await import(pathToFileURL(join(root, 'dist/src/index.js')).href)) as typeof import('../../src/index.js');
  // TTL sweeps every second here (the engine's default is MongoDB's 60 s) so expiry tests stay short.
  const engine = await startEngine({ host: '127.0.0.1', port: 0, ttlIntervalMs: 1000 });
  (globalThis as { __ENGINE_TESTS_ENGINE__?: unknown }).__ENGINE_TESTS_ENGINE__ = engine;
  process.env.TEST_MONGODB_URI = engine.uri;
}
