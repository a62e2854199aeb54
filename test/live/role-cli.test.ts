// `npm run role -- grant|revoke <role> <email>`: the built command against the service's own database (and an
// embedded data directory); a granted editor posts at once with the token they already hold, a revoked one
// is refused at once; unknown roles and customers are refused with a message.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { openEndpoint } from '../../src/store/tools/endpoint.js';
import { ensureBuilt, runBuiltScript } from '../helpers/built.js';
import { testMongoUri } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { insertLiveFixtures } from './fixtures.js';

/** Each run is a fresh Node process that opens the store: allow for a loaded machine. */
const SLOW = 120_000;

let svc: TestService;
let writer: IssuedTokens;

beforeAll(async () => {
  await ensureBuilt();
  svc = await startTestService({ beforeStart: (store) => insertLiveFixtures(store.db) });
  writer = await tokenFor(svc, { email: 'Writer@Example.test', scopes: ['openid'] });
}, 120_000);
afterAll(async () => {
  await svc?.close();
});

const role = (...args: string[]) =>
  runBuiltScript('tools/role.js', args, { MONGODB_URI: testMongoUri(), MONGODB_DB: svc.db.databaseName });
const POST = `mutation { postLiveBlogMessage(liveBlogId: "blog-1", input: { text: "Kick-off" }) { id } }`;
const post = async () => {
  const res = await svc.gql(POST, {}, bearer(writer.accessToken));
  return res.body.errors?.[0]?.extensions?.code ?? 'ok';
};

test(
  'grant editor: the customer posts at once with the token they hold; revoke: refused at once',
  async () => {
    expect(await post()).toBe('FORBIDDEN');
    const granted = await role('grant', 'editor', 'writer@example.test');
    expect(granted).toMatchObject({ code: 0 });
    expect(JSON.parse(granted.stdout)).toEqual({ customer: 'writer@example.test', roles: ['editor'], changed: true });
    expect(await post()).toBe('ok');
    // Granting twice changes nothing and says so.
    expect(JSON.parse((await role('grant', 'editor', 'writer@example.test')).stdout)).toMatchObject({
      roles: ['editor'],
      changed: false,
    });
    const revoked = await role('revoke', 'editor', 'writer@example.test');
    expect(JSON.parse(revoked.stdout)).toEqual({ customer: 'writer@example.test', roles: [], changed: true });
    expect(await post()).toBe('FORBIDDEN');
  },
  SLOW,
);

test(
  'an unknown role or customer is refused with exit code 1 and a message; a malformed command with 2',
  async () => {
    const unknownRole = await role('grant', 'publisher', 'writer@example.test');
    expect(unknownRole.code).toBe(1);
    expect(unknownRole.stderr).toContain('unknown role "publisher" (known: editor, admin)');
    const unknownCustomer = await role('grant', 'editor', 'nobody@example.test');
    expect(unknownCustomer.code).toBe(1);
    expect(unknownCustomer.stderr).toContain('no customer with the e-mail address nobody@example.test');
    expect((await role('promote', 'editor', 'writer@example.test')).code).toBe(2);
    expect((await role('grant', 'editor')).code).toBe(2);
    expect((await svc.store.collection('customers').findOne({ _id: writer.customerId }))!.roles ?? []).toEqual([]);
  },
  SLOW,
);

/** Runs `fn` against the embedded store in `dir`, closed afterwards so the command can open it. */
async function inDataDir<T>(dir: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const store = await openEndpoint(dir, { dbName: 'gateway', mustHoldData: false });
  try {
    return await fn(store.db);
  } finally {
    await store.close();
  }
}

test(
  "works on an embedded store's data directory (DATA_DIR) as well",
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'role-'));
    try {
      await inDataDir(dir, (db) =>
        db
          .collection('customers')
          .insertOne({ _id: 'cus_someone', email: 'someone@example.test', name: 'Someone' } as never),
      );
      const res = await runBuiltScript('tools/role.js', ['grant', 'editor', 'someone@example.test'], {
        STORE: 'disk',
        DATA_DIR: dir,
      });
      expect(res).toMatchObject({ code: 0 });
      expect(
        await inDataDir(dir, (db) => db.collection('customers').findOne({ _id: 'cus_someone' as never })),
      ).toMatchObject({ roles: ['editor'] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
  SLOW,
);
