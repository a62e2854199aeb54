// The provider's storage on its own (oidc-provider's adapter contract, example/my_adapter.js): what is
// stored is found, expiry hides it, consume marks it (atomically, with the refresh grace window),
// destroy and revokeByGrantId remove it, secondary lookups find by uid and user code.
import { OAuthModelStore } from '../../src/store/oauth/oauth-models.store.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from '../helpers/db.js';

let db: Awaited<ReturnType<typeof openTestDb>>;
let store: Store;

beforeAll(async () => {
  db = await openTestDb('adapter');
  store = await Store.onDb(db.client, db.db);
});
afterAll(async () => {
  await db?.close();
});

const models = (name: string, graceSeconds = 0) => new OAuthModelStore(store, name, { graceSeconds });

test('upsert then find returns the payload; an unknown id is undefined; upsert replaces', async () => {
  const codes = models('AuthorizationCode');
  const payload = { jti: 'c1', kind: 'AuthorizationCode', grantId: 'g1', 'x5t#S256': 'thumb', claims: { 'a.b': 1 } };
  await codes.upsert('c1', payload, 60);
  expect(await codes.find('c1')).toEqual(payload);
  expect(await codes.find('nope')).toBeUndefined();
  await codes.upsert('c1', { ...payload, scope: 'openid' }, 60);
  expect(await codes.find('c1')).toEqual({ ...payload, scope: 'openid' });
});

test('ids are per model: the same id in two models are two records', async () => {
  await models('Session').upsert('same', { jti: 'same', kind: 'Session' }, 60);
  await models('Interaction').upsert('same', { jti: 'same', kind: 'Interaction' }, 60);
  expect((await models('Session').find('same'))?.kind).toBe('Session');
  expect((await models('Interaction').find('same'))?.kind).toBe('Interaction');
});

test('an expired record is not found even before the TTL monitor removes it; the TTL index exists', async () => {
  const sessions = models('Session');
  await sessions.upsert('old', { jti: 'old' }, 0);
  expect(await sessions.find('old')).toBeUndefined();
  await sessions.upsert('forever', { jti: 'forever' });
  expect(await sessions.find('forever')).toEqual({ jti: 'forever' });
  const indexes = await store.collection('oauth_models').listIndexes().toArray();
  expect(indexes.find((i) => i.name === 'oauth_models_ttl')).toMatchObject({
    key: { expiresAt: 1 },
    expireAfterSeconds: 0,
  });
});

test('consume marks the record consumed; a second consume reports reuse with its grant', async () => {
  const codes = models('AuthorizationCode');
  await codes.upsert('c2', { jti: 'c2', grantId: 'g2' }, 60);
  expect(await codes.consume('c2')).toEqual({ outcome: 'consumed' });
  const found = await codes.find('c2');
  expect(typeof found?.consumed).toBe('number');
  expect(await codes.consume('c2')).toEqual({ outcome: 'reused', grantId: 'g2' });
  expect(await codes.consume('missing')).toEqual({ outcome: 'missing' });
});

test('parallel consumes of one record: exactly one wins', async () => {
  const codes = models('AuthorizationCode');
  await codes.upsert('c3', { jti: 'c3', grantId: 'g3' }, 60);
  const outcomes = await Promise.all(Array.from({ length: 5 }, () => codes.consume('c3')));
  expect(outcomes.filter((o) => o.outcome === 'consumed')).toHaveLength(1);
  expect(outcomes.filter((o) => o.outcome === 'reused')).toHaveLength(4);
});

test('refresh grace window: retries are let through while the successor is unused; once it is used, a retry is reuse', async () => {
  const tokens = models('RefreshToken', 30);
  await tokens.upsert('r1', { jti: 'r1', grantId: 'g4' }, 60);
  expect((await tokens.consume('r1')).outcome).toBe('consumed');
  expect((await tokens.find('r1'))?.consumed).toBeUndefined();
  // Before the successor exists, and while it is unused: the same retry, as often as it comes.
  expect((await tokens.consume('r1')).outcome).toBe('replay');
  expect(await tokens.claimSuccessor('r1', 'r2')).toBe('r2');
  expect(await tokens.claimSuccessor('r1', 'r2-fork')).toBe('r2');
  await tokens.upsert('r2', { jti: 'r2', grantId: 'g4' }, 60);
  expect((await tokens.consume('r1')).outcome).toBe('replay');
  // The successor is used: the old token again is a stolen copy.
  expect((await tokens.consume('r2')).outcome).toBe('consumed');
  expect(await tokens.consume('r1')).toEqual({ outcome: 'reused', grantId: 'g4' });
});

test('refresh grace window: a retry after the window is reuse even with the successor unused', async () => {
  const tokens = models('RefreshToken', 30);
  await tokens.upsert('r5', { jti: 'r5', grantId: 'g5' }, 60);
  expect((await tokens.consume('r5', new Date(Date.now() - 31_000))).outcome).toBe('consumed');
  expect(typeof (await tokens.find('r5'))?.consumed).toBe('number');
  expect(await tokens.consume('r5')).toEqual({ outcome: 'reused', grantId: 'g5' });
});

test('without a grace window a consumed refresh token shows as consumed at once', async () => {
  const tokens = models('RefreshToken', 0);
  await tokens.upsert('r2', { jti: 'r2', grantId: 'g5' }, 60);
  await tokens.consume('r2');
  expect(typeof (await tokens.find('r2'))?.consumed).toBe('number');
  expect((await tokens.consume('r2')).outcome).toBe('reused');
});

test('destroy removes one record', async () => {
  const tokens = models('RefreshToken');
  await tokens.upsert('r3', { jti: 'r3' }, 60);
  await tokens.destroy('r3');
  expect(await tokens.find('r3')).toBeUndefined();
});

test("revokeByGrantId removes that model's records of the grant only; revokeGrant removes every model's and the grant", async () => {
  const rts = models('RefreshToken');
  const codes = models('AuthorizationCode');
  const grants = models('Grant');
  await rts.upsert('a', { jti: 'a', grantId: 'G' }, 60);
  await rts.upsert('b', { jti: 'b', grantId: 'other' }, 60);
  await codes.upsert('c', { jti: 'c', grantId: 'G' }, 60);
  await grants.upsert('G', { jti: 'G', kind: 'Grant' }, 60);
  await rts.revokeByGrantId('G');
  expect(await rts.find('a')).toBeUndefined();
  expect(await rts.find('b')).toBeDefined();
  expect(await codes.find('c')).toBeDefined();
  await OAuthModelStore.revokeGrant(store, 'G');
  expect(await codes.find('c')).toBeUndefined();
  expect(await grants.find('G')).toBeUndefined();
  expect(await rts.find('b')).toBeDefined();
});

test("findByUid and findByUserCode use the payload's uid and userCode", async () => {
  const sessions = models('Session');
  await sessions.upsert('s1', { jti: 's1', uid: 'uid-1', accountId: 'x' }, 60);
  expect(await sessions.findByUid('uid-1')).toMatchObject({ jti: 's1' });
  expect(await sessions.findByUid('uid-2')).toBeUndefined();
  const devices = models('DeviceCode');
  await devices.upsert('d1', { jti: 'd1', userCode: 'ABCD-EFGH' }, 60);
  expect(await devices.findByUserCode('ABCD-EFGH')).toMatchObject({ jti: 'd1' });
  expect(await devices.findByUserCode('ZZZZ-ZZZZ')).toBeUndefined();
});
