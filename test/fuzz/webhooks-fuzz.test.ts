// Seeded fuzzing of the webhook administration fields with an administrator's token: hostile URLs (every
// spelling of an address, huge, control characters, other schemes), event type lists, ids and numbers. Never a
// server fault: data, or BAD_USER_INPUT / NOT_FOUND, and the service answers normally afterwards.
import { Draws } from '../helpers/random.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { adminHeaders } from '../webhooks/fixtures.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1000) / 4;
const SEED = Number(process.env.FUZZ_SEED ?? 12);
const ALLOWED = new Set(['BAD_USER_INPUT', 'NOT_FOUND']);

class WebhookArgs extends Draws {
  readonly ids: string[] = ['ep_nothing', ''];
  readonly deliveryIds = ['msg_a.ep_b', 'msg_.ep', 'x'.repeat(300)];

  text(): string {
    return this.pick([
      '',
      ' ',
      'a'.repeat(this.pick([1, 500, 501, 2049, 70_000])),
      '\u0000\u0001\n\r\t',
      '💥'.repeat(this.int(50)),
      '{"$gt":""}',
      '../../etc/passwd',
      String(this.rnd()),
    ]);
  }

  url(): unknown {
    const host = this.pick([
      'hooks.example',
      '127.0.0.1',
      '2130706433',
      '0x7f.0.0.1',
      '0177.1',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::]',
      '[fd00:ec2::254]',
      '169.254.169.254',
      '100.100.100.200',
      'localhost',
      'xn--nxasmq6b',
      '256.256.256.256',
      '[zz::1]',
      '',
    ]);
    const scheme = this.pick(['http', 'https', 'ftp', 'file', 'javascript', 'gopher']);
    const port = this.pick(['', ':0', ':80', ':65535', ':99999', ':-1']);
    const path = this.pick(['/', '/x?y=z#f', '/%00', `/${'p'.repeat(this.int(3000))}`, '@evil.example/']);
    return this.chance(0.1)
      ? this.pick([null, 7, true, [], {}])
      : `${scheme}://${this.chance(0.2) ? 'u:p@' : ''}${host}${port}${path}`;
  }

  eventTypes(): unknown {
    if (this.chance(0.1)) return this.pick([null, 'cache.purge', [], [1], [null]]);
    const names = [
      'article.published',
      'cache.purge',
      'product.changed',
      'ARTICLE_PUBLISHED',
      'article.*',
      '',
      '__proto__',
    ];
    return Array.from({ length: this.int(14) }, () => this.pick(names));
  }

  number(): unknown {
    return this.pick([null, 0, -1, 1, 100, 101, 604_800, 604_801, 2 ** 31 - 1, 1.5, '3']);
  }

  request(): { query: string; variables: Record<string, unknown> } {
    const id = this.chance(0.7) ? this.pick(this.ids) : this.text();
    switch (this.int(7)) {
      case 0:
        return {
          query: 'mutation($i: WebhookEndpointInput!) { createWebhookEndpoint(input: $i) { secret endpoint { id } } }',
          variables: {
            i: {
              url: this.url(),
              eventTypes: this.eventTypes(),
              ...(this.chance(0.5) ? { description: this.text() } : {}),
            },
          },
        };
      case 1:
        return {
          query:
            'mutation($id: ID!, $c: WebhookEndpointChanges!) { updateWebhookEndpoint(id: $id, changes: $c) { id enabled } }',
          variables: {
            id,
            c: {
              ...(this.chance(0.5) ? { url: this.url() } : {}),
              ...(this.chance(0.5) ? { eventTypes: this.eventTypes() } : {}),
              ...(this.chance(0.5) ? { enabled: this.pick([true, false, null, 'yes']) } : {}),
              ...(this.chance(0.3) ? { description: this.text() } : {}),
            },
          },
        };
      case 2:
        return { query: 'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) }', variables: { id } };
      case 3:
        return {
          query: 'mutation($id: ID!, $k: Int) { rotateWebhookSecret(id: $id, keepPreviousSeconds: $k) { secret } }',
          variables: { id, k: this.number() },
        };
      case 4:
        return {
          query: 'mutation($id: ID!) { redeliverWebhook(deliveryId: $id) { id status } }',
          variables: { id: this.chance(0.5) ? this.pick(this.deliveryIds) : this.text() },
        };
      case 5:
        return {
          query:
            'query($id: ID!, $s: WebhookDeliveryStatus, $n: Int) { webhookDeliveries(endpointId: $id, status: $s, first: $n) { id } }',
          variables: { id, s: this.pick([null, 'FAILED', 'failed', 'NOPE']), n: this.number() },
        };
      default:
        return { query: '{ webhookEndpoints { id url eventTypes } }', variables: {} };
    }
  }
}

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ env: { WEBHOOKS: 'false' } });
}, 60_000);
afterAll(() => svc.close());

test(`${REQUESTS} seeded webhook administration requests (seed ${SEED}): no server fault`, async () => {
  const headers = await adminHeaders(svc);
  const args = new WebhookArgs(SEED);
  const failures: string[] = [];
  for (let sent = 0; sent < REQUESTS; sent++) {
    const { query, variables } = args.request();
    const res = await svc.gql<{ createWebhookEndpoint?: { endpoint: { id: string } } }>(query, variables, headers);
    const created = res.body.data?.createWebhookEndpoint?.endpoint.id;
    if (created) args.ids.push(created);
    const codes = (res.body.errors ?? []).map((e) => String(e.extensions?.code));
    // A variable of the wrong type is refused before execution: a 400 with BAD_USER_INPUT or no code at all.
    const fault = res.status >= 500 || codes.some((c) => !ALLOWED.has(c) && c !== 'undefined');
    if (fault) failures.push(`${res.status} ${codes.join(',')} ${JSON.stringify(variables).slice(0, 200)}`);
  }
  expect(failures).toEqual([]);
  const after = await svc.gql('{ webhookEndpoints { id } }', {}, headers);
  expect(after.status).toBe(200);
  expect(after.body.errors).toBeUndefined();
}, 300_000);
