// Where webhooks may go, and what happens when they cannot: no request to a loopback, private, link-local,
// metadata or otherwise non-public address (by literal in any spelling, by a name that resolves there, or by a
// redirect), unless the allowlist names it; timeouts; giving up after the retry window; disabling an
// endpoint that keeps failing.
import { startTestService, type TestService } from '../helpers/service.js';
import { startReceiver, type Receiver } from './receiver.js';
import { adminHeaders, article, articles, createEndpoint, deliveriesOf, eventually } from './fixtures.js';

let svc: TestService;
let admin: Record<string, string>;
/** On 127.0.0.1: not in the allowlist, so nothing may ever reach it. */
let forbidden: Receiver;
const receivers: Receiver[] = [];

beforeAll(async () => {
  svc = await startTestService({
    env: {
      // Only this one loopback address is allowed (development): the refusals below are about the rest.
      WEBHOOK_ALLOW_TARGETS: '127.0.0.2',
      WEBHOOK_POLL_MS: '100',
      WEBHOOK_RETRY_BASE_MS: '50',
      WEBHOOK_RETRY_MAX_MS: '200',
      WEBHOOK_TIMEOUT_MS: '800',
      WEBHOOK_CONNECT_TIMEOUT_MS: '500',
      WEBHOOK_RETRY_FOR_MS: '4000',
      WEBHOOK_DISABLE_AFTER_MS: '2000',
    },
  });
  admin = await adminHeaders(svc);
  forbidden = await startReceiver(() => ({ status: 204 }), '127.0.0.1');
  receivers.push(forbidden);
}, 60_000);
afterAll(async () => {
  for (const r of receivers) await r.close();
  await svc?.close();
});

const CREATE =
  'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id url } } }';

test.each([
  ['loopback', 'http://127.0.0.1:{port}/'],
  ['loopback with a trailing dot', 'http://127.0.0.1.:{port}/'],
  ['loopback, decimal', 'http://2130706433:{port}/'],
  ['loopback, octal', 'http://0177.0.0.1:{port}/'],
  ['loopback, hexadecimal', 'http://0x7f000001:{port}/'],
  ['loopback, short form', 'http://127.1:{port}/'],
  ['IPv6 loopback', 'http://[::1]:{port}/'],
  ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]:{port}/'],
  ['IPv4-mapped IPv6 private', 'http://[::ffff:10.0.0.1]/'],
  ['unspecified', 'http://0.0.0.0:{port}/'],
  ['private 10/8', 'http://10.1.2.3/'],
  ['private 172.16/12', 'https://172.20.0.1/'],
  ['private 192.168/16', 'http://192.168.1.1/'],
  ['carrier-grade NAT', 'http://100.64.0.1/'],
  ['link-local and cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['IPv6 metadata (unique local)', 'http://[fd00:ec2::254]/'],
  ['IPv6 unique local', 'http://[fc00::1]/'],
  ['IPv6 link-local', 'http://[fe80::1]/'],
])('a %s address is refused when the endpoint is created', async (_name, template) => {
  const url = template.replace('{port}', String(forbidden.port));
  const res = await svc.gql(CREATE, { input: { url, eventTypes: ['cache.purge'] } }, admin);
  expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  expect(JSON.stringify(res.body.errors?.[0]?.extensions)).toContain('not a public address');
  expect(res.body.data).toBeNull();
});

test('a name that resolves to a loopback address is refused when connecting', async () => {
  const { id } = await createEndpoint(svc, admin, {
    url: `http://localhost:${forbidden.port}/`,
    eventTypes: ['article.published'],
  });
  await articles(svc.db).insertOne(article('name-1', 'published'));
  const delivery = await eventually(async () =>
    (await deliveriesOf(svc, admin, id)).find((d) => d.lastAttempt !== null),
  );
  expect(delivery.lastAttempt).toMatchObject({ responseStatus: null });
  expect(delivery.lastAttempt!.error).toMatch(
    /^refused target: localhost resolves to .*127\.0\.0\.1.*not a public address$/,
  );
  expect(forbidden.received).toEqual([]);
});

test('a redirect is not followed, whether to a refused address or an allowed one', async () => {
  const redirecting = await startReceiver(
    (req) => ({ status: 302, headers: { location: req.path === '/to-self' ? '/landed' : `${forbidden.url}/` } }),
    '127.0.0.2',
  );
  receivers.push(redirecting);
  const toForbidden = await createEndpoint(svc, admin, {
    url: `${redirecting.url}/to-forbidden`,
    eventTypes: ['issue.published'],
  });
  const toSelf = await createEndpoint(svc, admin, {
    url: `${redirecting.url}/to-self`,
    eventTypes: ['issue.published'],
  });
  await svc.db.collection('issues').insertOne({ _id: 'redirect-issue' as never, title: 'I', status: 'published' });
  for (const endpoint of [toForbidden, toSelf]) {
    const delivery = await eventually(async () =>
      (await deliveriesOf(svc, admin, endpoint.id)).find((d) => d.lastAttempt !== null),
    );
    expect(delivery.lastAttempt).toMatchObject({ responseStatus: 302, error: 'HTTP 302: redirects are not followed' });
  }
  expect(redirecting.received.map((r) => r.path).sort()).toEqual(expect.arrayContaining(['/to-forbidden', '/to-self']));
  expect(redirecting.received.some((r) => r.path === '/landed')).toBe(false);
  expect(forbidden.received).toEqual([]);
});

test('an endpoint that never answers times out, is retried, disabled with its reason, and the event given up', async () => {
  const silent = await startReceiver(() => 'hold', '127.0.0.2');
  receivers.push(silent);
  const { id } = await createEndpoint(svc, admin, { url: silent.url, eventTypes: ['product.changed'] });
  await svc.db.collection('products').insertOne({ _id: 'silent-product' as never, name: 'Silent', available: true });
  const failed = await eventually(async () => {
    const list = await deliveriesOf(svc, admin, id);
    return list[0]?.status === 'FAILED' ? list[0] : undefined;
  });
  expect(failed.attempts).toBeGreaterThanOrEqual(2);
  expect(failed.log.filter((a) => a.error === 'timed out').length).toBe(failed.attempts);
  expect(silent.received.length).toBe(failed.attempts);
  const endpoint = await eventually(async () => {
    const res = await svc.gql<{
      webhookEndpoints: Array<{
        id: string;
        enabled: boolean;
        disabledReason: string | null;
        failingSince: string | null;
      }>;
    }>('{ webhookEndpoints { id enabled disabledReason failingSince } }', {}, admin);
    const found = res.body.data!.webhookEndpoints.find((e) => e.id === id);
    return found && !found.enabled ? found : undefined;
  });
  expect(endpoint.disabledReason).toMatch(
    /^no successful delivery since \d{4}-\d\d-\d\dT.*Z; last attempt: timed out$/,
  );
  expect(endpoint.failingSince).not.toBeNull();
});

test('an endpoint stored with a refused address literal is refused when sending too', async () => {
  const now = new Date();
  await svc.db.collection('webhookEndpoints').insertOne({
    _id: 'ep_stored_literal' as never,
    url: `http://[::ffff:7f00:1]:${forbidden.port}/`,
    description: '',
    eventTypes: ['article.unpublished'],
    secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
    previousSecrets: [],
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  });
  await articles(svc.db).insertOne(article('literal-1', 'published'));
  await articles(svc.db).deleteOne({ _id: 'literal-1' });
  const delivery = await eventually(async () =>
    (await deliveriesOf(svc, admin, 'ep_stored_literal')).find((d) => d.lastAttempt !== null),
  );
  expect(delivery.lastAttempt!.error).toBe('refused target: the address ::ffff:7f00:1 is not a public address');
  expect(forbidden.received).toEqual([]);
});
