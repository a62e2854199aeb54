// The playground bundle for the tests: jest's global setup compiles TypeScript but does not bundle the
// playground, so tests that need it build it here when it is missing or older than its sources
// (under a lock: parallel workers must not swap dist/playground under each other).
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assetDir } from '../../src/playground/assets.js';
import { projectRoot } from '../../src/version.js';

const run = promisify(execFile);
const sources = (): string[] => [
  join(projectRoot, 'scripts', 'build-playground.mjs'),
  join(projectRoot, 'package-lock.json'),
  ...readdirSync(join(projectRoot, 'src', 'playground', 'client')).map((f) =>
    join(projectRoot, 'src', 'playground', 'client', f),
  ),
];

function isFresh(): boolean {
  const manifest = join(assetDir, 'manifest.json');
  if (!existsSync(manifest)) return false;
  const builtAt = statSync(manifest).mtimeMs;
  return sources().every((f) => statSync(f).mtimeMs <= builtAt);
}

export async function ensurePlaygroundBundle(): Promise<void> {
  if (isFresh()) return;
  const lock = join(projectRoot, 'dist', '.playground-build-lock');
  await mkdir(join(projectRoot, 'dist'), { recursive: true });
  for (let waited = 0; ; waited += 250) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (waited > 120_000) throw new Error(`${lock} held for 2 minutes: remove it if no build is running`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!isFresh())
      await run(process.execPath, [join(projectRoot, 'scripts', 'build-playground.mjs')], { cwd: projectRoot });
  } finally {
    await rmdir(lock);
  }
}
