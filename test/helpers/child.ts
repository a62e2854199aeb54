// Runs a built entry point as a child process and collects its JSON log lines.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

export interface Child {
  proc: ChildProcessWithoutNullStreams;
  lines: Array<Record<string, unknown>>;
  stderr: string[];
  /** Resolves with the first log line matching `predicate`. */
  waitFor(predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<number | null>;
}

export function spawnNode(entry: string, args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [entry, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: 'pipe',
  });
  const lines: Array<Record<string, unknown>> = [];
  const stderr: string[] = [];
  const waiters: Array<{
    predicate: (l: Record<string, unknown>) => boolean;
    resolve: (l: Record<string, unknown>) => void;
  }> = [];
  let buffer = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const raw = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        line = { msg: raw };
      }
      lines.push(line);
      for (const w of [...waiters])
        if (w.predicate(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
    }
  });
  proc.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  // 'close', not 'exit': a child's last writes can still be in its pipes when 'exit' is emitted.
  const exited = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  return {
    proc,
    lines,
    stderr,
    exited,
    waitFor(predicate, timeoutMs = 20_000) {
      const found = lines.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for a log line; stderr: ${stderr.join('')}`)),
          timeoutMs,
        );
        waiters.push({
          predicate,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
        void exited.then((code) => {
          clearTimeout(timer);
          reject(new Error(`process exited (${code}) before the log line; stderr: ${stderr.join('')}`));
        });
      });
    },
  };
}
