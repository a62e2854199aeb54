// Public entry point of the embedded MongoDB-compatible engine: startEngine() wires storage, optional
// persistence, cursors, the TTL sweeper and the wire-protocol server together.
import { Catalog } from './storage/catalog.js';
import { CursorRegistry } from './cursors.js';
import type { EngineState } from './commands/context.js';
import { Persistence } from './persist/persistence.js';
import { TtlSweeper } from './ttl.js';
import { WireServer } from './wire/server.js';

export interface EngineOptions {
  host?: string /* default 127.0.0.1 */;
  port?: number /* 0 = ephemeral, default 27017 */;
  dbPath?: string /* undefined = in-memory */;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** TTL sweep interval in ms (default 60 s, as MongoDB's TTL monitor; tests pass a shorter one). */
  ttlIntervalMs?: number;
  /** Compact (snapshot + truncate log) once the operation log grows past this many bytes. */
  compactLogBytes?: number;
}

export interface RunningEngine {
  uri: string /* mongodb://host:port/?directConnection=true */;
  host: string;
  port: number;
  close(): Promise<void> /* stops listening, ends sockets, flushes + closes log */;
}

export async function startEngine(opts: EngineOptions = {}): Promise<RunningEngine> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => undefined);
  const catalog = new Catalog();
  const persistence = opts.dbPath ? await Persistence.open(opts.dbPath, catalog, { log, compactLogBytes: opts.compactLogBytes }) : undefined;
  const state: EngineState = { catalog, cursors: new CursorRegistry(), startedAt: Date.now(), log };
  const server = new WireServer(state, persistence);
  const ttl = new TtlSweeper(catalog, opts.ttlIntervalMs ?? 60_000, persistence, log);
  let port: number;
  try {
    port = await server.listen(host, opts.port ?? 27017);
  } catch (e) {
    ttl.stop();
    state.cursors.close();
    await persistence?.close();
    throw e;
  }
  const uriHost = host.includes(':') ? `[${host}]` : host;
  log('engine listening', { host, port, dbPath: opts.dbPath ?? null });
  let closing: Promise<void> | undefined;
  return {
    uri: `mongodb://${uriHost}:${port}/?directConnection=true`,
    host,
    port,
    close: () =>
      (closing ??= (async () => {
        ttl.stop();
        await server.close();
        state.cursors.close();
        await persistence?.close();
        log('engine closed');
      })()),
  };
}
