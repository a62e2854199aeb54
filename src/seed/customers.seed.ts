// Demo customers and the two demo OAuth clients. Runs right after the content seeder, before any
// catalogue or cart seeder (they read `shared.get('customers')`).
// Outside production the demo customer and the first-party client have the fixed credentials below
// (the start-up log and docs/oauth.md state them); in production they get random ones nobody knows.
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config.js';
import { createClient, DEFAULT_SCOPES, secretMatches } from '../oauth/clients.js';
import { EDITOR_ROLE } from '../operations/live/editor.js';
import { PasswordHasher } from '../oauth/passwords.js';
import type { CustomerDoc } from '../store/customers/customer.doc.js';
import type { Store } from '../store/store.js';
import { insertInBatches, type ScaleName, type Seeder } from './seeder.js';

export const DEMO_CUSTOMER = {
  id: 'cus_demo',
  email: 'demo@example.com',
  password: 'demo-password',
  name: 'Demo Customer',
};
/** Development only: a customer with the editor role, to post to live blogs. */
const DEMO_EDITOR = {
  id: 'cus_demo_editor',
  email: 'editor@example.com',
  password: 'editor-password',
  name: 'Demo Editor',
};
export const DEMO_SPA_CLIENT = {
  clientId: 'demo-spa',
  name: 'Demo single-page app',
  redirectUris: ['http://localhost:5173/callback', 'http://localhost:3000/callback'],
};
export const DEMO_FIRST_PARTY_CLIENT = {
  clientId: 'demo-first-party',
  name: 'Demo first-party app',
  secret: 'demo-first-party-secret',
};

/** What later seeders get under `shared.get('customers')`. */
interface SharedCustomers {
  ids: string[];
  demoCustomerId: string;
}

const COUNTS: Record<ScaleName, number> = { tiny: 20, demo: 200, medium: 10_000, large: 100_000 };
const DAY = 86_400_000;

export const customersSeeder: Seeder = {
  name: 'customers',
  async run(run) {
    const config = loadConfig();
    const production = config.isProduction;
    const hasher = new PasswordHasher(config.oauth.argon2);
    const { faker } = run;

    const demoPassword = production ? randomBytes(24).toString('base64url') : DEMO_CUSTOMER.password;
    const demo: CustomerDoc = {
      _id: DEMO_CUSTOMER.id,
      email: DEMO_CUSTOMER.email,
      emailVerified: true,
      name: DEMO_CUSTOMER.name,
      passwordHash: await hasher.hash(demoPassword),
      entitlements: [{ group: 'subscription', validUntil: null }],
      createdAt: new Date(run.now),
      updatedAt: new Date(run.now),
    };
    await run.store.collection('customers').insertOne(demo);
    // A staff account with a known password has no place in production, not even with a random one.
    const editors = config.env === 'development' ? 1 : 0;
    if (editors) {
      await run.store.collection('customers').insertOne({
        _id: DEMO_EDITOR.id,
        email: DEMO_EDITOR.email,
        emailVerified: true,
        name: DEMO_EDITOR.name,
        passwordHash: await hasher.hash(DEMO_EDITOR.password),
        entitlements: [],
        roles: [EDITOR_ROLE],
        createdAt: new Date(run.now),
        updatedAt: new Date(run.now),
      });
    }

    // The rest sign in with a one-time code (no password: hashing thousands would only slow seeding).
    const ids: string[] = [demo._id];
    const total = COUNTS[run.scale];
    await insertInBatches<CustomerDoc>(run, 'customers', total, (i) => {
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      const entitled = faker.number.int({ min: 0, max: 4 }) === 0;
      const doc: CustomerDoc = {
        _id: `cus_${faker.string.alphanumeric({ length: 16, casing: 'mixed' })}`,
        email: `${first}.${last}.${i}@example.com`.toLowerCase().replace(/[^a-z0-9.@_-]/g, ''),
        emailVerified: true,
        name: `${first} ${last}`,
        entitlements: entitled
          ? [{ group: 'subscription', validUntil: new Date(run.now + faker.number.int({ min: -60, max: 365 }) * DAY) }]
          : [],
        createdAt: new Date(run.now - faker.number.int({ min: 0, max: 700 }) * DAY),
        updatedAt: new Date(run.now),
      };
      ids.push(doc._id);
      return doc;
    });
    run.shared.set('customers', { ids, demoCustomerId: demo._id } satisfies SharedCustomers);

    await createClient(run.store, {
      clientId: DEMO_SPA_CLIENT.clientId,
      name: DEMO_SPA_CLIENT.name,
      kind: 'public',
      redirectUris: DEMO_SPA_CLIENT.redirectUris,
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: [...DEFAULT_SCOPES],
    });
    await createClient(run.store, {
      clientId: DEMO_FIRST_PARTY_CLIENT.clientId,
      name: DEMO_FIRST_PARTY_CLIENT.name,
      kind: 'confidential',
      grantTypes: ['password', 'otp', 'refresh_token'],
      scopes: [...DEFAULT_SCOPES],
      secret: production ? randomBytes(32).toString('base64url') : DEMO_FIRST_PARTY_CLIENT.secret,
    });
    run.log.info({ customers: total + 1 + editors, clients: 2 }, 'seeded customers and the demo OAuth clients');
    return { customers: total + 1 + editors, clients: 2 };
  },
};

/**
 * Development only: how to reach the demo data through OAuth, or null when the demo clients are absent
 * (a store seeded without them). A message string, not log fields: these are the documented demo
 * credentials, which the logger would otherwise redact.
 */
export async function demoAccessNotice(store: Store, url: string): Promise<string | null> {
  const spa = await store.collection('clients').findOne({ _id: DEMO_SPA_CLIENT.clientId });
  const firstParty = await store.collection('clients').findOne({ _id: DEMO_FIRST_PARTY_CLIENT.clientId });
  const customer = await store.collection('customers').findOne({ _id: DEMO_CUSTOMER.id }, { projection: { _id: 1 } });
  const editor = await store.collection('customers').findOne({ _id: DEMO_EDITOR.id }, { projection: { _id: 1 } });
  // A store seeded in production has random demo credentials: then there is nothing true to print.
  if (!spa || !customer || !secretMatches(firstParty?.secretHash, DEMO_FIRST_PARTY_CLIENT.secret)) return null;
  return [
    'demo OAuth access (development only):',
    `  public PKCE client "${DEMO_SPA_CLIENT.clientId}" (authorization_code + refresh_token), redirect URIs ${DEMO_SPA_CLIENT.redirectUris.join(', ')}`,
    `  first-party client "${DEMO_FIRST_PARTY_CLIENT.clientId}" / secret "${DEMO_FIRST_PARTY_CLIENT.secret}" (password, otp, refresh_token)`,
    `  demo customer ${DEMO_CUSTOMER.email} / ${DEMO_CUSTOMER.password} (subscription entitlement: reads premium articles)`,
    ...(editor
      ? [
          `  demo editor ${DEMO_EDITOR.email} / ${DEMO_EDITOR.password} (editor role: posts to live blogs, e.g. live-blog-1)`,
        ]
      : []),
    `  token: curl -s -u ${DEMO_FIRST_PARTY_CLIENT.clientId}:${DEMO_FIRST_PARTY_CLIENT.secret} -d grant_type=password -d username=${DEMO_CUSTOMER.email} -d password=${DEMO_CUSTOMER.password} -d 'scope=openid offline_access cart' ${url}/oauth2/access_token`,
  ].join('\n');
}
