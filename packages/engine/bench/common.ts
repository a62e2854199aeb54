// What the engine's benchmarks share: an engine child process, article-like filler text, and a child process's CPU
// time and memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua enim minim veniam quis nostrud exercitation ullamco laboris nisi aliquip commodo consequat'.split(
    ' ',
  );

/** `n` words, the same ones for the same seed. */
export function words(n: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[(seed * 31 + i * 17) % WORDS.length]!);
  return out.join(' ');
}

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
export function procStat(pid: number): { userMs: number; sysMs: number; minorFaults: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { userMs: Number(fields[11]) * 10, sysMs: Number(fields[12]) * 10, minorFaults: Number(fields[7]) };
}

/**
 * Spawns the engine's command line (`cli`, a build's dist/src/cli.js) with node flags and its arguments before and
 * after `--port 0`; resolves with the process and the connection string it prints.
 */
export function startEngineProcess(
  cli: string,
  args: string[] = [],
  nodeFlags: string[] = [],
): Promise<{ proc: ChildProcess; uri: string }> {
  const proc = spawn(process.execPath, [...nodeFlags, cli, '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve({ proc, uri: out.split('\n')[0]!.trim() });
    });
    proc.once('exit', (code) => reject(new Error(`engine exited (${code})`)));
  });
}
