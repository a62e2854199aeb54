// Real Varnish (Debian's varnishd with the xkey module of varnish-modules) in front of the service, configured by
// deploy/varnish/default.vcl: answers are cached by Varnish for the lifetime the service gives caches in front,
// and a write purges, through CDN_PURGE_URL, exactly the answers that show what it changed; the rest stay cached.
// varnishd runs as a child on a random port with its own working directory, as its own unprivileged user when
// the tests run as root. Skipped, with a message, where varnishd is not installed (CI installs it).
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/version.js';
import { insertCatalogue } from '../catalogue/fixtures.js';
import { article } from '../content/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';

const VARNISHD = '/usr/sbin/varnishd';
const present = existsSync(VARNISHD);
if (!present)
  process.stderr.write(`[varnish test] ${VARNISHD} not found: skipping (apt-get install varnish varnish-modules)\n`);

/** How long a purge may take to show through Varnish before the test fails (the time taken is logged). */
const DEADLINE_MS = 5_000;

let svc: TestService;
let varnish: ChildProcess | undefined;
let exited: Promise<void> | undefined;
let workDir: string | undefined;
let front: string;
const varnishLog: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Root runs varnishd as Debian's `varnish` user: its files must be that user's. */
function unprivileged(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'varnish'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function startVarnish(backendPort: number, port: number): Promise<void> {
  workDir = mkdtempSync(join(tmpdir(), 'varnish-test-'));
  const vcl = readFileSync(join(projectRoot, 'deploy/varnish/default.vcl'), 'utf8').replace(
    /\.port = "\d+";/,
    `.port = "${backendPort}";`,
  );
  const vclPath = join(workDir, 'default.vcl');
  writeFileSync(vclPath, vcl);
  const user = unprivileged();
  if (user) {
    chownSync(workDir, user.uid, user.gid);
    chownSync(vclPath, user.uid, user.gid);
  }
  chmodSync(workDir, 0o755);
  // -F: in the foreground, a child of the test; -j none: no jail (it is not root); -T none: no admin port.
  const child = spawn(
    VARNISHD,
    [
      '-F',
      '-j',
      'none',
      '-n',
      join(workDir, 'n'),
      '-f',
      vclPath,
      '-a',
      `127.0.0.1:${port}`,
      '-T',
      'none',
      '-s',
      'malloc,32m',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], ...user },
  );
  varnish = child;
  exited = new Promise((resolve) => child.once('exit', () => resolve()));
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => varnishLog.push(d.toString()));
  const until = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${front}/`, { method: 'PURGE', headers: { 'xkey-purge': 'nothing' } }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return;
    if (child.exitCode !== null || Date.now() > until)
      throw new Error(`varnishd did not start:\n${varnishLog.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

(present ? describe : describe.skip)('Varnish in front, purged by surrogate key', () => {
  beforeAll(async () => {
    const port = await freePort();
    front = `http://127.0.0.1:${port}`;
    svc = await startTestService({
      env: {
        CACHE_MAX_AGE: '60',
        CDN_MAX_AGE: '3600',
        CDN_PURGE_URL: `${front}/`,
        WEBHOOK_POLL_MS: '100',
        WEBHOOK_RETRY_BASE_MS: '50',
        WEBHOOK_RETRY_MAX_MS: '200',
      },
      beforeStart: async (store) => {
        await store.db
          .collection('articles')
          .insertMany([
            article('va-1', { title: 'One' }),
            article('va-2', { title: 'Two' }),
            article('va-3', { title: 'Three', status: 'draft' }),
          ] as never[]);
        await insertCatalogue(store);
      },
    });
    await startVarnish(Number(new URL(svc.url).port), port);
  }, 120_000);
  afterAll(async () => {
    varnish?.kill('SIGTERM');
    await exited;
    if (workDir) rmSync(workDir, { recursive: true, force: true });
    await svc?.close();
  });

  const QUERIES = {
    one: '{ article(id: "va-1") { id title } }',
    two: '{ article(id: "va-2") { id title } }',
    three: '{ article(id: "va-3") { id title } }',
    product: '{ product(id: "prod-weekly") { id name } }',
  };
  type Name = keyof typeof QUERIES;
  const url = (name: Name) => `${front}/graphql?${new URLSearchParams({ query: QUERIES[name] }).toString()}`;

  /** Asks Varnish; `hit`: it answered from its cache (X-Varnish names the request and the object's). */
  async function ask(name: Name) {
    const res = await fetch(url(name));
    const body = (await res.json()) as { data: Record<string, { title?: string; name?: string } | null> };
    const hit = (res.headers.get('x-varnish') ?? '').trim().split(/\s+/).length === 2;
    return { status: res.status, res, data: Object.values(body.data)[0], hit };
  }

  async function until(name: Name, seen: (data: { title?: string } | null | undefined) => boolean) {
    const started = Date.now();
    for (;;) {
      const answer = await ask(name);
      if (seen(answer.data)) {
        process.stderr.write(
          `[varnish test] ${name}: change visible through Varnish after ${Date.now() - started} ms\n`,
        );
        return answer;
      }
      if (Date.now() - started > DEADLINE_MS) throw new Error(`${name} still shows ${JSON.stringify(answer.data)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  test('answers are cached by Varnish, without the headers meant for it', async () => {
    for (const name of Object.keys(QUERIES) as Name[]) {
      const first = await ask(name);
      expect(first.status).toBe(200);
      const second = await ask(name);
      expect(second.hit).toBe(true);
      expect(second.res.headers.get('cache-control')).toBe('max-age=60, public');
      for (const header of ['surrogate-key', 'surrogate-control', 'cache-tag', 'cdn-cache-control', 'xkey'])
        expect(second.res.headers.get(header)).toBeNull();
    }
    expect((await ask('three')).data).toBeNull();
  });

  test('a changed article is purged; answers that do not show it stay cached', async () => {
    await svc.db.collection('articles').updateOne({ _id: 'va-1' as never }, { $set: { title: 'One, changed' } });
    const changed = await until('one', (data) => data?.title === 'One, changed');
    expect(changed.status).toBe(200);
    const two = await ask('two');
    expect(two).toMatchObject({ hit: true, data: { title: 'Two' } });
    expect((await ask('product')).hit).toBe(true);
    // The draft's answer (null) depends on every article write: purged too, and cached again since.
    expect((await ask('three')).data).toBeNull();
  });

  test('a published article appears where it was absent; other articles stay cached', async () => {
    expect((await ask('three')).hit).toBe(true);
    await svc.db.collection('articles').updateOne({ _id: 'va-3' as never }, { $set: { status: 'published' } });
    await until('three', (data) => data?.title === 'Three');
    expect(await ask('one')).toMatchObject({ hit: true, data: { title: 'One, changed' } });
    expect(await ask('two')).toMatchObject({ hit: true, data: { title: 'Two' } });
    expect((await ask('product')).hit).toBe(true);
  });

  test('a product change purges the product answer only', async () => {
    await svc.db
      .collection('products')
      .updateOne({ _id: 'prod-weekly' as never }, { $set: { name: 'Weekly, renamed' } });
    const renamed = await until('product', (data) => (data as { name?: string } | null)?.name === 'Weekly, renamed');
    expect(renamed.status).toBe(200);
    expect((await ask('one')).hit).toBe(true);
    expect((await ask('two')).hit).toBe(true);
  });
});
