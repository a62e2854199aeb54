// Outgrowing the embedded store: a seeded embedded data directory copied with the built `store copy` into a
// standalone engine on another port, and the service started there answers as before: the README's nested
// query, both REST lists, the access token and the refresh token issued before the copy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { runSeeders } from '../../src/seed/index.js';
import { startService, type RunningService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { engineCli, ensureBuilt } from '../helpers/built.js';
import { spawnNode, type Child } from '../helpers/child.js';
import { demoTokens, freePort, publicAnswers, storeCli, tokenEndpoint, viewerId } from './support.js';

const SLOW = 180_000;
const sourceDir = mkdtempSync(join(tmpdir(), 'store-copy-source-'));
const targetDir = mkdtempSync(join(tmpdir(), 'store-copy-target-'));
const log = createLogger('silent');
let engine: Child | undefined;
let targetUri: string;

const configFor = (env: Record<string, string>): Config =>
  loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RESPONSE_CACHE_MB: '0',
    PUBLIC_URL: 'http://gateway.test',
    STORE_TIMEOUT_MS: '10000',
    ...env,
  });

async function serve(config: Config): Promise<{ store: Store; service: RunningService }> {
  const store = await Store.open(config.store, log);
  return { store, service: await startService({ config, log, store }) };
}

let before: Record<string, unknown>;
let tokens: { access: string; refresh: string };

beforeAll(async () => {
  await ensureBuilt();
  // The team's first gateway: the embedded store in its data directory, seeded, one customer signed in.
  const { store, service } = await serve(configFor({ DATA_DIR: sourceDir }));
  await runSeeders(store, { scale: 'demo', log });
  before = await publicAnswers(service.url);
  // Real answers, not errors: what the copy must preserve.
  expect(before).toMatchObject({
    nested: {
      status: 200,
      body: { data: { page: { name: expect.any(String), issues: { totalCount: expect.any(Number) } } } },
    },
    issues: { status: 200 },
    categories: { status: 200 },
  });
  tokens = await demoTokens(service.url);
  expect(await viewerId(service.url, tokens.access)).toBe('cus_demo');
  await service.stop();
  await store.close();

  const port = await freePort();
  engine = spawnNode(engineCli, ['--port', String(port), '--dbpath', targetDir], {});
  await engine.waitFor((l) => String(l.msg).startsWith('mongodb://'));
  targetUri = `mongodb://127.0.0.1:${port}/?directConnection=true`;
}, SLOW);

afterAll(async () => {
  engine?.proc.kill('SIGTERM');
  await engine?.exited;
  rmSync(sourceDir, { recursive: true, force: true });
  rmSync(targetDir, { recursive: true, force: true });
});

test(
  'copy the data directory into the standalone engine: counts and digests agree, and the service there answers as before',
  async () => {
    const copy = await storeCli(['copy', '--from', sourceDir, '--to', targetUri, '--db', 'gateway']);
    expect(copy.stderr).not.toContain('failed');
    expect(copy.code).toBe(0);
    expect(copy.stdout).toMatch(/every collection has the same count and digest on both sides \(\d+ collections\)/);
    expect(copy.stdout).not.toContain('DIFFERS');
    expect(copy.stdout).toMatch(/same {2}articles +\d+/);

    const { store, service } = await serve(configFor({ MONGODB_URI: targetUri, MONGODB_DB: 'gateway' }));
    try {
      expect(await publicAnswers(service.url)).toEqual(before);
      // The signing keys came along: the access token issued before the copy is still the demo customer's.
      expect(await viewerId(service.url, tokens.access)).toBe('cus_demo');
      const refreshed = await tokenEndpoint(service.url, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh,
      });
      expect(refreshed.status).toBe(200);
      expect(await viewerId(service.url, refreshed.body.access_token!)).toBe('cus_demo');
      // The unique index on e-mail came along too: a second customer with the demo address is refused.
      await expect(
        store
          .collection('customers')
          .insertOne({ ...(await store.collection('customers').findOne({ _id: 'cus_demo' }))!, _id: 'cus_other' }),
      ).rejects.toThrow(/duplicate key/);
    } finally {
      await service.stop();
      await store.close();
    }
  },
  SLOW,
);

test(
  'a second copy into the now non-empty target is refused without --drop or --resume; --resume converges',
  async () => {
    const again = await storeCli(['copy', '--from', sourceDir, '--to', targetUri, '--db', 'gateway', '--quiet']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds documents in');
    expect(again.stderr).toContain('--drop');

    // Continuing an interrupted copy: upserts by _id converge on the source's documents.
    const resumed = await storeCli([
      'copy',
      '--from',
      sourceDir,
      '--to',
      targetUri,
      '--db',
      'gateway',
      '--resume',
      '--only',
      'articles,issues,pages',
      '--quiet',
    ]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/same {2}articles +\d+/);
    expect(resumed.stdout).toContain('every collection has the same count and digest on both sides (3 collections)');

    // The refresh above rotated the token in the target only: the check finds oauth_models changed there.
    const diverged = await storeCli([
      'copy',
      '--from',
      sourceDir,
      '--to',
      targetUri,
      '--db',
      'gateway',
      '--resume',
      '--quiet',
    ]);
    expect(diverged.code).toBe(1);
    expect(diverged.stdout).toMatch(/DIFFERS {2}oauth_models/);
    expect(diverged.stdout).toMatch(/same {2}articles/);
  },
  SLOW,
);
