// A second gateway process for the multi-process OAuth tests: the built service as a child process on
// the same store (database) and PUBLIC_URL as the test's own service, plus the small calls both files use.
import { distPath, ensureBuilt } from '../helpers/built.js';
import { spawnNode, type Child } from '../helpers/child.js';
import { testMongoUri } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';

const PUBLIC_URL = 'http://gateway.test';

/** Starts the child beside `first` (which must run with PUBLIC_URL); resolves with it and its origin. */
async function startSecondProcess(first: TestService): Promise<{ child: Child; url: string }> {
  const child = spawnNode(distPath('bundle/main.js'), [], {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SEED: 'none',
    PUBLIC_URL,
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: first.db.databaseName,
  });
  const listening = await child.waitFor(
    (l) => typeof l.url === 'string' && String(l.msg).includes('listening'),
    60_000,
  );
  return { child, url: new URL(String(listening.url)).origin };
}

async function stopSecondProcess(child: Child | undefined): Promise<void> {
  child?.proc.kill('SIGTERM');
  await child?.exited;
}

export interface TwoProcesses {
  /** The test's own service (in this process). */
  a: TestService;
  /** The origin of the second gateway process. */
  bUrl: string;
}

/**
 * Starts both gateways before the file's tests (and stops them after): the returned object is filled in
 * by the time a test runs.
 */
export function useTwoProcesses(): TwoProcesses {
  const two = {} as TwoProcesses;
  let b: Child | undefined;
  beforeAll(async () => {
    await ensureBuilt();
    two.a = await startTestService({ env: { PUBLIC_URL, LOGIN_MAX_FAILURES_PER_IP: '1000' } });
    ({ child: b, url: two.bUrl } = await startSecondProcess(two.a));
  }, 120_000);
  afterAll(async () => {
    await stopSecondProcess(b);
    await two.a?.close();
  });
  return two;
}

/** The status of a GraphQL read with the access token, on the service at `url`. */
export async function readAs(url: string, accessToken: string): Promise<number> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ query: '{ service { version } }' }),
  });
  return res.status;
}

/** Asks until `check` holds (the services' poll period decides how long, not this loop). */
export async function eventually(check: () => Promise<boolean>, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('never happened');
}
