// Webhooks end to end: store writes become signed events that a real receiver verifies with the Standard
// Webhooks library; rotation signs with both secrets; failures are retried with back-off, entity order is
// kept, and an administrator manages endpoints and redelivers.
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor } from '../helpers/tokens.js';
import { startReceiver, verifies, type Receiver } from './receiver.js';
import { adminHeaders, article, articles, createEndpoint, deliveriesOf, eventually } from './fixtures.js';

let svc: TestService;
let admin: Record<string, string>;
const receivers: Receiver[] = [];

async function receiver(answer?: Receiver['answer']): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

beforeAll(async () => {
  svc = await startTestService({
    env: {
      WEBHOOK_ALLOW_TARGETS: '127.0.0.1',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
      WEBHOOK_TIMEOUT_MS: '3000',
    },
  });
  admin = await adminHeaders(svc);
}, 60_000);
afterAll(async () => {
  for (const r of receivers) await r.close();
  await svc?.close();
});

const code = (body: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => body.errors?.[0]?.extensions?.code;

describe('signed events', () => {
  test('a published article reaches the receiver signed per Standard Webhooks, with its cache purge', async () => {
    const r = await receiver();
    const { secret } = await createEndpoint(svc, admin, {
      url: `${r.url}/hooks`,
      eventTypes: ['article.published', 'cache.purge'],
    });
    await articles(svc.db).insertOne(article('sig-draft', 'draft'));
    await articles(svc.db).insertOne(article('sig-1', 'published', 'Signed'));
    await r.until((got) => got.length >= 2);
    expect(r.received.map((q) => q.payload.type)).toEqual(['article.published', 'cache.purge']);
    const [published, purge] = r.received;
    for (const req of r.received) {
      expect(verifies(secret, req)).toBe(true);
      expect(req.path).toBe('/hooks');
      expect(req.headers['content-type']).toBe('application/json');
      expect(req.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
      expect(req.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
      expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(300);
    }
    expect(published!.id).not.toBe(purge!.id);
    expect(published!.payload.data).toEqual({
      id: 'sig-1',
      title: 'Signed',
      slug: 'article-sig-1',
      url: 'https://news.example/sig-1',
      status: 'published',
    });
    expect(purge!.payload.data).toEqual({ keys: ['article:sig-1', 'articles'] });
    // The draft, written before, made no event at all.
    expect(r.received.some((q) => q.body.includes('sig-draft'))).toBe(false);
    // A receiver with another secret rejects the message.
    expect(verifies(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, published!)).toBe(false);
  });

  test('each kind of change makes its event type', async () => {
    const r = await receiver();
    const { secret } = await createEndpoint(svc, admin, {
      url: r.url,
      eventTypes: [
        'article.updated',
        'article.unpublished',
        'issue.published',
        'product.changed',
        'productItem.changed',
        'newsletter.subscription.activated',
      ],
    });
    await articles(svc.db).insertOne(article('kinds-1', 'published'));
    await articles(svc.db).updateOne({ _id: 'kinds-1' }, { $set: { viewsCount: 1 } }); // a counter: no event
    await articles(svc.db).updateOne({ _id: 'kinds-1' }, { $set: { title: 'Renamed' } });
    await articles(svc.db).updateOne({ _id: 'kinds-1' }, { $set: { status: 'archived' } });
    await svc.db
      .collection('issues')
      .insertOne({ _id: 'kinds-issue' as never, pageId: 'p1', title: 'Issue', issueNumber: 7, status: 'published' });
    await svc.db.collection('products').insertOne({ _id: 'kinds-product' as never, name: 'Mug', available: true });
    await svc.db.collection('productItems').insertOne({
      _id: 'kinds-item' as never,
      productId: 'kinds-product',
      price: 1000,
      currency: 'EUR',
      prices: { web: 1000, mobile: 1000, compareAt: null },
      available: true,
      stockEnabled: true,
      stockAvailable: 5,
      name: 'Mug, red',
    });
    await svc.db.collection('productItems').updateOne({ _id: 'kinds-item' as never }, { $set: { name: 'Mug, blue' } }); // no price or stock
    await svc.db
      .collection('productItems')
      .updateOne({ _id: 'kinds-item' as never }, { $set: { price: 900, stockAvailable: 4 } });
    await svc.db.collection('newsletterSubscriptions').insertOne({
      _id: 'kinds-sub' as never,
      channelId: '1',
      email: 'a@example.test',
      status: 'pending',
      activatedAt: null,
    });
    const activatedAt = new Date();
    await svc.db
      .collection('newsletterSubscriptions')
      .updateOne({ _id: 'kinds-sub' as never }, { $set: { status: 'active', activatedAt } });
    await r.until((got) => got.length >= 7);
    expect(r.received).toHaveLength(7);
    expect(r.received.every((q) => verifies(secret, q))).toBe(true);
    // Deliveries are ordered per entity, not across entities: each entity's events in the order of its writes.
    const byEntity = new Map<string, Array<{ type: string; data: Record<string, unknown> }>>();
    for (const q of r.received) {
      const event = q.payload;
      const id = String(event.data.id);
      byEntity.set(id, [...(byEntity.get(id) ?? []), event]);
    }
    const types = (id: string) => byEntity.get(id)?.map((e) => e.type);
    const data = (id: string, n: number) => byEntity.get(id)![n]!.data;
    expect(types('kinds-1')).toEqual(['article.updated', 'article.unpublished']);
    expect(types('kinds-issue')).toEqual(['issue.published']);
    expect(types('kinds-product')).toEqual(['product.changed']);
    expect(types('kinds-item')).toEqual(['productItem.changed', 'productItem.changed']);
    expect(types('kinds-sub')).toEqual(['newsletter.subscription.activated']);
    expect(data('kinds-1', 0)).toMatchObject({ id: 'kinds-1', title: 'Renamed', status: 'published' });
    expect(data('kinds-1', 1)).toMatchObject({ id: 'kinds-1', status: 'archived' });
    expect(data('kinds-issue', 0)).toMatchObject({ id: 'kinds-issue', issueNumber: 7, status: 'published' });
    expect(data('kinds-product', 0)).toMatchObject({ id: 'kinds-product', change: 'created', name: 'Mug' });
    expect(data('kinds-item', 0)).toMatchObject({
      id: 'kinds-item',
      change: 'created',
      price: 1000,
      stockAvailable: 5,
    });
    expect(data('kinds-item', 1)).toMatchObject({
      id: 'kinds-item',
      change: 'updated',
      changedFields: ['price', 'stockAvailable'],
      price: 900,
      stockAvailable: 4,
    });
    expect(data('kinds-sub', 0)).toEqual({
      id: 'kinds-sub',
      channelId: '1',
      email: 'a@example.test',
      activatedAt: activatedAt.toISOString(),
    });
  });

  test('during a rotation both secrets sign; afterwards only the new one', async () => {
    const r = await receiver();
    const { id, secret: old } = await createEndpoint(svc, admin, { url: r.url, eventTypes: ['article.published'] });
    const rotate = (keep: number) =>
      svc.gql<{ rotateWebhookSecret: { secret: string; endpoint: { previousSecretExpiresAt: string | null } } }>(
        'mutation($id: ID!, $keep: Int) { rotateWebhookSecret(id: $id, keepPreviousSeconds: $keep) { secret endpoint { previousSecretExpiresAt } } }',
        { id, keep },
        admin,
      );
    const rotated = (await rotate(3600)).body.data!.rotateWebhookSecret;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(old);
    expect(Date.parse(rotated.endpoint.previousSecretExpiresAt!)).toBeGreaterThan(Date.now() + 3_500_000);
    await articles(svc.db).insertOne(article('rot-1', 'published'));
    await r.until((got) => got.length >= 1);
    const during = r.received[0]!;
    expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifies(rotated.secret, during)).toBe(true);
    expect(verifies(old, during)).toBe(true);

    const final = (await rotate(0)).body.data!.rotateWebhookSecret;
    expect(final.endpoint.previousSecretExpiresAt).toBeNull();
    await articles(svc.db).insertOne(article('rot-2', 'published'));
    await r.until((got) => got.length >= 2);
    const after = r.received[1]!;
    expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(verifies(final.secret, after)).toBe(true);
    expect(verifies(rotated.secret, after)).toBe(false);
    expect(verifies(old, after)).toBe(false);
  });
});

describe('delivery', () => {
  test('a failing receiver gets the event again until it takes it; the log shows every attempt', async () => {
    let calls = 0;
    const r = await receiver(() => (++calls <= 2 ? { status: 503 } : { status: 204 }));
    const { id, secret } = await createEndpoint(svc, admin, { url: r.url, eventTypes: ['article.published'] });
    await articles(svc.db).insertOne(article('retry-1', 'published'));
    await r.until((got) => got.some((q) => q.answered === 204));
    expect(r.received.map((q) => q.answered)).toEqual([503, 503, 204]);
    expect(new Set(r.received.map((q) => q.id)).size).toBe(1);
    expect(r.received.every((q) => verifies(secret, q))).toBe(true);
    const [delivery] = await eventually(async () => {
      const list = await deliveriesOf(svc, admin, id);
      return list[0]?.status === 'DELIVERED' ? list : undefined;
    });
    expect(delivery).toMatchObject({ type: 'article.published', attempts: 3, eventId: r.received[0]!.id });
    expect(delivery!.log.map((a) => a.responseStatus)).toEqual([503, 503, 204]);
    expect(delivery!.log.map((a) => a.error === null)).toEqual([false, false, true]);
    expect(delivery!.lastAttempt).toMatchObject({ responseStatus: 204, error: null });
  });

  test("an entity's events go out in order: a later one waits while an earlier one is retried", async () => {
    let first = true;
    const r = await receiver(() => {
      if (!first) return { status: 200 };
      first = false;
      return { status: 500 };
    });
    await createEndpoint(svc, admin, {
      url: r.url,
      eventTypes: ['article.published', 'article.updated', 'article.unpublished'],
    });
    await articles(svc.db).insertOne(article('order-1', 'published'));
    for (const title of ['one', 'two', 'three'])
      await articles(svc.db).updateOne({ _id: 'order-1' }, { $set: { title } });
    await articles(svc.db).updateOne({ _id: 'order-1' }, { $set: { status: 'draft' } });
    await r.until((got) => got.filter((q) => q.answered === 200).length >= 5);
    expect(r.received.map((q) => [q.payload.type, q.payload.data.title, q.answered])).toEqual([
      ['article.published', 'Article order-1', 500],
      ['article.published', 'Article order-1', 200],
      ['article.updated', 'one', 200],
      ['article.updated', 'two', 200],
      ['article.updated', 'three', 200],
      ['article.unpublished', 'three', 200],
    ]);
  });

  test('redelivering sends the same event, with the same webhook-id, again', async () => {
    const r = await receiver();
    const { id, secret } = await createEndpoint(svc, admin, { url: r.url, eventTypes: ['article.published'] });
    await articles(svc.db).insertOne(article('again-1', 'published'));
    await r.until((got) => got.length >= 1);
    const [delivery] = await eventually(async () => {
      const list = await deliveriesOf(svc, admin, id);
      return list[0]?.status === 'DELIVERED' ? list : undefined;
    });
    const res = await svc.gql<{ redeliverWebhook: { status: string } }>(
      'mutation($id: ID!) { redeliverWebhook(deliveryId: $id) { status } }',
      { id: delivery!.id },
      admin,
    );
    expect(res.body.data?.redeliverWebhook.status).toBe('PENDING');
    await r.until((got) => got.length >= 2);
    expect(r.received[1]!.id).toBe(r.received[0]!.id);
    expect(r.received[1]!.body).toBe(r.received[0]!.body);
    expect(verifies(secret, r.received[1]!)).toBe(true);
    const done = await eventually(async () => {
      const list = await deliveriesOf(svc, admin, id);
      return list[0]?.status === 'DELIVERED' && list[0].attempts === 2 ? list[0] : undefined;
    });
    expect(done.log).toHaveLength(2);
  });
});

describe('administration', () => {
  const LIST = '{ webhookEndpoints { id url } }';
  const CREATE = 'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }';

  test('anonymous callers get UNAUTHENTICATED, customers without the admin role FORBIDDEN', async () => {
    const customer = await tokenFor(svc);
    expect(code((await svc.gql(LIST)).body)).toBe('UNAUTHENTICATED');
    expect(code((await svc.gql(LIST, {}, bearer(customer.accessToken))).body)).toBe('FORBIDDEN');
    const input = { url: 'https://hooks.example/x', eventTypes: ['cache.purge'] };
    expect(code((await svc.gql(CREATE, { input }, bearer(customer.accessToken))).body)).toBe('FORBIDDEN');
    expect(code((await svc.gql(LIST, {}, admin)).body)).toBeUndefined();
  });

  test('bad arguments are BAD_USER_INPUT naming the field; an unknown id is NOT_FOUND', async () => {
    const bad = async (input: Record<string, unknown>) => {
      const res = await svc.gql(CREATE, { input }, admin);
      expect(res.status).toBe(200);
      expect(code(res.body)).toBe('BAD_USER_INPUT');
      return res.body.errors![0]!.extensions;
    };
    expect(JSON.stringify(await bad({ url: 'ftp://x.example/', eventTypes: ['cache.purge'] }))).toContain('url');
    expect(JSON.stringify(await bad({ url: 'https://x.example/', eventTypes: ['article.deleted'] }))).toContain(
      'eventTypes',
    );
    await bad({ url: 'https://x.example/', eventTypes: [] });
    await bad({ url: `https://x.example/${'a'.repeat(2100)}`, eventTypes: ['cache.purge'] });
    const missing = await svc.gql('mutation { deleteWebhookEndpoint(id: "ep_nothing") }', {}, admin);
    expect(missing.body.data).toEqual({ deleteWebhookEndpoint: false });
    const rotate = await svc.gql('mutation { rotateWebhookSecret(id: "ep_nothing") { secret } }', {}, admin);
    expect(code(rotate.body)).toBe('NOT_FOUND');
    const redeliver = await svc.gql('mutation { redeliverWebhook(deliveryId: "not-a-delivery") { id } }', {}, admin);
    expect(code(redeliver.body)).toBe('BAD_USER_INPUT');
  });

  test('an endpoint can be changed, disabled with a reason, enabled and deleted', async () => {
    const { id } = await createEndpoint(svc, admin, { url: 'https://hooks.example/a', eventTypes: ['cache.purge'] });
    const UPDATE =
      'mutation($id: ID!, $changes: WebhookEndpointChanges!) { updateWebhookEndpoint(id: $id, changes: $changes) { url eventTypes enabled disabledReason } }';
    const changed = await svc.gql(
      UPDATE,
      { id, changes: { url: 'https://hooks.example/b', eventTypes: ['product.changed'], enabled: false } },
      admin,
    );
    expect(changed.body.data).toEqual({
      updateWebhookEndpoint: {
        url: 'https://hooks.example/b',
        eventTypes: ['product.changed'],
        enabled: false,
        disabledReason: 'disabled by an administrator',
      },
    });
    const enabled = await svc.gql(UPDATE, { id, changes: { enabled: true } }, admin);
    expect(enabled.body.data).toMatchObject({ updateWebhookEndpoint: { enabled: true, disabledReason: null } });
    const deleted = await svc.gql('mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', { id }, admin);
    expect(deleted.body.data).toEqual({ deleteWebhookEndpoint: true });
    const list = await svc.gql<{ webhookEndpoints: Array<{ id: string }> }>(LIST, {}, admin);
    expect(list.body.data!.webhookEndpoints.map((e) => e.id)).not.toContain(id);
  });
});
