// Tests that run the service or engine as a child process need dist/: build it once per jest run,
// under a lock so parallel workers do not race on the output directory.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/version.js';

const run = promisify(execFile);

export interface ScriptResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a built script (`tools/store.js`, …) as a fresh Node process with only `env` (plus PATH and NODE_ENV=test). */
export async function runBuiltScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ScriptResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [distPath(script), ...args], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as ScriptResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export const distPath = (...parts: string[]): string => join(projectRoot, 'dist', ...parts);

/** The engine's built command (`npm run engine`), which the service's build builds first. */
export const engineCli = join(projectRoot, 'packages', 'engine', 'dist', 'src', 'cli.js');

export async function ensureBuilt(): Promise<void> {
  const marker = distPath(`.built-${process.env.TEST_RUN_ID ?? 'manual'}`);
  if (existsSync(marker)) return;
  const lock = join(projectRoot, '.build-lock');
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (existsSync(marker)) return;
    await run(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'], {
      cwd: projectRoot,
    });
    await writeFile(marker, new Date().toISOString());
  } finally {
    await rmdir(lock);
  }
}
