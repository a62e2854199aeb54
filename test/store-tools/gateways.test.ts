// Several gateways behind one URL: two service processes on one store with the same PUBLIC_URL accept each
// other's tokens (access tokens, refresh rotation across them); a third started under another PUBLIC_URL
// warns at start-up that the store's OAuth state was issued under a different issuer, and refuses their tokens.
import { ensureBuilt, distPath } from '../helpers/built.js';
import { openTestDb, testMongoUri, uniqueDbName } from '../helpers/db.js';
import { spawnNode, type Child } from '../helpers/child.js';
import { demoTokens, tokenEndpoint, viewerId } from './support.js';
import { MongoClient } from 'mongodb';
import { pino } from 'pino';
import { Store } from '../../src/store/store.js';
import { checkIssuer, ISSUER_SETTING } from '../../src/store/tools/issuer-check.js';

const SLOW = 120_000;
const dbName = uniqueDbName('gw');
const running: Child[] = [];
const DIFFERENT_ISSUER = /different issuer/;

async function gateway(publicUrl: string, env: Record<string, string> = {}): Promise<{ child: Child; url: string }> {
  const child = spawnNode(distPath('bundle/main.js'), [], {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    PUBLIC_URL: publicUrl,
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: dbName,
    SEED: 'none',
    RESPONSE_CACHE_MB: '0',
    ...env,
  });
  running.push(child);
  const line = await child.waitFor(
    (l) => typeof l.url === 'string' && String(l.msg).startsWith('gateway listening'),
    60_000,
  );
  return { child, url: String(line.url) };
}

const warned = (child: Child): boolean =>
  child.lines.some((l) => l.level === 40 && DIFFERENT_ISSUER.test(String(l.msg)));

beforeAll(ensureBuilt, SLOW);

afterAll(async () => {
  for (const child of running) child.proc.kill('SIGTERM');
  await Promise.all(running.map((c) => c.exited));
  const client = new MongoClient(testMongoUri());
  await client
    .db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
});

test(
  "two gateways with one PUBLIC_URL accept each other's tokens; a third under another URL warns and refuses them",
  async () => {
    const a = await gateway('https://api.example.test', { SEED: 'demo' });
    const b = await gateway('https://api.example.test');

    const fromA = await demoTokens(a.url);
    expect(await viewerId(b.url, fromA.access)).toBe('cus_demo');
    const refreshedAtB = await tokenEndpoint(b.url, { grant_type: 'refresh_token', refresh_token: fromA.refresh });
    expect(refreshedAtB.status).toBe(200);
    expect(await viewerId(a.url, refreshedAtB.body.access_token!)).toBe('cus_demo');
    const refreshedAtA = await tokenEndpoint(a.url, {
      grant_type: 'refresh_token',
      refresh_token: refreshedAtB.body.refresh_token!,
    });
    expect(refreshedAtA.status).toBe(200);
    expect(warned(a.child) || warned(b.child)).toBe(false);

    // The README's old two-process example: each process its own issuer. The newcomer says so at start-up.
    const c = await gateway('http://localhost:4001');
    await c.child.waitFor((l) => l.level === 40 && DIFFERENT_ISSUER.test(String(l.msg)), 20_000);
    const warning = c.child.lines.find((l) => l.level === 40 && DIFFERENT_ISSUER.test(String(l.msg)))!;
    expect(warning).toMatchObject({
      storedIssuer: 'https://api.example.test/oauth2',
      issuer: 'http://localhost:4001/oauth2',
    });
    expect(await viewerId(c.url, refreshedAtA.body.access_token!)).toBeNull();
    const refreshAtC = await tokenEndpoint(c.url, {
      grant_type: 'refresh_token',
      refresh_token: refreshedAtA.body.refresh_token!,
    });
    expect(refreshAtC.status).toBe(400);
  },
  SLOW,
);

describe('the start-up check on its own', () => {
  const captured: Array<Record<string, unknown>> = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => void captured.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const ours = { issuer: 'https://api.example.test/oauth2', audience: 'https://api.example.test/' };
  let db: Awaited<ReturnType<typeof openTestDb>>;
  let store: Store;

  beforeAll(async () => {
    db = await openTestDb('issuer');
    store = await Store.onDb(db.client, db.db);
  });
  afterAll(() => db.close());
  beforeEach(async () => {
    captured.length = 0;
    await store.collection('settings').deleteMany({});
    await store.collection('oauth_models').deleteMany({});
  });

  test('a store from before the record, with live grants for another audience: warns, and keeps no record yet', async () => {
    const grant = { resources: { 'http://localhost:4000/': 'openid cart' }, accountId: 'cus_x' };
    await store.collection('oauth_models').insertOne({
      _id: 'Grant:g1',
      model: 'Grant',
      payload: JSON.stringify(grant),
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    await checkIssuer(store, ours, log);
    expect(captured).toEqual([
      expect.objectContaining({
        level: 40,
        storedAudience: ['http://localhost:4000/'],
        audience: ours.audience,
        msg: expect.stringMatching(DIFFERENT_ISSUER),
      }),
    ]);
    expect(await store.collection('settings').findOne({ _id: ISSUER_SETTING })).toBeNull();
  });

  test('an empty store: records the issuer silently; the same issuer again: still silent', async () => {
    await checkIssuer(store, ours, log);
    await checkIssuer(store, ours, log);
    expect(captured).toEqual([]);
    expect((await store.collection('settings').findOne({ _id: ISSUER_SETTING }))?.value).toEqual(ours);
  });

  test('another issuer on a store with nothing live under the recorded one: warns once, then the record follows', async () => {
    await checkIssuer(store, ours, log);
    const moved = { issuer: 'https://new.example.test/oauth2', audience: 'https://new.example.test/' };
    await checkIssuer(store, moved, log);
    expect(captured.filter((l) => l.level === 40)).toHaveLength(1);
    expect((await store.collection('settings').findOne({ _id: ISSUER_SETTING }))?.value).toEqual(moved);
  });
});
