// Signing-key rotation with two gateway processes on one store (this test's service and a child process
// of the built service): `npm run oauth:keys -- rotate` publishes a new key on both without a restart,
// signing moves to it at its activation time, a token signed before the rotation keeps working until the
// old key retires, and `retire` drops retired keys from the store. Time is moved forward by editing the
// stored schedule, never by waiting.
import { decodeProtectedHeader } from 'jose';
import { runBuiltScript } from '../helpers/built.js';
import { testMongoUri } from '../helpers/db.js';
import { tokenFor } from '../helpers/tokens.js';
import { eventually, readAs, useTwoProcesses } from './second-process.js';

const two = useTwoProcesses();

const keysCli = (...args: string[]) =>
  runBuiltScript('tools/oauth-keys.js', args, { MONGODB_URI: testMongoUri(), MONGODB_DB: two.a.db.databaseName });

const kids = async (url: string): Promise<string[]> =>
  ((await (await fetch(`${url}/oauth2/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
const kidOf = (jwt: string) => decodeProtectedHeader(jwt).kid!;

/** Moves a key's schedule: `field` of `kid` set to a moment in the past. */
async function passed(kid: string, field: 'activateAt' | 'retireAt'): Promise<void> {
  await two.a.store
    .collection('settings')
    .updateOne(
      { _id: 'oauth.keys' },
      { $set: { [`value.schedule.${kid}.${field}`]: new Date(Date.now() - 1000), updatedAt: new Date() } },
    );
}

test('rotate, activate, retire: both processes follow without a restart; a token signed before the rotation lives until its key retires', async () => {
  const before = await tokenFor(two.a, { scopes: ['openid', 'cart'] });
  const oldKid = kidOf(before.accessToken);
  expect(await readAs(two.bUrl, before.accessToken)).toBe(200);

  // Rotate: the new keys are published everywhere, but nothing is signed with them yet.
  const rotated = await keysCli('rotate', '--activate-in', '3600');
  expect(rotated.code).toBe(0);
  const added = (JSON.parse(rotated.stdout) as { added: Array<{ kid: string; alg: string }> }).added;
  expect(added.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
  const newKid = added.find((k) => k.alg === 'ES256')!.kid;
  expect(rotated.stdout).not.toContain('"d"');
  await eventually(async () => (await kids(two.a.url)).includes(newKid) && (await kids(two.bUrl)).includes(newKid));
  expect(kidOf((await tokenFor(two.a)).accessToken)).toBe(oldKid);

  // Its activation time passes: both processes sign with it; the old key stays published.
  await passed(newKid, 'activateAt');
  await passed(added.find((k) => k.alg === 'RS256')!.kid, 'activateAt');
  await eventually(async () => kidOf((await tokenFor(two.a)).accessToken) === newKid);
  const after = await tokenFor(two.a, { scopes: ['openid', 'cart'] });
  expect(kidOf(after.accessToken)).toBe(newKid);
  expect(decodeProtectedHeader(after.idToken!).kid).toBe(added.find((k) => k.alg === 'RS256')!.kid);
  await eventually(async () => (await readAs(two.bUrl, after.accessToken)) === 200);
  expect(await readAs(two.bUrl, before.accessToken)).toBe(200);
  expect(await readAs(two.a.url, before.accessToken)).toBe(200);
  const listed = JSON.parse((await keysCli('list')).stdout) as Array<{ kid: string; state: string }>;
  expect(listed.find((k) => k.kid === oldKid)?.state).toBe('previous');
  expect(listed.find((k) => k.kid === newKid)?.state).toBe('active');

  // The old key's retirement time passes: it is unpublished everywhere and its tokens are refused.
  await passed(oldKid, 'retireAt');
  await eventually(async () => !(await kids(two.a.url)).includes(oldKid) && !(await kids(two.bUrl)).includes(oldKid));
  expect(await readAs(two.a.url, before.accessToken)).toBe(401);
  expect(await readAs(two.bUrl, before.accessToken)).toBe(401);
  expect(await readAs(two.bUrl, after.accessToken)).toBe(200);

  // retire drops the retired keys (their private parts) from the store.
  const retired = JSON.parse((await keysCli('retire')).stdout) as { removed: string[] };
  expect(retired.removed).toContain(oldKid);
  const stored = await two.a.store.collection('settings').findOne({ _id: 'oauth.keys' });
  expect(JSON.stringify(stored)).not.toContain(oldKid);
}, 120_000);

test('bad arguments are refused with the usage', async () => {
  const res = await keysCli('rotate', '--activate-in', 'soon');
  expect(res.code).toBe(2);
  expect(res.stderr).toContain('usage:');
  expect((await keysCli('explode')).code).toBe(2);
});
