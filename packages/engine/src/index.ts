// Public entry point of the embedded MongoDB-compatible engine: startEngine() opens the LMDB storage (a data
// directory, or a temporary one deleted on close), the cursors, change streams, the TTL sweeper and the
// wire-protocol server.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { changeStreams } from './changes/index.js';
import { Catalog } from './storage/catalog.js';
import { CursorRegistry } from './cursors.js';
import type { EngineState } from './commands/context.js';
import { enableTestCommands } from './commands/failpoints.js';
import { resumeBuilds } from './commands/index-builds.js';
import { reclaimInBackground } from './storage/reclaim.js';
import { StorageEnv } from './storage/env.js';
import type { Oplog } from './storage/oplog.js';
import { isLegacyDir, LegacyFormatError } from './persist/legacy.js';
import { TtlSweeper } from './ttl.js';
import { WireServer } from './wire/server.js';

export type { ChangeRecord, ChangeListener, ChangeOp } from './storage/oplog.js';

export interface EngineOptions {
  host?: string /* default 127.0.0.1 */;
  port?: number /* 0 = ephemeral, default 27017 */;
  dbPath?: string /* undefined = a temporary directory, deleted on close */;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** TTL sweep interval in ms (default 60 s, as MongoDB's TTL monitor; tests pass a shorter one). */
  ttlIntervalMs?: number;
  /** Oplog retention: the newest this many change records are kept (default 100,000). */
  maxChanges?: number;
  /**
   * mongod's test commands (`configureFailPoint` with the `failCommand` fail point), for drivers' and
   * MongoDB's specification tests; off by default, as mongod's `enableTestCommands`.
   */
  testCommands?: boolean;
  /**
   * mongod's maxIndexBuildMemoryUsageMegabytes: about what an index build's external sorter holds in memory
   * (default 200); a build's entries beyond it are sorted in runs, in files under the data directory's `_tmp/`.
   */
  indexBuildMemoryMB?: number;
  /**
   * Matches from which a search's facets (a `$text` match, an inclusion `$project`, a `$facet` of counts) are
   * counted on two threads, half each (default 2,048; 0: on the engine's thread alone). Only the built
   * JavaScript starts threads: run from TypeScript sources, the engine counts on its own thread.
   */
  parallelFacetsFrom?: number;
  /**
   * Also listen on this Unix domain socket (created, and removed on close): `socketUri` names it, or is undefined
   * when the socket could not be made (logged; the port serves alone). A client on the same machine pays less
   * per command than over loopback TCP (no TCP stack on either side).
   */
  socketPath?: string;
}

/** The engine's table of changes (see storage/oplog.ts and the README, "Oplog"). */
export type EngineChanges = Pick<Oplog, 'readChanges' | 'oldestChangeTs' | 'latestChangeTs' | 'onChanges'>;

export interface RunningEngine {
  uri: string /* mongodb://host:port/?directConnection=true */;
  host: string;
  port: number;
  /** The connection string of `socketPath`, when one was given. */
  socketUri?: string;
  changes: EngineChanges;
  close(): Promise<void> /* stops listening, ends sockets, closes the storage */;
}

export async function startEngine(opts: EngineOptions = {}): Promise<RunningEngine> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => undefined);
  const started = Date.now();
  if (opts.dbPath !== undefined && isLegacyDir(opts.dbPath)) throw new LegacyFormatError(opts.dbPath);
  const unlock = opts.dbPath !== undefined ? lock(opts.dbPath) : () => undefined;
  let env: StorageEnv;
  try {
    env = StorageEnv.open({ dir: opts.dbPath });
  } catch (e) {
    unlock();
    throw e;
  }
  let catalog: Catalog;
  try {
    catalog = new Catalog(env, { maxChanges: opts.maxChanges });
  } catch (e) {
    // An earlier layout (OldLayoutError names the --migrate command) or unreadable metadata: release the directory.
    await env.close();
    unlock();
    throw e;
  }
  log('storage opened', {
    dbPath: opts.dbPath ?? null,
    collections: [...catalog.all()].length,
    ms: Date.now() - started,
  });
  const state: EngineState = {
    catalog,
    cursors: new CursorRegistry(),
    changes: changeStreams(catalog),
    startedAt: Date.now(),
    log,
    indexBuildMemoryMB: opts.indexBuildMemoryMB,
    parallelFacetsFrom: opts.parallelFacetsFrom,
  };
  if (opts.testCommands) enableTestCommands(state);
  resumeBuilds(state);
  reclaimInBackground(env);
  const server = new WireServer(state, { commit: () => env.flushed() });
  const ttl = new TtlSweeper(catalog, opts.ttlIntervalMs ?? 60_000, log);
  const shutdown = async (): Promise<void> => {
    ttl.stop();
    state.cursors.close();
    state.changes?.close();
    await catalog
      .saveKeptCounts()
      .catch((e: unknown) => log('kept counts not saved', { error: e instanceof Error ? e.message : String(e) }));
    await env.close();
    unlock();
  };
  let port: number;
  try {
    port = await server.listen(host, opts.port ?? 27017);
  } catch (e) {
    await server.close();
    await shutdown();
    throw e;
  }
  // The socket is a shortcut: where it cannot be made (a read-only or too long temporary path), clients use the port.
  let socketPath = opts.socketPath;
  if (socketPath !== undefined)
    await server.listenOnSocket(socketPath).catch((e: unknown) => {
      log('not listening on a Unix domain socket: clients use the TCP port', {
        socketPath,
        error: e instanceof Error ? e.message : String(e),
      });
      socketPath = undefined;
    });
  const uriHost = host.includes(':') ? `[${host}]` : host;
  log('engine listening', { host, port, dbPath: opts.dbPath ?? null });
  let closing: Promise<void> | undefined;
  const o = catalog.oplog;
  return {
    uri: `mongodb://${uriHost}:${port}/?directConnection=true`,
    host,
    port,
    socketUri:
      socketPath === undefined ? undefined : `mongodb://${encodeURIComponent(socketPath)}/?directConnection=true`,
    changes: {
      readChanges: (fromTs, limit) => o.readChanges(fromTs, limit),
      oldestChangeTs: () => o.oldestChangeTs(),
      latestChangeTs: () => o.latestChangeTs(),
      onChanges: (l) => o.onChanges(l),
    },
    close: () =>
      (closing ??= (async () => {
        await server.close();
        await shutdown();
        log('engine closed');
      })()),
  };
}

const LOCK_FILE = 'engine.lock';

/**
 * Refuses a dbPath another live engine process holds (the catalog is mirrored in the heap, so one engine
 * at a time); a lock left by a crashed process is taken over. Returns the release function.
 */
function lock(dir: string): () => void {
  const path = join(dir, LOCK_FILE);
  let holder = NaN;
  try {
    holder = Number(readFileSync(path, 'utf8').trim());
  } catch {
    // no lock file
  }
  if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
    throw new Error(`dbPath ${dir} is in use by process ${holder}`);
  }
  StorageEnv.prepareDir(dir);
  writeFileSync(path, `${process.pid}\n`);
  return () => {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A process that has exited but was not reaped by its parent (a zombie, e.g. under a container's PID 1 that
  // reaps nothing) still answers signal 0, but holds nothing any more.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (not Linux) or gone meanwhile: as signal 0 said
  }
}
