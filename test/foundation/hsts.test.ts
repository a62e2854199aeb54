// Strict-Transport-Security only on answers to https requests (RFC 6797 §7.2): never over plain http.
import { startTestService, type TestService } from '../helpers/service.js';

/** One service per configuration, started when first asked for. */
const running = new Map<string, Promise<TestService>>();
afterAll(async () => {
  await Promise.all([...running.values()].map(async (s) => (await s).close()));
});

async function hstsOf(env: Record<string, string>, headers: Record<string, string> = {}): Promise<string | null> {
  const key = JSON.stringify(env);
  if (!running.has(key)) running.set(key, startTestService({ env }));
  const svc = await running.get(key)!;
  const res = await fetch(`${svc.url}/healthz`, { headers });
  await res.arrayBuffer();
  return res.headers.get('strict-transport-security');
}

test('plain http (the default PUBLIC_URL) gets no HSTS, whatever X-Forwarded-Proto says without TRUST_PROXY', async () => {
  expect(await hstsOf({})).toBeNull();
  expect(await hstsOf({}, { 'x-forwarded-proto': 'https' })).toBeNull();
});

test('an https PUBLIC_URL (TLS ends in front of the service) gets HSTS', async () => {
  expect(await hstsOf({ PUBLIC_URL: 'https://api.example.com' })).toMatch(/^max-age=\d+; includeSubDomains$/);
});

test('behind TRUST_PROXY, the trusted X-Forwarded-Proto decides', async () => {
  expect(await hstsOf({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'https' })).toMatch(/^max-age=/);
  expect(await hstsOf({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'http' })).toBeNull();
  expect(
    await hstsOf({ TRUST_PROXY: '1', PUBLIC_URL: 'https://api.example.com' }, { 'x-forwarded-proto': 'http' }),
  ).toBeNull();
}, 60_000);
