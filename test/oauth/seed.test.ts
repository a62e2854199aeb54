// The customers seeder: demo customers, the public PKCE demo client and the first-party demo client,
// with the documented development credentials working at the token endpoint (docs/oauth.md).
import { createLogger } from '../../src/logger.js';
import {
  DEMO_CUSTOMER,
  DEMO_FIRST_PARTY_CLIENT,
  DEMO_SPA_CLIENT,
  demoAccessNotice,
} from '../../src/seed/customers.seed.js';
import { runSeeders } from '../../src/seed/index.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { basic, jwtClaims, tokenRequest } from './support.js';

let svc: TestService;
let counts: Record<string, number>;

beforeAll(async () => {
  svc = await startTestService();
  counts = await runSeeders(svc.store, { scale: 'tiny', log: createLogger('silent'), only: ['customers'] });
}, 60_000);
afterAll(async () => {
  await svc?.close();
});

test('seeds the demo customer, more customers, and the two demo clients', async () => {
  expect(counts).toMatchObject({ customers: 21, clients: 2 });
  expect(await svc.store.collection('customers').countDocuments({})).toBe(21);
  const spa = await svc.store.collection('clients').findOne({ _id: DEMO_SPA_CLIENT.clientId });
  expect(spa).toMatchObject({
    kind: 'public',
    grantTypes: ['authorization_code', 'refresh_token'],
    redirectUris: DEMO_SPA_CLIENT.redirectUris,
  });
  expect(spa!.secretHash).toBeUndefined();
  const firstParty = await svc.store.collection('clients').findOne({ _id: DEMO_FIRST_PARTY_CLIENT.clientId });
  expect(firstParty).toMatchObject({
    kind: 'confidential',
    firstParty: true,
    grantTypes: ['password', 'otp', 'refresh_token'],
  });
});

test('the documented demo credentials get a token for the demo customer, who is entitled to premium articles', async () => {
  const res = await tokenRequest(
    svc,
    {
      grant_type: 'password',
      username: DEMO_CUSTOMER.email,
      password: DEMO_CUSTOMER.password,
      scope: 'openid offline_access cart',
    },
    { headers: basic(DEMO_FIRST_PARTY_CLIENT.clientId, DEMO_FIRST_PARTY_CLIENT.secret) },
  );
  expect(res.status).toBe(200);
  expect(jwtClaims(String(res.body.access_token)).sub).toBe(DEMO_CUSTOMER.id);
  const demo = await svc.store.collection('customers').findOne({ _id: DEMO_CUSTOMER.id });
  expect(demo!.entitlements).toEqual([{ group: 'subscription', validUntil: null }]);
  expect(demo!.passwordHash).toMatch(/^\$argon2id\$/);
});

test('the development start-up notice names the clients, the demo customer and a curl line', async () => {
  const notice = await demoAccessNotice(svc.store, 'http://localhost:4000');
  expect(notice).toContain(DEMO_SPA_CLIENT.clientId);
  expect(notice).toContain(`${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password}`);
  expect(notice).toContain('curl -s -u demo-first-party:demo-first-party-secret');
  expect(notice).toContain('http://localhost:4000/oauth2/access_token');
});

test('no notice when the demo client does not have the documented secret (a store seeded in production)', async () => {
  await svc.store
    .collection('clients')
    .updateOne({ _id: DEMO_FIRST_PARTY_CLIENT.clientId }, { $set: { secretHash: '00'.repeat(32) } });
  expect(await demoAccessNotice(svc.store, 'http://localhost:4000')).toBeNull();
});
