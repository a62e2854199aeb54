// Child processes of the benchmark (engine, seed, service, reference servers): spawned with a bounded
// wait for readiness, tracked, and always stopped (SIGTERM, then SIGKILL) however the run ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/ (this file is dist/bench/procs.js). */
export const distRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
export const projectRoot = join(distRoot, '..');

/** package.json's `start` script in the checkout `root`: `node <flags> <entry under dist/>`. */
function startScript(root: string): { flags: string[]; entry: string } {
  const start =
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: { start?: string } }).scripts?.start ??
    '';
  const m = /^node((?: --[\w-]+(?:=\S+)?)*) (dist\/\S+\.js)$/.exec(start);
  if (!m)
    throw new Error(`package.json in ${root}: its start script is not "node [--flags] dist/<entry>.js": ${start}`);
  return { flags: m[1]!.split(' ').filter(Boolean), entry: m[2]! };
}

/**
 * The node flags `npm start` runs the service with, read from the checkout `root`. The bench starts the service
 * as deployed, and the reference servers with the same flags, so that a ratio between them compares code and not
 * runtime settings.
 */
export function startFlags(root = projectRoot): string[] {
  return startScript(root).flags;
}

/** The file `npm start` runs in the checkout `root` (the start bundle), as an absolute path. */
export function startEntry(root = projectRoot): string {
  return join(root, startScript(root).entry);
}

export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Everything written to stdout / stderr so far (bounded). */
  out(): string;
  err(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Proc>();
const started: Proc[] = [];
const KEEP = 64 * 1024;

/** Starts `node <entry> ...args` (or another command) with a clean, explicit environment. */
function spawnProc(name: string, command: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: projectRoot,
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    out = (out + chunk.toString('utf8')).slice(-KEEP);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-KEEP);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: Proc = {
    name,
    child,
    pid: child.pid ?? -1,
    out: () => out,
    err: () => err,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      running.delete(proc);
    },
  };
  if (proc.pid < 0) throw new Error(`could not start ${name}`);
  running.add(proc);
  started.push(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

export const nodeProc = (
  name: string,
  entry: string,
  args: string[],
  env: Record<string, string>,
  nodeFlags: string[] = [],
): Proc => spawnProc(name, process.execPath, [...nodeFlags, entry, ...args], env);

/** Stops every process still running, newest first (service before engine). */
export async function stopAll(): Promise<void> {
  for (const proc of [...running].reverse()) await proc.stop().catch(() => undefined);
}

// Last resort: whatever is still running when this process exits is killed outright.
process.on('exit', () => {
  for (const proc of running) proc.child.kill('SIGKILL');
});

/** Resolves when `predicate` holds on the process's stdout; rejects on exit or after `timeoutMs`. */
export async function waitForOutput(
  proc: Proc,
  predicate: (out: string) => boolean,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void proc.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (predicate(proc.out())) return proc.out();
    if (gone)
      throw new Error(`${proc.name} exited (${proc.child.exitCode}) before it was ready:\n${proc.err().slice(-2000)}`);
    await sleep(50);
  }
  throw new Error(`${proc.name} not ready within ${timeoutMs} ms:\n${proc.err().slice(-2000)}`);
}

/** Polls `url` until it answers 200 (or the process dies, or time runs out). */
export async function waitForHttp(proc: Proc, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void proc.exited.then(() => (gone = true));
  while (Date.now() < deadline) {
    if (gone)
      throw new Error(
        `${proc.name} exited (${proc.child.exitCode}) before it was ready:\n${proc.err().slice(-2000)}${proc.out().slice(-2000)}`,
      );
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs} ms:\n${proc.err().slice(-2000)}`);
}

/** A port nobody listens on right now (loopback). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resident memory of a process in MiB (VmRSS from /proc), or null when it is gone. */
export function rssMiB(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] = utime, fields[12] = stime (after the state field, 0-based from field 3)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The last output of every process started (for the log when a run fails). */
export function outputTails(chars = 1500): string {
  return started
    .map(
      (p) =>
        `--- ${p.name} (pid ${p.pid}, exit ${p.child.exitCode ?? p.child.signalCode ?? 'running'})\n${(p.out().slice(-chars) + p.err().slice(-chars)).trim()}`,
    )
    .join('\n');
}

/**
 * Waits until the processes are idle again (under 10% of a core over half a second, at most 20 s): a run
 * that ends cuts its connections, but the server still finishes the work already accepted, which would
 * otherwise slow the start of the next run.
 */
export async function settle(procs: Proc[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  let last = procs.map((p) => cpuSeconds(p.pid) ?? 0);
  while (Date.now() < deadline) {
    await sleep(500);
    const now = procs.map((p) => cpuSeconds(p.pid) ?? 0);
    const busy = now.some((v, i) => v - last[i]! > 0.05);
    last = now;
    if (!busy) return;
  }
}
