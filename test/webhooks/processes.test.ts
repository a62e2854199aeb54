// Webhooks across gateway processes on one store (the built service, spawned): a gateway killed with SIGKILL
// in the middle of deliveries loses nothing (another one sends them again, with the same webhook-id, and also
// what was written while no gateway ran), and two gateways never both send the same attempt.
import { ensureBuilt } from '../helpers/built.js';
import type { Child } from '../helpers/child.js';
import { spawnGateway } from '../helpers/gateway.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { startReceiver, verifies, type Receiver } from './receiver.js';
import { adminHeaders, article, articles, createEndpoint, deliveriesOf, eventually } from './fixtures.js';

let svc: TestService;
let admin: Record<string, string>;
let receiver: Receiver;
const children: Child[] = [];

beforeAll(async () => {
  await ensureBuilt();
  // This process only answers the administrator's GraphQL calls: the spawned gateways send.
  svc = await startTestService({ env: { WEBHOOKS: 'false', WEBHOOK_ALLOW_TARGETS: '127.0.0.1' } });
  admin = await adminHeaders(svc);
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  for (const child of children) {
    child.proc.kill('SIGTERM');
    await child.exited;
  }
  await receiver?.close();
  await svc?.close();
});

async function gateway(): Promise<Child> {
  const { child } = await spawnGateway(
    svc.db.databaseName,
    {
      WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
      // A claimed attempt is the claimer's for this plus a margin: the time another gateway waits after a crash.
      WEBHOOK_TIMEOUT_MS: '1000',
    },
    60_000,
  );
  children.push(child);
  return child;
}

const answeredIds = (got: Receiver['received']) => new Set(got.filter((r) => r.answered === 204).map((r) => r.id));

test('deliveries survive SIGKILL of the sending gateway: redelivered by another, none lost', async () => {
  receiver.answer = () => 'hold';
  const { id, secret } = await createEndpoint(svc, admin, { url: receiver.url, eventTypes: ['article.published'] });
  const first = await gateway();
  for (let i = 1; i <= 5; i++) await articles(svc.db).insertOne(article(`kill-${i}`, 'published'));
  // The gateway is in the middle of sending: the receiver holds the requests open.
  await receiver.until((got) => got.length >= 1);
  first.proc.kill('SIGKILL');
  await first.exited;
  // Written while no gateway runs: the next one resumes the change stream where the killed one left it.
  for (let i = 6; i <= 7; i++) await articles(svc.db).insertOne(article(`kill-${i}`, 'published'));
  receiver.answer = () => ({ status: 204 });
  await gateway();
  await receiver.until((got) => answeredIds(got).size >= 7, 60_000);

  const delivered = receiver.received.filter((r) => r.answered === 204);
  expect(delivered.every((r) => verifies(secret, r))).toBe(true);
  expect(new Set(delivered.map((r) => r.payload.data.id))).toEqual(
    new Set(['kill-1', 'kill-2', 'kill-3', 'kill-4', 'kill-5', 'kill-6', 'kill-7']),
  );
  // A request the killed gateway had sent is sent again with the same webhook-id.
  const held = receiver.received.filter((r) => r.answered === undefined);
  expect(held.length).toBeGreaterThanOrEqual(1);
  for (const h of held) expect(answeredIds(receiver.received).has(h.id)).toBe(true);
  const log = await eventually(async () => {
    const list = await deliveriesOf(svc, admin, id);
    return list.length === 7 && list.every((d) => d.status === 'DELIVERED') ? list : undefined;
  });
  for (const h of held) expect(log.find((d) => d.eventId === h.id)!.attempts).toBeGreaterThanOrEqual(2);
}, 180_000);

test('two gateways on one store never both send the same attempt', async () => {
  receiver.answer = () => ({ status: 204 });
  const { id, secret } = await createEndpoint(svc, admin, { url: receiver.url, eventTypes: ['product.changed'] });
  await gateway(); // beside the one started by the test above
  const before = receiver.received.length;
  const count = 30;
  for (let i = 1; i <= count; i++)
    await svc.db.collection('products').insertOne({ _id: `pair-${i}` as never, name: `Product ${i}`, available: true });
  const ours = () => receiver.received.slice(before).filter((r) => r.payload.type === 'product.changed');
  await receiver.until(() => new Set(ours().map((r) => r.id)).size >= count, 60_000);
  const log = await eventually(async () => {
    const list = await deliveriesOf(svc, admin, id);
    return list.length === count && list.every((d) => d.status === 'DELIVERED') ? list : undefined;
  });
  // Every delivery took one attempt, and the receiver saw each event exactly once.
  expect(log.every((d) => d.attempts === 1)).toBe(true);
  expect(ours()).toHaveLength(count);
  expect(ours().every((r) => verifies(secret, r))).toBe(true);
}, 180_000);
