// Starting the embedded engine apart from the driver: this module loads nothing but the thread's starter, so the
// process entry can start the engine (its thread, its modules, its store's open) before it loads the service,
// and the two starts overlap on the two cores. Store.open takes the engine once it is on its way.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningEngine } from '@gateway/engine';
import { engineThreadAvailable, startEngineThread, type EngineThread } from '@gateway/engine/thread';
import type { Config } from '../config.js';

export type EngineLog = (msg: string, fields?: Record<string, unknown>) => void;

export interface StartingEngine {
  /** Resolves once the engine answers on its port; rejects with the engine's own reason. */
  running: Promise<RunningEngine | EngineThread>;
  /** The data directory, or undefined in memory. */
  dbPath: string | undefined;
  thread: boolean;
}

/** Starts the embedded engine the configuration asks for (a store without MONGODB_URI). */
export function startEmbeddedEngine(config: Config['store'], log: EngineLog): StartingEngine {
  const dbPath = config.mode === 'disk' ? config.dataDir : undefined;
  // The service's own clients talk to the engine over a Unix domain socket: a command costs about a third less
  // CPU than over loopback TCP. The TCP port stays for tools and tests that connect from elsewhere.
  const socketPath = join(tmpdir(), `gateway-engine-${process.pid}-${randomBytes(4).toString('hex')}.sock`);
  const options = { host: '127.0.0.1', port: 0, dbPath, socketPath };
  const thread = config.engineThread && engineThreadAvailable;
  // The engine in this event loop (ENGINE_WORKER=false, or tests from sources) loads its modules only then.
  const running = thread
    ? startEngineThread(options, log)
    : import('@gateway/engine').then(({ startEngine }) => startEngine({ ...options, log }));
  // A failure surfaces where Store.open awaits it, which may be after other start-up work.
  running.catch(() => undefined);
  return { running, dbPath, thread };
}
