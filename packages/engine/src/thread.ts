// The embedded engine on a thread of its own: a worker_thread runs startEngine() (the wire server, storage,
// TTL sweeper) and the service's driver talks to it over loopback exactly as before. In the service's own event
// loop the engine's work (BSON on its side of the socket, queries, storage) took turns with GraphQL on one
// core; on a thread it runs beside it. A thread rather than a child process: one process to start, stop, watch
// and account for, and when the service dies, however it dies, the engine dies with it (no orphan holding the
// data directory). The engine itself is unchanged; this file only carries start, logs, close and failure
// across the thread boundary.
// The thread runs worker.ts, which alone imports the engine: starting a thread costs the service's own thread
// nothing of the engine's modules (the query engine and storage load on the engine's thread, beside the service's).
import { Worker } from 'node:worker_threads';
import type { EngineOptions, RunningEngine } from './index.js';
import type { FromThread, ThreadOptions } from './worker.js';

/** The engine's oplog API (`changes`) stays on its thread: change streams reach the service through the driver. */
export interface EngineThread extends Omit<RunningEngine, 'changes'> {
  /** Resolves with the reason if the engine's thread stops on its own once started (never after close()). */
  readonly failed: Promise<Error>;
}

/** Threads run the built JavaScript; from TypeScript sources (the tests' transform) the engine stays in the event loop. */
export const engineThreadAvailable = import.meta.url.endsWith('.js');

/** Starts the engine on a worker thread; rejects with the engine's own message when it cannot start. */
export function startEngineThread(
  options: ThreadOptions,
  log: NonNullable<EngineOptions['log']>,
): Promise<EngineThread> {
  // worker.js beside this file, or beside the bundle this file was built into (the service's start bundle).
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { engineThread: options } });
  let started = false;
  let closing: Promise<void> | undefined;
  let reportFailure: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => (reportFailure = resolve));
  const closed = new Promise<void>((resolve) => worker.once('exit', () => resolve()));

  return new Promise<EngineThread>((resolve, reject) => {
    const fail = (err: Error): void => {
      if (!started) reject(err);
      else if (!closing) reportFailure(err);
    };
    worker.on('message', (m: FromThread) => {
      if (m.kind === 'log') log(m.msg, m.fields);
      else if (m.kind === 'failed') fail(new Error(m.message));
      else if (m.kind === 'ready') {
        started = true;
        resolve({ uri: m.uri, host: m.host, port: m.port, socketUri: m.socketUri, failed, close });
      }
    });
    worker.on('error', (err) => fail(new Error(`the store engine's thread failed: ${err.message}`)));
    worker.once('exit', (code) => fail(new Error(`the store engine's thread stopped (exit code ${code})`)));
  });

  function close(): Promise<void> {
    closing ??= (async () => {
      const done = new Promise<void>((resolve) =>
        worker.on('message', (m: FromThread) => m.kind === 'closed' && resolve()),
      );
      worker.postMessage({ kind: 'close' });
      await Promise.race([done, closed]);
      // Everything is flushed and closed by now: whatever timer or handle is left must not keep it alive.
      await worker.terminate();
    })();
    return closing;
  }
}
