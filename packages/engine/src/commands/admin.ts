// Handshake and server-level commands: hello/isMaster, ping, buildInfo, serverStatus, endSessions, listDatabases,
// dropDatabase. The engine presents itself as a standalone server (no setName, no topologyVersion, so the
// driver polls instead of using streaming hello).
import type { Document } from 'bson';
import { Query } from '../query/mingo.js';
import { mingoOptions } from '../query/options.js';
import { hostname } from 'node:os';
import type { CommandContext, Handler } from './context.js';
import { facetThreadStats } from './facet-thread.js';

export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
const MAX_MESSAGE_SIZE = 48_000_000;
const MAX_WRITE_BATCH_SIZE = 100_000;
const VERSION = '8.0.0';

function hello(ctx: CommandContext, legacy: boolean): Document {
  return {
    ...(legacy ? { ismaster: true } : { isWritablePrimary: true }),
    helloOk: true,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    maxMessageSizeBytes: MAX_MESSAGE_SIZE,
    maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: ctx.connectionId,
    minWireVersion: 0,
    maxWireVersion: 25,
    readOnly: false,
    ok: 1,
  };
}

function dbSize(ctx: CommandContext, name: string): number {
  let size = 0;
  for (const c of ctx.state.catalog.collections(name)) size += c.dataSize;
  return size;
}

function buildInfo(): Document {
  return {
    version: VERSION,
    gitVersion: 'embedded',
    versionArray: [8, 0, 0, 0],
    bits: 64,
    debug: false,
    maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
    storageEngines: ['embedded'],
    javascriptEngine: 'none',
    modules: [],
    ok: 1,
  };
}

export const adminCommands: Record<string, Handler> = {
  hello: (ctx) => hello(ctx, false),
  isMaster: (ctx) => hello(ctx, true),
  ismaster: (ctx) => hello(ctx, true),
  ping: () => ({ ok: 1 }),
  buildInfo: () => buildInfo(),
  buildinfo: () => buildInfo(),
  /** MongoDB's first fields (who and since when), and the engine's own figures under `embedded`. */
  serverStatus: (ctx) => {
    const ms = Date.now() - ctx.state.startedAt;
    return {
      host: hostname(),
      version: VERSION,
      process: 'embedded',
      pid: process.pid,
      uptime: Math.floor(ms / 1000),
      uptimeMillis: ms,
      uptimeEstimate: Math.floor(ms / 1000),
      localTime: new Date(),
      embedded: { searchFacets: { ...facetThreadStats } },
      ok: 1,
    };
  },
  // Sessions are accepted (lsid is ignored everywhere), so ending them has nothing to release.
  endSessions: () => ({ ok: 1 }),
  listDatabases: (ctx) => {
    const nameOnly = ctx.body.nameOnly === true;
    let dbs: Document[] = [...ctx.state.catalog.dbs.keys()].map((name) => {
      if (nameOnly) return { name };
      const sizeOnDisk = dbSize(ctx, name);
      return { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    });
    const filter = ctx.body.filter as Document | undefined;
    if (filter && Object.keys(filter).length) {
      const q = new Query(filter, mingoOptions());
      dbs = dbs.filter((d) => q.test(d));
    }
    if (nameOnly) return { databases: dbs, ok: 1 };
    const totalSize = dbs.reduce((s, d) => s + (d.sizeOnDisk as number), 0);
    return { databases: dbs, totalSize, totalSizeMb: Math.floor(totalSize / 1048576), ok: 1 };
  },
  dropDatabase: (ctx) => {
    ctx.state.catalog.dropDatabase(ctx.db);
    return { ok: 1 };
  },
};
