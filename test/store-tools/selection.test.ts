// Which collections the tools touch: --only, --exclude, and --no-secrets, which leaves customers, their
// tokens and the signing keys behind (a production copy on a laptop), through copy and dump alike.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { copyStore } from '../../src/store/tools/copy.js';
import { dumpStore } from '../../src/store/tools/dump.js';
import { noProgress } from '../../src/store/tools/progress.js';
import { restoreStore } from '../../src/store/tools/restore.js';
import { SECRET_COLLECTIONS } from '../../src/store/tools/selection.js';
import { openTestDb } from '../helpers/db.js';

const work = mkdtempSync(join(tmpdir(), 'store-select-'));
const opened: Array<{ db: Db; close(): Promise<void> }> = [];
let source: Db;

async function database(): Promise<Db> {
  const t = await openTestDb('sel');
  opened.push(t);
  return t.db;
}
const side = (db: Db) => ({ db, label: db.databaseName });
const names = async (db: Db) => (await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).sort();

beforeAll(async () => {
  source = await database();
  for (const name of [...SECRET_COLLECTIONS, 'articles', 'pages'])
    await source.collection<{ _id: string }>(name).insertOne({ _id: `${name}-1` });
  await source.collection<{ _id: string; value: unknown }>('settings').insertMany([
    { _id: 'oauth.keys', value: { jwks: { keys: [] }, cookieKeys: ['secret'] } },
    { _id: 'oauth.issuer', value: { issuer: 'https://api.example.test/oauth2' } },
    { _id: 'cursor.keys', value: { keys: ['hmac-secret'] } },
    { _id: 'seed', value: { scale: 'demo' } },
  ]);
});

afterAll(async () => {
  for (const t of opened) await t.close();
  rmSync(work, { recursive: true, force: true });
});

test('--no-secrets: no customers, carts, tokens, codes, subscribers, mail or keys; everything else, and it checks out', async () => {
  const target = await database();
  const report = await copyStore(side(source), side(target), { noSecrets: true, progress: noProgress });
  expect(report.collections.every((c) => c.same)).toBe(true);
  expect(await names(target)).toEqual(['articles', 'pages', 'settings']);
  expect(await target.collection('settings').find().toArray()).toEqual([{ _id: 'seed', value: { scale: 'demo' } }]);
});

test('--only and --exclude narrow the copy; an --only name the source lacks is an error, not an empty copy', async () => {
  const only = await database();
  await copyStore(side(source), side(only), { only: ['articles', 'customers'], progress: noProgress });
  expect(await names(only)).toEqual(['articles', 'customers']);

  const excluded = await database();
  await copyStore(side(source), side(excluded), { exclude: ['articles', 'settings'], progress: noProgress });
  expect(await names(excluded)).toEqual([...SECRET_COLLECTIONS, 'pages'].sort());

  const typo = await database();
  await expect(copyStore(side(source), side(typo), { only: ['article'], progress: noProgress })).rejects.toThrow(
    /--only names collections the source does not have: article \(it has: articles, /,
  );
  expect(await names(typo)).toEqual([]);
});

test('dump --no-secrets writes no file for the left-out collections', async () => {
  const report = await dumpStore(source, work, { noSecrets: true, progress: noProgress });
  expect(readdirSync(report.directory).sort()).toEqual([
    'articles.bson',
    'articles.metadata.json',
    'pages.bson',
    'pages.metadata.json',
    'settings.bson',
    'settings.metadata.json',
  ]);
  expect(report.collections.find((c) => c.name === 'settings')?.documents).toBe(1);
});

test('restore --no-secrets from a full dump leaves the secret collections and the keys behind', async () => {
  const full = await dumpStore(source, join(work, 'full'), { progress: noProgress });
  expect(full.collections.find((c) => c.name === 'settings')?.documents).toBe(4);
  const target = await database();
  const report = await restoreStore(join(work, 'full'), side(target), {
    noSecrets: true,
    sourceDb: source.databaseName,
    progress: noProgress,
  });
  expect(report.collections.every((c) => c.same)).toBe(true);
  expect(await names(target)).toEqual(['articles', 'pages', 'settings']);
  expect(await target.collection('settings').find().toArray()).toEqual([{ _id: 'seed', value: { scale: 'demo' } }]);
});

test('a dump is readable by its owner only (it can hold password hashes and signing keys)', async () => {
  const report = await dumpStore(source, join(work, 'private'), { progress: noProgress });
  expect(statSync(report.directory).mode & 0o777).toBe(0o700);
  for (const file of readdirSync(report.directory))
    expect(statSync(join(report.directory, file)).mode & 0o777).toBe(0o600);
});

test('a restore that fails empties the collections that were there before instead of dropping them (their indexes stay)', async () => {
  const dumped = await database();
  await dumped.collection<{ _id: string; email: string }>('people').insertMany([
    { _id: 'p1', email: 'same@example.test' },
    { _id: 'p2', email: 'same@example.test' },
  ]);
  await dumpStore(dumped, join(work, 'dupes'), { progress: noProgress });
  const target = await database();
  await target.collection('people').createIndex({ email: 1 }, { unique: true, name: 'email_unique' });
  await expect(
    restoreStore(join(work, 'dupes'), side(target), { sourceDb: dumped.databaseName, progress: noProgress }),
  ).rejects.toThrow(/removed again/);
  expect(await target.collection('people').countDocuments()).toBe(0);
  expect((await target.collection('people').indexes()).map((i) => i.name)).toContain('email_unique');
});
