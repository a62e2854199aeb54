// Which collections the tools touch: --only, --exclude, and --no-secrets, which leaves customers, their
// tokens and the signing keys behind (a production copy on a laptop), through copy and dump alike.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from 'mongodb';
import { copyStore } from '../../src/store/tools/copy.js';
import { dumpStore } from '../../src/store/tools/dump.js';
import { noProgress } from '../../src/store/tools/progress.js';
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
  for (const name of [...SECRET_COLLECTIONS, 'articles', 'pages']) await source.collection<{ _id: string }>(name).insertOne({ _id: `${name}-1` });
  await source.collection<{ _id: string; value: unknown }>('settings').insertMany([
    { _id: 'oauth.keys', value: { jwks: { keys: [] }, cookieKeys: ['secret'] } },
    { _id: 'oauth.issuer', value: { issuer: 'https://api.example.test/oauth2' } },
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
  await expect(copyStore(side(source), side(typo), { only: ['article'], progress: noProgress })).rejects.toThrow(/--only names collections the source does not have: article \(it has: articles, /);
  expect(await names(typo)).toEqual([]);
});

test('dump --no-secrets writes no file for the left-out collections', async () => {
  const report = await dumpStore(source, work, { noSecrets: true, progress: noProgress });
  expect(readdirSync(report.directory).sort()).toEqual(['articles.bson', 'articles.metadata.json', 'pages.bson', 'pages.metadata.json', 'settings.bson', 'settings.metadata.json']);
  expect(report.collections.find((c) => c.name === 'settings')?.documents).toBe(1);
});
