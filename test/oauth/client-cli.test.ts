// `npm run oauth:client -- add|list|remove`: the built command against the service's own database; the
// clients it makes work at the token endpoint at once, and a removed one stops working.
import { ensureBuilt, runBuiltScript } from '../helpers/built.js';
import { testMongoUri } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureCustomer } from '../helpers/tokens.js';
import { ClientInputError, createClient } from '../../src/oauth/clients.js';
import { basic, INVALID_CLIENT, tokenRequest } from './support.js';

/** Each run is a fresh Node process that opens the store: allow for a loaded machine. */
const SLOW = 120_000;

let svc: TestService;

beforeAll(async () => {
  await ensureBuilt();
  svc = await startTestService();
}, 120_000);
afterAll(async () => {
  await svc?.close();
});

const cli = (...args: string[]) =>
  runBuiltScript('tools/oauth-client.js', args, { MONGODB_URI: testMongoUri(), MONGODB_DB: svc.db.databaseName });

test(
  'add a first-party confidential client: the secret is printed once, stored hashed, and works at once',
  async () => {
    const res = await cli(
      'add',
      '--name',
      'Mobile app',
      '--id',
      'mobile-app',
      '--grant',
      'password',
      '--grant',
      'refresh_token',
      '--scope',
      'openid offline_access cart',
    );
    expect(res.code).toBe(0);
    const added = JSON.parse(res.stdout) as Record<string, unknown>;
    expect(added).toMatchObject({
      client_id: 'mobile-app',
      kind: 'confidential',
      first_party: true,
      grant_types: ['password', 'refresh_token'],
      scopes: ['openid', 'offline_access', 'cart'],
    });
    expect(typeof added.client_secret).toBe('string');
    expect(res.stderr).toContain('shown only now');
    const stored = await svc.store.collection('clients').findOne({ _id: 'mobile-app' });
    expect(JSON.stringify(stored)).not.toContain(String(added.client_secret));

    const customer = await ensureCustomer(svc, {});
    const token = await tokenRequest(
      svc,
      { grant_type: 'password', username: customer.email, password: customer.password },
      { headers: basic('mobile-app', String(added.client_secret)) },
    );
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('openid offline_access cart');
  },
  SLOW,
);

test(
  'add a public PKCE client for a single-page app: no secret',
  async () => {
    const res = await cli('add', '--name', 'Web app', '--public', '--redirect-uri', 'https://app.example/cb');
    expect(res.code).toBe(0);
    const added = JSON.parse(res.stdout) as Record<string, unknown>;
    expect(added).toMatchObject({
      kind: 'public',
      first_party: false,
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://app.example/cb'],
    });
    expect(added.client_secret).toBeUndefined();
    expect(String(added.client_id)).toMatch(/^cl_/);
  },
  SLOW,
);

test(
  'invalid input is refused with a message and exit code 1 (bad values) or 2 (usage)',
  async () => {
    for (const args of [
      ['add', '--name', 'X', '--grant', 'implicit'],
      ['add', '--name', 'X', '--id', 'mobile-app', '--grant', 'password'],
    ]) {
      const res = await cli(...args);
      expect(res.code).toBe(1);
      expect(res.stderr.length).toBeGreaterThan(0);
    }
    expect((await cli('add', '--grant', 'password')).code).toBe(2);
    expect((await cli()).code).toBe(2);
  },
  SLOW,
);

test('the same validation, without a process: code flow without a redirect URI, unknown scope, relative URI', async () => {
  await expect(
    createClient(svc.store, { name: 'X', kind: 'public', grantTypes: ['authorization_code'] }),
  ).rejects.toThrow(ClientInputError);
  await expect(
    createClient(svc.store, { name: 'X', kind: 'confidential', grantTypes: ['password'], scopes: ['admin'] }),
  ).rejects.toThrow(ClientInputError);
  await expect(
    createClient(svc.store, { name: 'X', kind: 'public', grantTypes: ['authorization_code'], redirectUris: ['/cb'] }),
  ).rejects.toThrow(ClientInputError);
  await expect(
    createClient(svc.store, { clientId: 'bad id!', name: 'X', kind: 'public', grantTypes: ['refresh_token'] }),
  ).rejects.toThrow(ClientInputError);
});

test(
  'list shows the clients without secrets; remove deletes one, and it stops working',
  async () => {
    const list = await cli('list');
    expect({ code: list.code, stderr: list.stderr }).toEqual({ code: 0, stderr: '' });
    const listed = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(listed.map((c) => c.client_id)).toContain('mobile-app');
    expect(JSON.stringify(listed)).not.toMatch(/secret/i);

    const removed = await cli('remove', 'mobile-app');
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: 'mobile-app' });
    const token = await tokenRequest(
      svc,
      { grant_type: 'password', username: 'a@example.test', password: 'x' },
      { headers: basic('mobile-app', 'whatever') },
    );
    expect(token.status).toBe(401);
    expect(token.body).toEqual({ error: 'invalid_client', error_description: INVALID_CLIENT });
    expect((await cli('remove', 'mobile-app')).code).toBe(1);
  },
  SLOW,
);
