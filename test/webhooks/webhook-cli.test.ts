// `npm run webhook -- <command>`: the built command against the service's own database, while the service runs.
// An endpoint created from the command line receives the service's events signed with the secret the command
// printed; the command lists endpoints and deliveries, redelivers, disables, rotates and deletes; mistakes are
// refused with exit code 2 (usage) or 1 (a missing endpoint) and a message.
import { ensureBuilt, runBuiltScript } from '../helpers/built.js';
import { testMongoUri } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { startReceiver, verifies, type Receiver } from './receiver.js';
import { article, articles } from './fixtures.js';

/** Each run is a fresh Node process that opens the store: allow for a loaded machine. */
const SLOW = 180_000;

let svc: TestService;
let receiver: Receiver;

beforeAll(async () => {
  await ensureBuilt();
  svc = await startTestService({ env: { WEBHOOK_ALLOW_TARGETS: '127.0.0.1', WEBHOOK_POLL_MS: '100' } });
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await receiver?.close();
  await svc?.close();
});

const webhook = (...args: string[]) =>
  runBuiltScript('tools/webhook.js', args, {
    MONGODB_URI: testMongoUri(),
    MONGODB_DB: svc.db.databaseName,
    WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
  });
const json = async (...args: string[]) => {
  const res = await webhook(...args);
  expect(res).toMatchObject({ code: 0 });
  return JSON.parse(res.stdout) as Record<string, unknown> & Array<Record<string, unknown>>;
};

test(
  'create, list, deliveries, redeliver, disable, rotate and delete from the command line',
  async () => {
    const created = await json('create', '--url', `${receiver.url}/cli`, '--event', 'article.published');
    const secret = created.secret as string;
    const id = (created.endpoint as { id: string }).id;
    expect(secret).toMatch(/^whsec_/);
    expect(created.endpoint).toMatchObject({
      url: `${receiver.url}/cli`,
      eventTypes: ['article.published'],
      enabled: true,
    });
    expect((await json('list')).map((e) => e.id)).toEqual([id]);

    await articles(svc.db).insertOne(article('cli-1', 'published'));
    await receiver.until((got) => got.length >= 1);
    const [first] = receiver.received;
    expect(first!.payload.type).toBe('article.published');
    expect(verifies(secret, first!)).toBe(true);

    const [delivery] = await json('deliveries', id);
    expect(delivery).toMatchObject({ type: 'article.published', status: 'delivered', attempts: 1 });
    const redelivered = await json('redeliver', delivery!.id as string);
    expect(redelivered).toMatchObject({ id: delivery!.id, status: 'pending' });
    await receiver.until((got) => got.length >= 2);
    expect(receiver.received[1]!.headers['webhook-id']).toBe(first!.headers['webhook-id']);

    expect(await json('update', id, '--disable')).toMatchObject({ id, enabled: false });
    const rotated = await json('rotate', id, '--keep-previous', '0');
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(secret);
    expect(await json('delete', id)).toEqual({ deleted: true });
    expect(await json('list')).toEqual([]);
  },
  SLOW,
);

test(
  'usage mistakes exit with 2, a missing endpoint with 1, each with a message',
  async () => {
    const unknown = await webhook('promote');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "promote"');
    const badUrl = await webhook('create', '--url', 'ftp://x.example/', '--event', 'article.published');
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('url');
    const missing = await webhook('update', 'whe_nothing', '--disable');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('No webhook endpoint whe_nothing');
  },
  SLOW,
);
