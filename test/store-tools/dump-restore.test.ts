// `store dump` / `store restore`: mongodump's layout, a round trip that gives back every document byte for
// byte with its indexes, dumps written by MongoDB's own mongodump restored, and bad files refused with the
// file and offset named and the target left as it was.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { BSON, type Db, type Document } from 'mongodb';
import { dumpStore } from '../../src/store/tools/dump.js';
import { noProgress } from '../../src/store/tools/progress.js';
import { restoreStore } from '../../src/store/tools/restore.js';
import { ensureBuilt } from '../helpers/built.js';
import { openTestDb, testMongoUri } from '../helpers/db.js';
import { storeCli } from './support.js';

const { Int32, Double, Long, Decimal128, Binary, ObjectId, BSONRegExp, Timestamp, MinKey, MaxKey } = BSON;
const work = mkdtempSync(join(tmpdir(), 'store-dump-'));
const fixtures = join(import.meta.dirname, 'fixtures', 'mongodump');
let opened: Array<{ db: Db; close(): Promise<void> }> = [];

async function database(): Promise<Db> {
  const t = await openTestDb('dump');
  opened.push(t);
  return t.db;
}

const target = (db: Db) => ({ db, label: `database ${db.databaseName}` });

afterAll(async () => {
  for (const t of opened) await t.close();
  opened = [];
  rmSync(work, { recursive: true, force: true });
});

/** Documents of every kind of value whose type a careless copy would change (1.0 -> 1, int64 -> double, ...). */
function awkwardDocuments(): Document[] {
  return Array.from({ length: 250 }, (_, i) => ({
    _id: i % 3 === 0 ? new ObjectId() : `doc-${i}`,
    code: `c${i}`,
    n: i,
    small: new Int32(i),
    whole: new Double(i),
    big: Long.fromString(`${9_007_199_254_740_993n + BigInt(i)}`),
    money: Decimal128.fromString(`${i}.10`),
    at: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
    expiresAt: new Date(Date.UTC(2030, 0, 1)),
    bytes: new Binary(Buffer.from([i & 0xff, 0, 255])),
    pattern: new BSONRegExp('^a.c$', 'i'),
    ts: new Timestamp({ t: 1_700_000_000, i }),
    bounds: i % 2 ? new MinKey() : new MaxKey(),
    nested: { list: [1, 'two', { three: new Double(3) }, [null]], empty: {}, none: null },
    text: 'ünïcødé ✓',
  }));
}

async function seedAwkward(db: Db): Promise<void> {
  await db.collection('things').insertMany(awkwardDocuments());
  await db.collection('things').createIndexes([
    { key: { code: 1 }, name: 'code_unique', unique: true },
    { key: { n: -1, code: 1 }, name: 'n_partial', partialFilterExpression: { n: { $gt: 100 } } },
    { key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 3600 },
    { key: { 'nested.none': 1 }, name: 'nested_sparse', sparse: true },
  ]);
  await db.collection('empty').createIndex({ k: 1 }, { name: 'k_1' });
}

/** Every document's bytes, by _id, as the server returns them. */
async function rawById(db: Db, name: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const raw of db.collection(name).find({}, { raw: true }) as AsyncIterable<unknown>) {
    const bytes = raw as Buffer;
    out.set(BSON.EJSON.stringify(BSON.deserialize(bytes)._id), Buffer.from(bytes).toString('base64'));
  }
  return out;
}

const indexesOf = async (db: Db, name: string) =>
  (await db.collection(name).listIndexes().toArray())
    .map(({ ns: _ns, ...spec }) => spec)
    .sort((a, b) => String(a.name).localeCompare(String(b.name)));

test("dump writes mongodump's layout; restore gives back every document byte for byte, with its indexes", async () => {
  const source = await database();
  await seedAwkward(source);
  for (const gzip of [false, true]) {
    const out = join(work, gzip ? 'gz' : 'plain');
    const report = await dumpStore(source, out, { gzip, progress: noProgress });
    const ext = gzip ? '.gz' : '';
    expect(readdirSync(join(out, source.databaseName)).sort()).toEqual([
      `empty.bson${ext}`,
      `empty.metadata.json${ext}`,
      `things.bson${ext}`,
      `things.metadata.json${ext}`,
    ]);
    expect(report.collections).toEqual([
      { name: 'empty', documents: 0, bytes: 0 },
      { name: 'things', documents: 250, bytes: expect.any(Number) },
    ]);

    const restored = await database();
    const result = await restoreStore(out, target(restored), { progress: noProgress });
    expect(result.collections.map((c) => [c.name, c.restored.count, c.same])).toEqual([
      ['empty', 0, true],
      ['things', 250, true],
    ]);
    expect(await rawById(restored, 'things')).toEqual(await rawById(source, 'things'));
    // The bytes compared carry the types a careless copy changes: 1.0 is still a double, 2^53+1 an int64.
    const sample = await restored
      .collection<{ _id: string }>('things')
      .findOne({ _id: 'doc-1' }, { promoteValues: false });
    expect(sample).toMatchObject({
      whole: expect.any(Double),
      small: expect.any(Int32),
      big: expect.any(Long),
      money: expect.any(Decimal128),
    });
    expect(await indexesOf(restored, 'things')).toEqual(await indexesOf(source, 'things'));
    expect(await indexesOf(restored, 'empty')).toEqual(await indexesOf(source, 'empty'));
  }
  // The plain .bson file is the documents back to back; the metadata is canonical Extended JSON in mongodump's key order.
  const bson = readFileSync(join(work, 'plain', source.databaseName, 'things.bson'));
  expect(bson.readInt32LE(0)).toBeGreaterThan(5);
  const meta = JSON.parse(
    readFileSync(join(work, 'plain', source.databaseName, 'things.metadata.json'), 'utf8'),
  ) as Record<string, unknown>;
  expect(Object.keys(meta)).toEqual(['indexes', 'uuid', 'collectionName', 'type']);
  expect(meta).toMatchObject({
    collectionName: 'things',
    type: 'collection',
    uuid: expect.stringMatching(/^[0-9a-f]{32}$/),
  });
  expect((meta.indexes as Document[])[0]).toEqual({
    v: { $numberInt: '2' },
    key: { _id: { $numberInt: '1' } },
    name: '_id_',
  });
  expect((meta.indexes as Document[]).find((i) => i.name === 'expires_ttl')).toMatchObject({
    expireAfterSeconds: { $numberInt: '3600' },
  });
}, 60_000);

test('the built command: dump the store a URI names, restore it into another database', async () => {
  await ensureBuilt();
  const source = await database();
  await seedAwkward(source);
  const restored = await database();
  const out = join(work, 'cli');
  const dump = await storeCli(['dump', '--from', testMongoUri(), '--db', source.databaseName, '--out', out, '--gzip']);
  expect(dump.code).toBe(0);
  expect(dump.stdout).toContain('250 documents');
  const restore = await storeCli(['restore', '--in', out, '--db', restored.databaseName], {
    MONGODB_URI: testMongoUri(),
  });
  expect(restore.code).toBe(0);
  expect(restore.stdout).toContain('every collection holds exactly the documents of the dump');
  expect(await rawById(restored, 'things')).toEqual(await rawById(source, 'things'));
}, 120_000);

test("dumps written by MongoDB's mongodump restore: an --oplog dump (admin and oplog left aside) and a --gzip one", async () => {
  const db = await database();
  const withOplog = await restoreStore(join(fixtures, 'collMod_ttl_index'), target(db), { progress: noProgress });
  expect(withOplog.collections.map((c) => [c.name, c.restored.count, c.same])).toEqual([['coll1', 10, true]]);
  expect(await indexesOf(db, 'coll1')).toEqual([
    { v: 2, key: { _id: 1 }, name: '_id_' },
    { v: 2, key: { a: 1 }, name: 'a_1', expireAfterSeconds: 1000 },
  ]);
  const gz = await database();
  const gzipped = await restoreStore(join(fixtures, 'prelude_gzip'), target(gz), { progress: noProgress });
  expect(gzipped.collections.map((c) => [c.name, c.restored.count, c.same])).toEqual([['foo', 1, true]]);
  expect(await gz.collection('foo').findOne({}, { projection: { _id: 0 } })).toEqual({ foo: 1 });
});

describe('bad dump files: a clear error naming the file and offset, and the target untouched', () => {
  let good: string;
  let firstSize: number;

  beforeAll(async () => {
    const source = await database();
    await seedAwkward(source);
    good = join(work, 'good');
    await dumpStore(source, good, { progress: noProgress });
    good = join(good, source.databaseName);
    firstSize = readFileSync(join(good, 'things.bson')).readInt32LE(0);
  });

  /** A copy of the good dump with one file changed. */
  function broken(name: string, change: (dir: string) => void): string {
    const dir = join(work, `bad-${name}`);
    cpSync(good, dir, { recursive: true });
    change(dir);
    return dir;
  }

  const cases: Array<[string, (dir: string) => void, () => RegExp]> = [
    [
      'truncated',
      (d) => truncateSync(join(d, 'things.bson'), readFileSync(join(d, 'things.bson')).length - 3),
      () => /things\.bson at byte \d+: truncated: the file ends \d+ bytes into a document of \d+ bytes/,
    ],
    [
      'length-prefix',
      (d) => {
        const f = join(d, 'things.bson');
        const bytes = readFileSync(f);
        bytes.writeInt32LE(3, firstSize);
        writeFileSync(f, bytes);
      },
      () => new RegExp(`things\\.bson at byte ${firstSize}: bad document length prefix 3`),
    ],
    [
      'bad-bson',
      (d) => {
        const f = join(d, 'things.bson');
        const bytes = readFileSync(f);
        bytes[firstSize + 4] = 0x77; // the second document's first element type: no such BSON type
        writeFileSync(f, bytes);
      },
      () => new RegExp(`things\\.bson at byte ${firstSize}: not a valid BSON document`),
    ],
    [
      'metadata-shape',
      (d) => writeFileSync(join(d, 'things.metadata.json'), '{"indexes":{"name":"_id_"},"collectionName":"things"}'),
      () => /things\.metadata\.json: not a mongodump metadata document: "indexes" must be an array/,
    ],
    [
      'metadata-index',
      (d) => writeFileSync(join(d, 'things.metadata.json'), '{"indexes":[{"name":"x"}],"collectionName":"things"}'),
      () => /things\.metadata\.json: not a mongodump metadata document: indexes\[0\]\.key must be a non-empty object/,
    ],
    [
      'metadata-json',
      (d) => writeFileSync(join(d, 'things.metadata.json'), '{"indexes":[}'),
      () => /things\.metadata\.json( at byte \d+)?: not valid Extended JSON/,
    ],
    [
      'gzip',
      (d) => {
        rmSync(join(d, 'things.bson'));
        writeFileSync(join(d, 'things.bson.gz'), gzipSync(readFileSync(join(good, 'things.bson'))).subarray(0, 200));
      },
      () => /things\.bson\.gz at byte \d+: not a readable gzip stream/,
    ],
  ];

  test.each(cases)('%s: refused before anything is written', async (name, change, message) => {
    const dir = broken(name, change);
    const db = await database();
    await expect(restoreStore(dir, target(db), { progress: noProgress })).rejects.toThrow(message());
    expect(await db.listCollections().toArray()).toEqual([]);
  });

  test('with --drop over existing data: the existing documents stay when the dump is bad', async () => {
    const dir = broken('drop', (d) => truncateSync(join(d, 'things.bson'), 100));
    const db = await database();
    await db.collection<{ _id: string; value?: number }>('things').insertOne({ _id: 'kept', value: 1 });
    await expect(restoreStore(dir, target(db), { drop: true, progress: noProgress })).rejects.toThrow(
      /things\.bson at byte \d+: truncated/,
    );
    expect(await db.collection('things').find().toArray()).toEqual([{ _id: 'kept', value: 1 }]);
  });

  test('the built command prints the error, not a stack, and exits 1', async () => {
    await ensureBuilt();
    const dir = broken('cli', (d) => truncateSync(join(d, 'things.bson'), 10));
    const db = await database();
    const res = await storeCli(['restore', '--in', dir, '--to', testMongoUri(), '--db', db.databaseName]);
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^store restore failed: .*things\.bson at byte 0: truncated/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(await db.listCollections().toArray()).toEqual([]);
  }, 60_000);

  test('a non-empty target without --drop is refused, naming the collections', async () => {
    const db = await database();
    await db.collection<{ _id: string; value?: number }>('things').insertOne({ _id: 'kept' });
    await expect(restoreStore(good, target(db), { progress: noProgress })).rejects.toThrow(
      /already holds documents in things: pass --drop/,
    );
    expect(await db.collection('things').countDocuments()).toBe(1);
  });
});
