// GET /dev/outbox: outside production, the mail the outbox kept (a newsletter activation key here) is
// readable over HTTP, newest first, filtered by recipient; in production the path does not exist.
import { startTestService, type TestService } from '../helpers/service.js';

let dev: TestService;
let production: TestService;

beforeAll(async () => {
  [dev, production] = await Promise.all([startTestService(), startTestService({ env: { NODE_ENV: 'production' } })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([dev?.close(), production?.close()]);
});

const SUBSCRIBE = `mutation($email: String!) { subscribeToNewsletter(channelId: "1", email: $email) { accepted } }`;

test('outside production: the newest messages, filtered by recipient, carry the activation key', async () => {
  await dev.db.collection('channels').insertOne({ _id: '1', name: 'Web' } as never);
  for (const email of ['first@example.test', 'second@example.test']) {
    expect((await dev.gql(SUBSCRIBE, { email })).body.errors).toBeUndefined();
  }
  const res = await fetch(`${dev.url}/dev/outbox?to=second@example.test`);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const messages = (await res.json()) as Array<{ to: string; subject: string; text: string }>;
  expect(messages).toHaveLength(1);
  expect(messages[0]!.to).toBe('second@example.test');
  expect(messages[0]!.text).toMatch(/key=/);
  const all = (await (await fetch(`${dev.url}/dev/outbox?limit=1`)).json()) as Array<{ to: string }>;
  expect(all.map((m) => m.to)).toEqual(['second@example.test']);
});

test('in production the path does not exist (404 problem)', async () => {
  const res = await fetch(`${production.url}/dev/outbox`);
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
});
