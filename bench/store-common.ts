// What the service's store benchmarks share: a child process's CPU time and memory from /proc, and the engine
// alone (its `cli.js`) opened on a data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** VmRSS (everything resident, mapped data files included) or RssAnon (the process's own memory), in MiB. */
export function rssMb(pid: number, field: 'VmRSS' | 'RssAnon' = 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+)\\s+kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

/** CPU time (user + system) a process has used, in ms, from /proc/<pid>/stat (clock ticks of 10 ms). */
export function cpuMs(pid: number): number {
  const { userMs, sysMs } = procStat(pid);
  return userMs + sysMs;
}

/** A process's CPU time in user and system mode (ms, clock ticks of 10 ms) and minor page faults so far. */
function procStat(pid: number): { userMs: number; sysMs: number; minorFaults: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { userMs: Number(fields[11]) * 10, sysMs: Number(fields[12]) * 10, minorFaults: Number(fields[7]) };
}

/** The embedded engine as its own process on `dataDir`, on a free port; resolves with its connection string. */
export async function startEngineCli(dataDir: string): Promise<{ proc: ChildProcess; uri: string }> {
  const proc = spawn(
    process.execPath,
    [fileURLToPath(import.meta.resolve('@gateway/engine/cli')), '--port', '0', '--dbpath', dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const uri = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!.trim());
    });
    proc.once('exit', (c) => reject(new Error(`engine exited ${c}`)));
  });
  return { proc, uri };
}

/** SIGTERM, resolved once the process has exited (at once if it already has). */
export async function stopped(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const done = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await done;
}
