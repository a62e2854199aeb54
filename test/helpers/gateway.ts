// A second gateway process (the built bundle) on the test store's database: what several processes behind one
// load balancer share is checked against it.
import { distPath } from './built.js';
import { spawnNode, type Child } from './child.js';
import { testMongoUri } from './db.js';

export interface Gateway {
  child: Child;
  url: string;
}

/** Spawns the bundle on `dbName` (no seed, info log) and resolves once it listens. */
export async function spawnGateway(
  dbName: string,
  env: Record<string, string> = {},
  timeoutMs?: number,
): Promise<Gateway> {
  const child = spawnNode(distPath('bundle/main.js'), [], {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    SEED: 'none',
    LOG_LEVEL: 'info',
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: dbName,
    ...env,
  });
  const listening = await child.waitFor(
    (l) => typeof l.url === 'string' && String(l.msg).includes('listening'),
    timeoutMs,
  );
  return { child, url: String(listening.url) };
}
