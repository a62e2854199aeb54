// A `$group` counting a top-level field's values, or the years of its dates, is counted by the engine itself
// (commands/aggregate-counts.ts): its answers must be mingo's, which the same grouping written with
// `{ $sum: { $literal: 1 } }` still gets. Asserted through the official driver, over values of every kind a
// count keys and some it hands back to mingo.
import { Decimal128, Int32, Long, type Collection, type Document } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let c: Collection<{ _id: number; [field: string]: unknown }>;

beforeAll(async () => {
  ctx = await openTestDb('group_counts');
  c = ctx.db.collection('values');
  await c.insertMany([
    { _id: 1, s: 'a', n: new Int32(1), d: new Date('2024-12-31T23:30:00Z') },
    { _id: 2, s: 'a', n: 1.0, d: new Date('2025-01-01T00:30:00Z') },
    { _id: 3, s: 'b', n: Long.fromNumber(1), d: new Date('2025-06-01T00:00:00Z') },
    { _id: 4, s: null, n: 2.5, d: new Date('1969-07-20T20:17:00Z') },
    { _id: 5, n: 0, d: new Date('2025-02-01T00:00:00Z') },
    { _id: 6, s: '1', n: 0, d: new Date('2025-03-01T00:00:00Z') },
  ]);
  await c.insertMany([
    { _id: 10, s: ['a', 'b'], n: Decimal128.fromString('1'), d: '2025-01-01' },
    { _id: 11, s: { x: 1 }, n: true, d: null },
  ]);
}, 30_000);
afterAll(() => ctx.close());

type Outcome = { rows: Document[] } | { error: string };

/** The same grouping, once counted by the engine and once written so that only mingo counts it. */
async function both(match: Document, id: unknown): Promise<[Outcome, Outcome]> {
  const run = (sum: unknown): Promise<Outcome> =>
    c
      .aggregate([{ $match: match }, { $group: { _id: id, count: { $sum: sum } } }, { $sort: { count: -1, _id: 1 } }])
      .toArray()
      .then(
        (rows) => ({ rows }),
        (err: Error) => ({ error: err.message }),
      );
  return [await run(1), await run({ $literal: 1 })];
}

test.each([
  ['strings, null and missing', '$s'],
  ['numbers of every type, by value', '$n'],
  ['a field no document has', '$none'],
])('a count by %s answers as mingo does', async (_, id) => {
  const [fast, reference] = await both({ _id: { $lt: 10 } }, id);
  expect(fast).toEqual(reference);
  expect('rows' in fast && fast.rows.length).toBeGreaterThan(0);
});

test('a count by the year of a date uses the UTC year', async () => {
  const [fast, reference] = await both({ _id: { $lt: 10 } }, { $year: '$d' });
  expect(fast).toEqual(reference);
  expect(fast).toEqual({
    rows: [
      { _id: 2025, count: 4 },
      { _id: 1969, count: 1 },
      { _id: 2024, count: 1 },
    ],
  });
});

test.each([
  ['an array, an object and a Decimal128', '$s'],
  ['a Decimal128 and a boolean', '$n'],
  ['the year of a string and of null', { $year: '$d' }],
])('values a count does not key (%s) are grouped, or refused, as mingo does', async (_, id) => {
  const [fast, reference] = await both({}, id);
  expect(fast).toEqual(reference);
});

test('in a $facet, beside other branches', async () => {
  const [row] = await c
    .aggregate([
      { $match: { _id: { $lt: 10 } } },
      {
        $facet: {
          total: [{ $count: 'n' }],
          years: [{ $group: { _id: { $year: '$d' }, count: { $sum: 1 } } }, { $sort: { _id: -1 } }],
          strings: [{ $group: { _id: '$s', count: { $sum: 1 } } }, { $sort: { count: -1, _id: 1 } }],
        },
      },
    ])
    .toArray();
  expect(row).toEqual({
    total: [{ n: 6 }],
    years: [
      { _id: 2025, count: 4 },
      { _id: 2024, count: 1 },
      { _id: 1969, count: 1 },
    ],
    strings: [
      { _id: null, count: 2 },
      { _id: 'a', count: 2 },
      { _id: '1', count: 1 },
      { _id: 'b', count: 1 },
    ],
  });
});

test('a $facet of counts answers as mingo does when a value it does not key comes after counted ones', async () => {
  // Sorted by _id, the array, the object and the Decimal128 (documents 10 and 11) come after six counted
  // documents: each branch then carries on in mingo from what it had counted.
  const facet = (sum: unknown): Promise<Document[]> =>
    c
      .aggregate([
        { $sort: { _id: 1 } },
        {
          $facet: {
            total: [{ $match: { n: { $ne: 2.5 } } }, { $count: 'n' }],
            strings: [
              { $unwind: '$s' },
              { $group: { _id: '$s', count: { $sum: sum } } },
              { $sort: { count: -1, _id: 1 } },
            ],
            numbers: [{ $group: { _id: '$n', count: { $sum: sum } } }, { $sort: { count: -1, _id: 1 } }],
            years: [
              { $match: { d: { $type: 'date' } } },
              { $group: { _id: { $year: '$d' }, count: { $sum: sum } } },
              { $sort: { _id: -1 } },
            ],
          },
        },
      ])
      .toArray();
  const [fast, reference] = [await facet(1), await facet({ $literal: 1 })];
  expect(fast).toEqual(reference);
  expect(fast[0]!.total).toEqual([{ n: 7 }]);
  expect(fast[0]!.strings).toContainEqual({ _id: 'a', count: 3 });
  expect(fast[0]!.strings).toContainEqual({ _id: { x: 1 }, count: 1 });
});

test('a $sort with a $limit after it keeps the first documents of the whole sort, ties in input order', async () => {
  const t = ctx.db.collection<{ _id: number; k: number }>('sorted_limit');
  // More documents than the sort holds before it first trims to the limit (2 × limit + 1,024).
  await t.insertMany(Array.from({ length: 3_000 }, (_, i) => ({ _id: i, k: (i * 7919) % 13 })));
  const all = await t.aggregate([{ $sort: { _id: 1 } }, { $group: { _id: '$k', ids: { $push: '$_id' } } }]).toArray();
  expect(all).toHaveLength(13);
  const sorted = await t.aggregate([{ $sort: { _id: 1 } }, { $project: { k: 1 } }, { $sort: { k: -1 } }]).toArray();
  const limited = await t
    .aggregate([{ $sort: { _id: 1 } }, { $project: { k: 1 } }, { $sort: { k: -1 } }, { $skip: 200 }, { $limit: 300 }])
    .toArray();
  expect(sorted).toHaveLength(3_000);
  expect(limited).toEqual(sorted.slice(200, 500));
});
