// Numbers compare by value across Int32, Long, Double and Decimal128 in filters and sorts, as MongoDB documents
// ("Comparison/Sort Order": numeric types are compared by value; a Decimal128 against a double exactly, so
// NumberDecimal("0.1") is not the double 0.1). Asserted through the official driver.
import { Decimal128, Int32, Long, type Collection, type Document, type Filter } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
type Doc = { _id: string; n?: unknown };
let c: Collection<Doc>;
let indexed: Collection<Doc>;
const dec = (s: string): Decimal128 => Decimal128.fromString(s);

beforeAll(async () => {
  ctx = await openTestDb('numbers');
  c = ctx.db.collection('values');
  await c.insertMany([
    { _id: 'a', n: new Int32(5) },
    { _id: 'b', n: 6.5 },
    { _id: 'c', n: Long.fromNumber(7) },
    { _id: 'd', n: dec('8.0') },
    { _id: 'e', n: dec('0.1') },
    { _id: 'f', n: 0.1 },
    { _id: 'g', n: Long.fromString('9007199254740993') }, // 2^53 + 1: no double equals it
    { _id: 'h', n: NaN },
    { _id: 'i', n: [1, dec('2')] },
    { _id: 'j', n: 'five' },
    { _id: 'k', n: dec('5.00') },
  ]);
  indexed = ctx.db.collection('indexed');
  await indexed.createIndex({ n: 1 });
  await indexed.insertMany(await c.find().toArray());
});
afterAll(async () => ctx.close());

const ids = async (filter: Document, from = c): Promise<string[]> =>
  (
    await from
      .find(filter as Filter<Doc>, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray()
  ).map((d) => d._id);

describe('equality', () => {
  it.each([
    [{ n: dec('5') }, ['a', 'k']],
    [{ n: 5 }, ['a', 'k']],
    [{ n: new Int32(8) }, ['d']],
    [{ n: dec('7.000') }, ['c']],
    [{ n: { $eq: dec('2') } }, ['i']],
    [{ n: dec('0.1') }, ['e']],
    [{ n: 0.1 }, ['f']],
    [{ n: Long.fromString('9007199254740993') }, ['g']],
    [{ n: dec('9007199254740993') }, ['g']],
    [{ n: 9007199254740992 }, []],
    [{ n: NaN }, ['h']],
    [{ n: dec('NaN') }, ['h']],
  ])('%o matches %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('$ne, $in and $nin compare numbers by value too', async () => {
    expect(await ids({ n: { $ne: dec('5.0') } })).toEqual(['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
    expect(await ids({ n: { $in: [dec('5'), 8, dec('1'), 'five'] } })).toEqual(['a', 'd', 'i', 'j', 'k']);
    expect(await ids({ n: { $in: [Long.fromNumber(7), /^fi/] } })).toEqual(['c', 'j']);
    expect(await ids({ n: { $nin: [5, dec('8'), 'five', NaN] } })).toEqual(['b', 'c', 'e', 'f', 'g', 'i']);
  });

  it('an _id stored as a number is found, counted, updated and deleted by a Decimal128 of the same value', async () => {
    const other = ctx.db.collection('ids');
    await other.insertMany([
      { _id: 5 as never, v: 1 },
      { _id: 6 as never, v: 2 },
    ]);
    expect(await other.findOne({ _id: dec('5') as never })).toEqual({ _id: 5, v: 1 });
    expect(await other.find({ _id: { $in: [dec('6.0'), dec('9')] } as never }).toArray()).toEqual([{ _id: 6, v: 2 }]);
    expect(await other.countDocuments({ _id: dec('5') as never })).toBe(1);
    expect((await other.updateOne({ _id: dec('5') as never }, { $set: { v: 10 } })).modifiedCount).toBe(1);
    expect((await other.deleteOne({ _id: Long.fromNumber(6) as never })).deletedCount).toBe(1);
    expect(await other.find().toArray()).toEqual([{ _id: 5, v: 10 }]);
  });

  it('an aggregate $match and countDocuments agree', async () => {
    expect(await c.aggregate([{ $match: { n: dec('8') } }, { $project: { _id: 1 } }]).toArray()).toEqual([
      { _id: 'd' },
    ]);
    expect(await c.countDocuments({ n: dec('5') })).toBe(2);
  });
});

describe('ranges', () => {
  it.each([
    [{ n: { $gt: dec('6.5') } }, ['c', 'd', 'g']],
    [{ n: { $gte: dec('6.5') } }, ['b', 'c', 'd', 'g']],
    [{ n: { $lt: dec('5') } }, ['e', 'f', 'i']],
    [{ n: { $lte: Long.fromNumber(5) } }, ['a', 'e', 'f', 'i', 'k']],
    // The double 0.1 is 0.1000000000000000055…: above the decimal 0.1.
    [{ n: { $gt: dec('0.1'), $lt: 1 } }, ['f']],
    [{ n: { $lt: 0.1 } }, ['e']],
    [{ n: { $gt: 9007199254740992 } }, ['g']],
    [{ n: { $lt: Long.fromString('9007199254740993'), $gt: 7 } }, ['d']],
    // NaN is equal to NaN and in no range of other numbers.
    [{ n: { $gte: NaN } }, ['h']],
    [{ n: { $lte: dec('NaN') } }, ['h']],
    [{ n: { $gt: NaN } }, []],
    [{ n: { $lt: dec('Infinity') } }, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'k']],
  ])('%o matches %j', async (filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });
});

describe('with an index on the field', () => {
  it('answers as without it', async () => {
    const filters: Document[] = [
      { n: dec('5') },
      { n: 5 },
      { n: dec('7.000') },
      { n: dec('0.1') },
      { n: Long.fromString('9007199254740993') },
      { n: dec('NaN') },
      { n: { $in: [dec('5'), 8, dec('1')] } },
      { n: { $gt: dec('6.5') } },
      { n: { $lte: Long.fromNumber(5) } },
      { n: { $gt: dec('0.1'), $lt: 1 } },
      { n: { $gte: NaN } },
    ];
    for (const f of filters) expect([f, await ids(f, indexed)]).toEqual([f, await ids(f)]);
    expect(await indexed.countDocuments({ n: dec('5') })).toBe(2);
    const sorted = async (from: Collection<Doc>) =>
      (
        await from
          .find({}, { projection: { _id: 1 } })
          .sort({ n: 1, _id: 1 })
          .toArray()
      ).map((d) => d._id);
    expect(await sorted(indexed)).toEqual(await sorted(c));
  });
});

describe('sort', () => {
  it('orders numbers of every type by exact value, NaN first and numbers before strings', async () => {
    const sorted = (
      await c
        .find({}, { projection: { _id: 1 } })
        .sort({ n: 1, _id: 1 })
        .toArray()
    ).map((d) => d._id);
    // i sorts by its smallest element (1); a and k are equal (5), then by _id.
    expect(sorted).toEqual(['h', 'e', 'f', 'i', 'a', 'k', 'b', 'c', 'd', 'g', 'j']);
  });

  it('tells apart values that round to the same double', async () => {
    const close = ctx.db.collection('close');
    await close.insertMany([
      { _id: 's0', n: Long.fromString('9007199254740993') },
      { _id: 's1', n: 9007199254740992 },
      { _id: 't0', n: dec('0.1000000000000000055511151231257828') }, // just above the double 0.1
      { _id: 't1', n: 0.1 },
    ] as never[]);
    const sorted = async (dir: 1 | -1) => (await close.find({}).sort({ n: dir, _id: 1 }).toArray()).map((d) => d._id);
    expect(await sorted(1)).toEqual(['t1', 't0', 's1', 's0']);
    expect(await sorted(-1)).toEqual(['s0', 's1', 't0', 't1']);
    expect(await close.countDocuments({ n: { $gt: 0.1, $lt: 1 } })).toBe(1);
  });
});

describe('inside embedded documents and arrays, and in $all', () => {
  let nested: Collection<{ _id: string } & Document>;
  beforeAll(async () => {
    nested = ctx.db.collection('nested');
    await nested.insertMany([
      { _id: 'p', a: { x: 1 }, tags: [1, 2, 3] },
      { _id: 'q', a: { x: dec('2.0') }, tags: [dec('1'), Long.fromNumber(4)] },
      { _id: 'r', a: [{ x: 1.5 }, { x: 3 }], tags: [[1, 2], 5] },
      { _id: 's', a: { x: 1, y: 2 }, tags: 2 },
      { _id: 't', a: { y: 2, x: 1 }, tags: ['1'] },
    ]);
  });
  const nestedIds = async (filter: Document): Promise<string[]> =>
    (
      await nested
        .find(filter, { projection: { _id: 1 } })
        .sort({ _id: 1 })
        .toArray()
    ).map((d) => d._id);

  it.each([
    // A whole embedded document compares field by field in order, numbers by value.
    [{ a: { x: dec('1') } }, ['p']],
    [{ a: { x: Long.fromNumber(2) } }, ['q']],
    [{ a: { x: dec('1.5') } }, ['r']],
    [{ a: { x: new Int32(1), y: dec('2') } }, ['s']],
    [{ a: { y: 2.0, x: dec('1') } }, ['t']],
    [{ a: { $in: [{ x: dec('3') }, { x: 'no' }] } }, ['r']],
    [{ a: { $ne: { x: dec('1') } } }, ['q', 'r', 's', 't']],
    [{ a: { $nin: [{ x: Long.fromNumber(1) }, { x: 2 }] } }, ['r', 's', 't']],
    // A whole array operand: the array itself, or an element that is that array.
    [{ tags: [dec('1'), 2, Long.fromNumber(3)] }, ['p']],
    [{ tags: [Long.fromNumber(1), dec('2')] }, ['r']],
    [{ tags: [1, 4] }, ['q']],
    // $all: each value matched as equality is, by value.
    [{ tags: { $all: [dec('1')] } }, ['p', 'q']],
    [{ tags: { $all: [Long.fromNumber(2), dec('3.00')] } }, ['p']],
    [{ tags: { $all: [dec('2')] } }, ['p', 's']],
    [{ tags: { $all: [[dec('1'), 2]] } }, ['r']],
    [{ tags: { $all: [dec('1'), 4] } }, ['q']],
    [{ tags: { $all: [dec('1'), 'x'] } }, []],
  ])('%o matches %j', async (filter, expected) => {
    expect(await nestedIds(filter)).toEqual(expected);
  });
});

describe('in aggregation expressions and $group keys', () => {
  let mixed: Collection<{ _id: number } & Document>;
  beforeAll(async () => {
    mixed = ctx.db.collection('mixed');
    await mixed.insertMany([
      { _id: 1, x: new Int32(1), y: dec('1.0'), k: { v: 1 } },
      { _id: 2, x: 1.0, y: Long.fromNumber(2), k: { v: dec('1') } },
      { _id: 3, x: Long.fromNumber(1), y: 0.5, k: { v: 2 } },
      { _id: 4, x: dec('1'), y: dec('1'), k: { v: Long.fromNumber(2) } },
      { _id: 5, x: dec('1.00'), y: 3, k: [1, dec('2')] },
      { _id: 6, x: 2, y: 2, k: [dec('1'), 2.0] },
      { _id: 7, x: 'one', y: 1, k: null },
    ]);
  });

  it('$group puts keys equal by value in one group, at the top level and inside documents and arrays', async () => {
    const byX = await mixed
      .aggregate([
        { $group: { _id: '$x', n: { $sum: 1 }, ids: { $push: '$_id' } } },
        { $project: { _id: 0, n: 1, ids: 1 } },
      ])
      .toArray();
    expect(byX.map((g) => g.ids).sort((a, b) => a[0] - b[0])).toEqual([[1, 2, 3, 4, 5], [6], [7]]);
    const byK = await mixed
      .aggregate([{ $group: { _id: '$k', n: { $sum: 1 } } }, { $project: { _id: 0, n: 1 } }, { $sort: { n: -1 } }])
      .toArray();
    expect(byK.map((g) => g.n)).toEqual([2, 2, 2, 1]);
    const compound = await mixed
      .aggregate([{ $group: { _id: { x: '$x', one: { $eq: ['$y', 1] } }, n: { $sum: 1 } } }, { $sort: { n: -1 } }])
      .toArray();
    expect(compound.map((g) => g.n)).toEqual([3, 2, 1, 1]);
    expect(await mixed.countDocuments()).toBe(7);
  });

  it('$addToSet keeps one of the values equal by value', async () => {
    const [sets] = await mixed
      .aggregate([
        { $match: { _id: { $lte: 6 } } },
        { $group: { _id: null, xs: { $addToSet: '$x' }, ks: { $addToSet: '$k' } } },
      ])
      .toArray();
    expect(sets!.xs).toHaveLength(2); // 1 in five types, and 2
    expect(sets!.ks).toHaveLength(3); // {v: 1}, {v: 2}, [1, 2]
  });

  it('$eq, $ne, $gt, $lte, $cmp, $in and $cond compare numbers by value', async () => {
    const rows = await mixed
      .aggregate([
        { $match: { _id: { $lte: 6 } } },
        {
          $project: {
            eq: { $eq: ['$x', '$y'] },
            ne: { $ne: ['$x', dec('1')] },
            gt: { $gt: ['$y', '$x'] },
            lte: { $lte: ['$y', Long.fromNumber(1)] },
            cmp: { $cmp: ['$x', dec('1.5')] },
            in: { $in: ['$y', [dec('2'), 3, Long.fromNumber(1)]] },
            cond: { $cond: [{ $eq: ['$k', { v: dec('1') }] }, 'one', 'other'] },
            doc: { $eq: ['$k', [Long.fromNumber(1), dec('2')]] },
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 1, eq: true, ne: false, gt: false, lte: true, cmp: -1, in: true, cond: 'one', doc: false },
      { _id: 2, eq: false, ne: false, gt: true, lte: false, cmp: -1, in: true, cond: 'one', doc: false },
      { _id: 3, eq: false, ne: false, gt: false, lte: true, cmp: -1, in: false, cond: 'other', doc: false },
      { _id: 4, eq: true, ne: false, gt: false, lte: true, cmp: -1, in: true, cond: 'other', doc: false },
      { _id: 5, eq: false, ne: false, gt: true, lte: false, cmp: -1, in: true, cond: 'other', doc: true },
      { _id: 6, eq: true, ne: true, gt: false, lte: false, cmp: 1, in: true, cond: 'other', doc: true },
    ]);
    expect(await mixed.countDocuments({ $expr: { $eq: ['$x', dec('1')] } })).toBe(5);
    expect(await mixed.countDocuments({ $expr: { $gt: ['$y', '$x'] } })).toBe(2);
  });
  it('a missing value is not null in comparison expressions: below it, and equal only to another missing one', async () => {
    const rows = await mixed
      .aggregate([
        { $match: { _id: { $in: [7, 1] } } },
        {
          $project: {
            eqNull: { $eq: ['$nope', null] },
            neNull: { $ne: ['$nope', null] },
            ltNull: { $lt: ['$nope', null] },
            cmpNull: { $cmp: ['$nope', null] },
            eqMissing: { $eq: ['$nope', '$alsoNope'] },
            kIsNull: { $eq: ['$k', null] },
          },
        },
        { $sort: { _id: 1 } },
      ])
      .toArray();
    expect(rows).toEqual([
      { _id: 1, eqNull: false, neNull: true, ltNull: true, cmpNull: -1, eqMissing: true, kIsNull: false },
      { _id: 7, eqNull: false, neNull: true, ltNull: true, cmpNull: -1, eqMissing: true, kIsNull: true },
    ]);
  });
});
