// Purges of the cache in front are coalesced: the cache-purge events of a burst of writes, queued in the outbox
// one per write, go out as a few `PURGE` requests once the window (CDN_PURGE_WINDOW_MS) has passed, naming every
// key the writes purge exactly once and nothing else; each queued purge is recorded as delivered.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { article } from '../content/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** What the cache in front received: one entry per request, its method and the keys it named. */
interface Purge {
  method: string;
  keys: string[];
}

let svc: TestService;
let cache: Server;
const purges: Purge[] = [];
/** Answered with this status (the cache in front failing, then recovering). */
let answer = 200;
/** A key the cache refuses (400) in any request that names it, as Varnish refuses an oversized header. */
let refused: string | undefined;

beforeAll(async () => {
  cache = createServer((req, res) => {
    const keys = String(req.headers['xkey-purge'] ?? '').split(' ');
    purges.push({ method: req.method ?? '', keys });
    res.writeHead(refused !== undefined && keys.includes(refused) ? 400 : answer).end();
  });
  await new Promise<void>((resolve) => cache.listen(0, '127.0.0.1', resolve));
  svc = await startTestService({
    env: {
      CDN_PURGE_URL: `http://127.0.0.1:${(cache.address() as AddressInfo).port}/`,
      CDN_PURGE_WINDOW_MS: '2000',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
    },
  });
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await new Promise((resolve) => cache?.close(resolve));
});

/** Resolves once `done` holds, polling; fails after 30 s. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !(await done()); await new Promise((r) => setTimeout(r, 50)))
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
}

const purgedKeys = (): Set<string> => new Set(purges.flatMap((p) => p.keys));
const allDelivered = async (): Promise<boolean> =>
  (await svc.db
    .collection('webhookDeliveries')
    .countDocuments({ endpointId: 'cdn-purge', status: { $ne: 'delivered' } })) === 0;

test('a burst of writes yields a few purges that name every key once', async () => {
  const N = 40;
  const ids = Array.from({ length: N }, (_, i) => `burst-${i}`);
  // Written as another system would, each article its own change.
  await svc.db.collection('articles').insertMany(ids.map((id) => article(id)) as never[]);
  const expected = new Set([...ids.map((id) => `article:${id}`), 'articles']);
  await until(() => [...expected].every((k) => purgedKeys().has(k)), 'every key to be purged');
  await until(allDelivered, 'the queued purges to be recorded as delivered');

  expect(await svc.db.collection('webhookDeliveries').countDocuments({ endpointId: 'cdn-purge' })).toBe(N);
  expect(purges.length).toBeLessThanOrEqual(N / 10);
  expect(purges.every((p) => p.method === 'PURGE')).toBe(true);
  // Exactly the keys of the writes, none twice in one request.
  expect([...purgedKeys()].sort()).toEqual([...expected].sort());
  for (const p of purges) expect(new Set(p.keys).size).toBe(p.keys.length);
}, 60_000);

test('purges a failing cache did not take are sent again, still together', async () => {
  purges.length = 0;
  answer = 503;
  const ids = ['again-1', 'again-2', 'again-3'];
  await svc.db.collection('articles').insertMany(ids.map((id) => article(id)) as never[]);
  await until(() => purges.length >= 2, 'a retry after the failed purge');
  answer = 200;
  await until(allDelivered, 'the purges to be delivered once the cache answers');
  const expected = [...ids.map((id) => `article:${id}`), 'articles'].sort();
  // Every request, failed or not, named the whole batch.
  for (const p of purges) expect([...p.keys].sort()).toEqual(expected);
}, 60_000);

test('a purge the cache refuses holds back only itself, not the purges queued after it', async () => {
  purges.length = 0;
  refused = 'article:refused-1';
  await svc.db.collection('articles').insertOne(article('refused-1') as never);
  await until(() => purges.some((p) => p.keys.includes('article:refused-1')), 'the refused purge to be tried');
  const ids = ['after-1', 'after-2', 'after-3'];
  await svc.db.collection('articles').insertMany(ids.map((id) => article(id)) as never[]);
  const deliveries = svc.db.collection<{ body: string; status: string; attempts: number }>('webhookDeliveries');
  const statusOf = async (id: string): Promise<string[]> =>
    (await deliveries.find({ endpointId: 'cdn-purge', body: { $regex: `"article:${id}"` } }).toArray()).map(
      (d) => d.status,
    );
  // Each later write's purge is delivered while the refused one keeps being retried on its own.
  await until(async () => {
    const statuses = (await Promise.all(ids.map(statusOf))).flat();
    return statuses.length === ids.length && statuses.every((s) => s === 'delivered');
  }, 'the later purges to be delivered');
  for (const id of ids) expect(purgedKeys()).toContain(`article:${id}`);
  await until(
    async () =>
      ((await deliveries.findOne({ endpointId: 'cdn-purge', body: { $regex: '"article:refused-1"' } }))?.attempts ??
        0) >= 2,
    'the refused purge to be retried',
  );
  expect(await statusOf('refused-1')).toEqual([expect.stringMatching(/^(pending|sending)$/)]);
  // Once the cache takes it, it is delivered too.
  refused = undefined;
  await until(allDelivered, 'the refused purge to be delivered once the cache takes it');
}, 60_000);
