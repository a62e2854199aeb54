// The processes under test: the engine (own process, own dbpath), the seed, the service and the
// two reference servers. Every start has a bounded wait; every process is tracked by procs.ts.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { insertCatalogue } from './catalogue.js';
import {
  distRoot,
  freePort,
  nodeProc,
  startEntry,
  startFlags,
  waitForHttp,
  waitForOutput,
  type Proc,
} from './procs.js';

export const DB_NAME = 'bench';

const engineCli = fileURLToPath(import.meta.resolve('@gateway/engine/cli'));
const seedScript = join(distRoot, 'scripts/seed.js');
const serviceMain = startEntry();
const referenceMain = join(distRoot, 'bench/reference.js');

export async function startEngine(dbPath: string, nodeFlags: string[] = []): Promise<{ proc: Proc; uri: string }> {
  const proc = nodeProc('engine', engineCli, ['--host', '127.0.0.1', '--port', '0', '--dbpath', dbPath], {}, nodeFlags);
  // Opening a large dbpath replays its snapshot and log: allow minutes.
  const out = await waitForOutput(proc, (o) => /mongodb:\/\/\S+/.test(o), 600_000);
  return { proc, uri: /mongodb:\/\/\S+/.exec(out)![0] };
}

/** Scale and dataset counts when the database was seeded already (the seed marker), else null. */
export async function seededCounts(uri: string): Promise<{ scale: string; counts: Record<string, number> } | null> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 60_000 });
  try {
    await client.connect();
    const marker = await client
      .db(DB_NAME)
      .collection<{ _id: string; value: { scale: string; counts: Record<string, number> } }>('settings')
      .findOne({ _id: 'seed' });
    return marker ? { scale: marker.value.scale, counts: marker.value.counts } : null;
  } finally {
    await client.close();
  }
}

/**
 * Seeds `scale` through the seed code (scripts/seed.ts -> runSeeders) against the engine's URI. The seed
 * gets STORE_TIMEOUT_MS=60000: while the engine digests a batch of a thousand large documents it can
 * miss the driver's 2 s heartbeat, and with the default the seed fails on a monitor timeout.
 */
export async function seed(uri: string, scale: string, log: (line: string) => void): Promise<void> {
  const proc = nodeProc('seed', seedScript, ['--scale', scale], {
    MONGODB_URI: uri,
    MONGODB_DB: DB_NAME,
    LOG_LEVEL: 'warn',
    STORE_TIMEOUT_MS: '60000',
  });
  let shown = 0;
  const show = (): void => {
    const lines = proc.out().split('\n');
    for (const line of lines.slice(shown, -1)) if (/100%|seeded/.test(line)) log(`  ${line}`);
    shown = Math.max(shown, lines.length - 1);
  };
  const timer = setInterval(show, 1000);
  const deadline = setTimeout(() => proc.child.kill('SIGKILL'), 30 * 60_000);
  const code = await proc.exited;
  clearInterval(timer);
  show();
  clearTimeout(deadline);
  if (code !== 0) throw new Error(`seed failed (${code}):\n${proc.err().slice(-3000)}${proc.out().slice(-1000)}`);
}

/** The benchmark's catalogue, unless the seed made one; says which. */
export async function ensureCatalogue(uri: string): Promise<{ inserted: boolean; counts: Record<string, number> }> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 60_000 });
  try {
    await client.connect();
    const db = client.db(DB_NAME);
    const existing = await db.collection('productCategories').countDocuments({});
    if (existing > 0) {
      return {
        inserted: false,
        counts: {
          productCategories: existing,
          products: await db.collection('products').countDocuments({}),
          productItems: await db.collection('productItems').countDocuments({}),
        },
      };
    }
    return { inserted: true, counts: await insertCatalogue(db) };
  } finally {
    await client.close();
  }
}

export interface Service {
  proc: Proc;
  url: string;
}

/**
 * How the service runs in production, as measured: NODE_ENV=production (graphql-js, for one, drops its
 * development-time checks then; `instanceOf` alone was 1% of an uncached answer without it).
 */
const PRODUCTION = { NODE_ENV: 'production' };

/** The node flags of `npm start` (package.json), for the service and the reference servers alike. */
const START_FLAGS = startFlags();

/** The service as `npm start` runs it, against the engine: no seeding, warnings only, loopback. */
export async function startService(
  uri: string,
  extraEnv: Record<string, string> = {},
  nodeFlags: string[] = [],
  name = 'service',
): Promise<Service> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = nodeProc(
    name,
    serviceMain,
    [],
    {
      ...PRODUCTION,
      MONGODB_URI: uri,
      MONGODB_DB: DB_NAME,
      SEED: 'none',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      ...extraEnv,
    },
    [...START_FLAGS, ...nodeFlags],
  );
  await waitForHttp(proc, `${url}/readyz`, 120_000);
  return { proc, url };
}

export async function startReference(
  mode: 'ceiling' | 'minimal',
  args: string[],
  nodeFlags: string[] = [],
  withStartFlags = true,
): Promise<Service> {
  const proc = nodeProc(mode, referenceMain, [mode, '--port', '0', ...args], {}, [
    ...(withStartFlags ? START_FLAGS : []),
    ...nodeFlags,
  ]);
  const out = await waitForOutput(proc, (o) => /listening \d+/.test(o), 60_000);
  return { proc, url: `http://127.0.0.1:${/listening (\d+)/.exec(out)![1]}` };
}

/** The pages whose issues the nested query can read (enabled ones), by id. */
export async function enabledPageIds(uri: string): Promise<string[]> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 60_000 });
  try {
    await client.connect();
    const pages = await client
      .db(DB_NAME)
      .collection<{ _id: string }>('pages')
      .find({ enabled: true }, { projection: { _id: 1 }, sort: { _id: 1 } })
      .toArray();
    return pages.map((p) => p._id);
  } finally {
    await client.close();
  }
}

/** The articles the small query asks for, in turn: the first `n` published ones by id. */
export async function sampleArticleIds(uri: string, n: number): Promise<string[]> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 60_000 });
  try {
    await client.connect();
    const articles = await client
      .db(DB_NAME)
      .collection<{ _id: string }>('articles')
      .find({ status: 'published' }, { projection: { _id: 1 }, sort: { _id: 1 }, limit: n })
      .toArray();
    if (articles.length === 0) throw new Error('the dataset has no published article');
    return articles.map((a) => a._id);
  } finally {
    await client.close();
  }
}

/**
 * The service as `npm start` runs it: the embedded engine on `dataDir` inside the service (no MONGODB_URI),
 * response cache off so every answer is computed.
 */
export async function startEmbeddedService(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  nodeFlags: string[] = [],
  name = 'service-embedded',
): Promise<Service> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = nodeProc(
    name,
    serviceMain,
    [],
    {
      ...PRODUCTION,
      STORE: 'disk',
      DATA_DIR: dataDir,
      MONGODB_DB: DB_NAME,
      SEED: 'none',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      RESPONSE_CACHE_MB: '0',
      ...extraEnv,
    },
    [...START_FLAGS, ...nodeFlags],
  );
  await waitForHttp(proc, `${url}/readyz`, 600_000);
  return { proc, url };
}

/** The item the lookup scenario asks for: the first available one by id. */
export async function sampleProductItemId(uri: string): Promise<string> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 60_000 });
  try {
    await client.connect();
    const item = await client
      .db(DB_NAME)
      .collection<{ _id: string }>('productItems')
      .find({ available: true }, { projection: { _id: 1 }, sort: { _id: 1 }, limit: 1 })
      .next();
    if (!item) throw new Error('the catalogue has no available product item');
    return item._id;
  } finally {
    await client.close();
  }
}
