// `find {_id: <scalar>}` (what findOne by id sends) and `find {_id: {$in: [...]}}` of up to 101 ids have paths of
// their own in the find command (one get per id, the stored bytes copied into the reply, no planner and no
// cursor). Their answers must be the general path's: the same filter written as `{$and: [...]}` takes the
// planner, and both must return the same documents, byte for byte as stored and in the same order, for every
// kind of _id value, found or not; and the options the short paths do not serve (projection, sort, skip, limit,
// batch sizes, collation, views, longer lists) must still be honoured.
import { Double, Int32, Long, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;
let c: Collection<Document>;

const oid = new ObjectId();
const when = new Date('2024-05-01T10:00:00Z');
const docs: Document[] = [
  { _id: oid, kind: 'objectId', n: new Long(5), x: new Double(1) },
  { _id: 'slug-a', kind: 'string', nested: { a: [1, 2, { b: 'c' }] } },
  { _id: new Int32(7), kind: 'int32' },
  { _id: new Long(9), kind: 'int64' },
  { _id: new Double(2.5), kind: 'double' },
  { _id: when, kind: 'date' },
  { _id: true, kind: 'boolean' },
  { _id: { a: 1 }, kind: 'document' },
];

beforeAll(async () => {
  ctx = await openTestDb('find-by-id');
  db = ctx.db;
  c = db.collection('things');
  await c.insertMany(docs.map((d) => ({ ...d })));
  await c.createIndex({ kind: 1 });
  await db.createCollection('things_view', { viewOn: 'things', pipeline: [{ $match: { kind: { $ne: 'string' } } }] });
});
afterAll(async () => ctx.close());

const raw = { promoteValues: false, promoteLongs: false } as const;
// Lookups: every stored kind, numbers through other numeric types (MongoDB equality), and ids no document has.
const lookups: unknown[] = [
  oid,
  'slug-a',
  7,
  new Double(7),
  new Long(7),
  9,
  new Int32(9),
  2.5,
  when,
  true,
  new ObjectId(),
  'slug-b',
  8,
  false,
  new Date(0),
];

describe('find by _id', () => {
  it.each(lookups.map((v) => [String(v), v]))(
    'answers _id %s as the planner does, with the stored bytes',
    async (_, v) => {
      const short = await c.find({ _id: v } as Document, raw).toArray();
      const general = await c.find({ $and: [{ _id: v } as Document] }, raw).toArray();
      expect(short).toEqual(general);
      expect(await c.findOne({ _id: v } as Document, raw)).toEqual(general[0] ?? null);
    },
  );

  it('finds the stored documents, numeric types preserved', async () => {
    expect(await c.findOne({ _id: oid } as Document, raw)).toEqual({
      _id: oid,
      kind: 'objectId',
      n: new Long(5),
      x: new Double(1),
    });
    expect((await c.findOne({ _id: new Double(9) }))?.kind).toBe('int64');
    expect((await c.findOne({ _id: 'slug-a' } as Document))?.nested).toEqual({ a: [1, 2, { b: 'c' }] });
    expect(await c.findOne({ _id: new ObjectId() })).toBeNull();
  });

  it('still applies a projection, a skip, a sort, a limit and a batch size of 0', async () => {
    expect(await c.findOne({ _id: 'slug-a' } as Document, { projection: { kind: 1, _id: 0 } })).toEqual({
      kind: 'string',
    });
    expect(
      await c
        .find({ _id: 'slug-a' } as Document)
        .skip(1)
        .toArray(),
    ).toEqual([]);
    expect(
      await c
        .find({ _id: 'slug-a' } as Document)
        .sort({ kind: -1 })
        .limit(1)
        .toArray(),
    ).toHaveLength(1);
    const cursor = c.find({ _id: 'slug-a' } as Document).batchSize(0);
    expect((await cursor.toArray()).map((d) => d.kind)).toEqual(['string']);
  });

  it('still honours a collation (case-insensitive strings match another _id)', async () => {
    await c.insertOne({ _id: 'Mixed-Case' as unknown as ObjectId, kind: 'mixed' });
    expect(await c.findOne({ _id: 'mixed-case' } as Document)).toBeNull();
    expect(
      (await c.findOne({ _id: 'mixed-case' } as Document, { collation: { locale: 'en', strength: 2 } }))?.kind,
    ).toBe('mixed');
  });

  it('answers on a view through its pipeline, and on a missing collection with nothing', async () => {
    const view = db.collection('things_view');
    expect(await view.findOne({ _id: 'slug-a' } as Document)).toBeNull();
    expect((await view.findOne({ _id: true } as Document))?.kind).toBe('boolean');
    expect(await db.collection('nothing_here').findOne({ _id: oid })).toBeNull();
  });

  it('answers _id $in lists as the planner does: order, duplicates, numeric types, missing ids', async () => {
    const lists: unknown[][] = [
      lookups,
      [...lookups].reverse(),
      [7, new Long(7), 7.0, 'slug-a', 'slug-a'],
      [],
      [new ObjectId()],
      [when, oid, true],
    ];
    for (const list of lists) {
      const short = await c.find({ _id: { $in: list } } as Document, raw).toArray();
      const general = await c.find({ $and: [{ _id: { $in: list } } as Document] }, raw).toArray();
      expect(short).toEqual(general);
    }
    // The order is natural (_id) order whatever the list's: numbers, strings, ObjectIds, booleans, dates.
    const kinds = (await c.find({ _id: { $in: [when, true, oid, 'slug-a', 2.5, 7] } } as Document).toArray()).map(
      (d) => d.kind,
    );
    expect(kinds).toEqual(['double', 'int32', 'string', 'objectId', 'boolean', 'date']);
  });

  it('answers longer _id lists, small batch sizes, limits and skips through cursors as before', async () => {
    const many = db.collection('many');
    await many.insertMany(Array.from({ length: 300 }, (_, i) => ({ _id: i as unknown as ObjectId, n: i })));
    const ids = Array.from({ length: 150 }, (_, i) => 299 - 2 * i);
    const all = await many.find({ _id: { $in: ids } } as Document).toArray();
    expect(all.map((d) => d.n)).toEqual([...ids].sort((a, b) => a - b));
    const batched = many.find({ _id: { $in: ids.slice(0, 20) } } as Document).batchSize(3);
    expect((await batched.toArray()).map((d) => d.n)).toEqual(ids.slice(0, 20).sort((a, b) => a - b));
    expect(
      (
        await many
          .find({ _id: { $in: ids.slice(0, 20) } } as Document)
          .limit(2)
          .toArray()
      ).map((d) => d.n),
    ).toEqual([261, 263]);
    expect(
      (
        await many
          .find({ _id: { $in: ids.slice(0, 20) } } as Document)
          .skip(18)
          .toArray()
      ).map((d) => d.n),
    ).toEqual([297, 299]);
    expect(await many.find({ _id: { $in: [1, 2] } } as Document, { projection: { _id: 0 } }).toArray()).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
  });

  it('refuses a bad option as before (negative batch size, filter of the wrong type)', async () => {
    await expect(db.command({ find: 'things', filter: { _id: 'slug-a' }, batchSize: -1 })).rejects.toThrow(/BatchSize/);
    await expect(db.command({ find: 'things', filter: 'slug-a' })).rejects.toThrow(/filter/);
    await expect(db.command({ find: 'things', filter: { _id: { $in: ['slug-a'] } }, batchSize: -1 })).rejects.toThrow(
      /BatchSize/,
    );
  });
});
