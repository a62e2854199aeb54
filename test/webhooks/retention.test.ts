// The outbox does not grow forever: deliveries that were delivered, or finally failed, are removed once older than
// WEBHOOK_KEEP_FOR_MS; deliveries still to be sent are kept however old.
import { startTestService, type TestService } from '../helpers/service.js';
import { startReceiver, type Receiver } from './receiver.js';
import { adminHeaders, article, articles, createEndpoint, eventually } from './fixtures.js';

let svc: TestService;
let admin: Record<string, string>;
let ok: Receiver;
let broken: Receiver;

beforeAll(async () => {
  svc = await startTestService({
    env: {
      WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_FOR_MS: '0',
      WEBHOOK_KEEP_FOR_MS: '1000',
    },
  });
  admin = await adminHeaders(svc);
  ok = await startReceiver();
  broken = await startReceiver(() => ({ status: 500 }));
}, 60_000);
afterAll(async () => {
  await ok?.close();
  await broken?.close();
  await svc?.close();
});

const deliveries = () => svc.db.collection<{ _id: string; status: string; endpointId: string }>('webhookDeliveries');

test('delivered and failed deliveries are removed after the keeping time; pending ones stay', async () => {
  const good = await createEndpoint(svc, admin, { url: ok.url, eventTypes: ['article.published'] });
  const bad = await createEndpoint(svc, admin, { url: broken.url, eventTypes: ['article.published'] });
  // Queued long ago, due long from now: still to be sent, so kept.
  const old = new Date(Date.now() - 86_400_000);
  await deliveries().insertOne({
    _id: 'msg_kept.pending',
    eventId: 'msg_kept',
    endpointId: good.id,
    type: 'article.published',
    entity: 'article:kept',
    seq: '0',
    body: '{}',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: new Date(Date.now() + 86_400_000),
    leaseOwner: null,
    leaseUntil: null,
    giveUpAt: new Date(Date.now() + 86_400_000),
    lastAttempt: null,
    log: [],
    createdAt: old,
    updatedAt: old,
  } as never);

  await articles(svc.db).insertOne(article('kept-1', 'published'));
  const finished = await eventually(async () => {
    const found = await deliveries().find({ entity: 'article:kept-1' }).toArray();
    const states = Object.fromEntries(found.map((d) => [d.endpointId, d.status]));
    return states[good.id] === 'delivered' && states[bad.id] === 'failed' ? found : undefined;
  });
  expect(finished).toHaveLength(2);

  await eventually(async () =>
    (await deliveries().countDocuments({ entity: 'article:kept-1' })) === 0 ? true : undefined,
  );
  expect(await deliveries().findOne({ _id: 'msg_kept.pending' })).toMatchObject({ status: 'pending' });
});
