// The engine's thread (thread.ts starts it): start the engine, carry its logs across, close it when asked.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { startEngine, type EngineOptions, type RunningEngine } from './index.js';

export type ThreadOptions = Omit<EngineOptions, 'log'>;
export type FromThread =
  | { kind: 'ready'; uri: string; host: string; port: number; socketUri?: string }
  | { kind: 'failed'; message: string }
  | { kind: 'log'; msg: string; fields?: Record<string, unknown> }
  | { kind: 'closed' };

/** The thread's side: start the engine, report, and close it when asked. */
async function runEngineThread(options: ThreadOptions): Promise<void> {
  const port = parentPort!;
  const post = (message: FromThread): void => {
    try {
      port.postMessage(message);
    } catch {
      // A log field that cannot cross threads (a function, a socket): send the line without its fields.
      if (message.kind === 'log') port.postMessage({ kind: 'log', msg: message.msg });
    }
  };
  let engine: RunningEngine;
  try {
    engine = await startEngine({ ...options, log: (msg, fields) => post({ kind: 'log', msg, fields }) });
  } catch (err) {
    post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    return;
  }
  port.on('message', (m: { kind: string }) => {
    if (m.kind !== 'close') return;
    void engine.close().finally(() => {
      post({ kind: 'closed' });
      port.close();
    });
  });
  post({ kind: 'ready', uri: engine.uri, host: engine.host, port: engine.port, socketUri: engine.socketUri });
}

const threadOptions = isMainThread ? undefined : (workerData as { engineThread?: ThreadOptions } | null)?.engineThread;
if (threadOptions) void runEngineThread(threadOptions);
