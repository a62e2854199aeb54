// Jest global setup: builds dist/ once (the engine runs from it here, and process-level tests spawn it),
// then starts one embedded engine for the whole run, unless MONGODB_URI points at a real server.
// Jest loads this file outside its module mapper, so it imports only packages and dist/ by path.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformFile, type Options } from '@swc/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

// swc compiles dist/ from .swcrc, the settings the tests' own transform uses (jest.config.js), in a second or
// two where tsc takes half a minute of CPU before any test can start. Type errors are `npm run typecheck`'s job.
async function build(): Promise<void> {
  const options = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8')) as Options;
  const sources = ['src', 'scripts', 'bench'].flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => join(dir, f)),
  );
  await Promise.all(
    sources.map(async (source) => {
      const out = join(root, 'dist', source.replace(/\.ts$/, '.js'));
      const { code, map } = await transformFile(join(root, source), { ...options, swcrc: false, sourceFileName: join(root, source), outputPath: out });
      mkdirSync(dirname(out), { recursive: true });
      writeFileSync(out, `${code}\n//# sourceMappingURL=${basename(out)}.map\n`);
      if (map) writeFileSync(`${out}.map`, map);
    }),
  );
}

export default async function globalSetup(): Promise<void> {
  process.env.TEST_RUN_ID = `${process.pid}-${Date.now()}`;
  await build();
  writeFileSync(join(root, 'dist', `.built-${process.env.TEST_RUN_ID}`), new Date().toISOString());
  // One OAuth key set for the run (test/helpers/service.ts stores it): an RSA key costs a quarter second of CPU.
  const { generateKeys } = (await import(pathToFileURL(join(root, 'dist/src/oauth/keys.js')).href)) as typeof import('../../src/oauth/keys.js');
  process.env.TEST_OAUTH_KEYS = JSON.stringify(await generateKeys());
  if (process.env.MONGODB_URI) {
    process.env.TEST_MONGODB_URI = process.env.MONGODB_URI;
    return;
  }
  const { startEngine } = (await import(pathToFileURL(join(root, 'dist/src/store/embedded/index.js')).href)) as typeof import('../../src/store/embedded/index.js');
  // TTL sweeps every second here (the engine's default is MongoDB's 60 s) so expiry tests stay short.
  const engine = await startEngine({ host: '127.0.0.1', port: 0, ttlIntervalMs: 1000 });
  (globalThis as { __ENGINE__?: unknown }).__ENGINE__ = engine;
  process.env.TEST_MONGODB_URI = engine.uri;
}
