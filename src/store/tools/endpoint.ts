// Where a tool reads or writes: a MongoDB connection string, or a data directory of the embedded engine,
// which is started in-process on an ephemeral loopback port so that the tools speak to every store through
// the driver alone (whatever storage the engine keeps underneath).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { MongoClient, type Db } from 'mongodb';
import type { Config } from '../../config.js';
import { startEngine, type RunningEngine } from '@gateway/engine';
import { ToolError } from './errors.js';

export interface Endpoint {
  /** For messages: the URI without credentials, or the data directory. */
  label: string;
  client: MongoClient;
  db: Db;
  close(): Promise<void>;
}

const URI = /^mongodb(\+srv)?:\/\//;

/** The database a URI names in its path (`mongodb://host/db?...`), if any. */
function uriDatabase(uri: string): string | undefined {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(uri)?.[1];
  return path ? decodeURIComponent(path) : undefined;
}

const hideCredentials = (uri: string): string => uri.replace(/\/\/[^@/]*@/, '//***@');

/**
 * Opens `where` (a URI or a data directory). `mustHoldData`: a directory that does not exist or is empty is
 * an error (a mistyped source must not read as an empty store).
 */
export async function openEndpoint(where: string, opts: { dbName: string; mustHoldData: boolean }): Promise<Endpoint> {
  if (URI.test(where)) return connect(where, uriDatabase(where) ?? opts.dbName, hideCredentials(where));
  const dir = resolve(where);
  if (opts.mustHoldData && (!existsSync(dir) || !statSync(dir).isDirectory() || readdirSync(dir).length === 0)) {
    throw new ToolError(
      `${where}: not a data directory with anything in it (give a mongodb:// URI or the DATA_DIR of an embedded store)`,
    );
  }
  let engine: RunningEngine;
  try {
    engine = await startEngine({ host: '127.0.0.1', port: 0, dbPath: dir });
  } catch (err) {
    throw new ToolError(
      `${where}: could not open the embedded store (${(err as Error).message}); is a service still running on it?`,
    );
  }
  try {
    return await connect(engine.uri, opts.dbName, `embedded store at ${where}`, engine);
  } catch (err) {
    await engine.close();
    throw err;
  }
}

/** The store the service is configured with: MONGODB_URI, or the embedded engine's DATA_DIR. */
export function configuredStore(config: Config['store']): string {
  if (config.uri) return config.uri;
  if (config.mode === 'memory')
    throw new ToolError('STORE=memory keeps nothing between runs: give --from/--to, MONGODB_URI or a DATA_DIR');
  return config.dataDir;
}

async function connect(uri: string, dbName: string, label: string, engine?: RunningEngine): Promise<Endpoint> {
  // A batch job: no socket timeout (a large batch may take a while), a generous wait for the server.
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000, appName: 'gateway-store-tools' });
  try {
    await client.connect();
  } catch (err) {
    throw new ToolError(`${label}: cannot connect (${(err as Error).message})`);
  }
  return {
    label,
    client,
    db: client.db(dbName),
    async close() {
      await client.close();
      await engine?.close();
    },
  };
}
