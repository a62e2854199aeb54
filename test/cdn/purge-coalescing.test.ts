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

beforeAll(async () => {
  cache = createServer((req, res) => {
    purges.push({ method: req.method ?? '', keys: String(req.headers['xkey-purge'] ?? '').split(' ') });
    res.writeHead(answer).end();
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
