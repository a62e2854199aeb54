// Runs the built engine command (`dist/src/cli.js`, what `npm start` here and `npm run engine` at the root start) to its exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const engineCli = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'src', 'cli.js');

export function runEngineCli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const proc = spawn(process.execPath, [engineCli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
  // 'close', not 'exit': the last lines written can still be in the pipes when 'exit' is emitted.
  return new Promise((resolve) => proc.once('close', (code) => resolve({ code, out, err })));
}

/** Starts the built engine command on `dbPath` (an ephemeral port, `extra` arguments after); resolves once it has
 *  printed its URI, rejects with its stderr if it exits first. */
export function startEngineCli(dbPath: string, extra: string[] = []): Promise<{ proc: ChildProcess; uri: string }> {
  const proc = spawn(process.execPath, [engineCli, '--port', '0', '--dbpath', dbPath, ...extra], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    proc.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve({ proc, uri: out.split('\n')[0]!.trim() });
    });
    proc.stderr.on('data', (b: Buffer) => (err += b.toString()));
    proc.once('close', (code) => reject(new Error(`engine exited early (${code}): ${err}`)));
  });
}
