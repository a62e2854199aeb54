// Planner choices (no explain command, so planQuery is called directly on a storage Collection):
// most equality fields first, then the index that serves the sort, then the smallest candidate set, with
// tiny candidate sets (e.g. a unique key) ahead of any walk; walks fall back when a walked field is multikey.
import type { Document } from 'bson';
import { decode, encode } from '../src/storage/bsonio.js';
import type { Collection } from '../src/storage/collection.js';
import { planQuery, type Plan } from '../src/query/plan.js';
import { matches } from '../src/query/exec.js';
import { parseSort } from '../src/query/sort.js';
import { scratchStore } from './scratch-store.js';

const store = scratchStore();
afterAll(() => store.close());

function collection(n: number, indexes: Record<string, Document>, make: (i: number) => Document): Collection {
  const c = store.collection();
  store.write(() => {
    for (const [name, key] of Object.entries(indexes))
      c.addIndex({ v: 2, key, name, ...(name.startsWith('u_') ? { unique: true } : {}) });
    for (let i = 0; i < n; i++) {
      const doc = { _id: i, ...make(i) };
      c.insert(encode(doc), doc);
    }
  });
  return c;
}

const article = (i: number): Document => ({
  status: i % 10 === 0 ? 'draft' : 'published',
  cat: `c${i % 3}`,
  kind: i % 500 === 0 ? 'rare' : 'common',
  slug: `s${i}`,
  date: new Date(1_700_000_000_000 + (i % 977) * 1000),
});

/** The `_id`s of a plan's candidate record ids, ascending. */
const idsOf = (c: Collection, rids: readonly string[] | undefined): number[] | undefined =>
  rids?.map((rid) => decode(c.get(rid)!)._id as number).sort((a, b) => a - b);

const plan = (c: Collection, filter: Document, sort?: Document) =>
  planQuery(c, filter, undefined, sort && parseSort(sort));

it('prefers the index fixing the most leading fields by equality', () => {
  const c = collection(
    3000,
    { status: { status: 1 }, cat_status_date: { cat: 1, status: 1, date: -1, _id: -1 } },
    article,
  );
  expect(plan(c, { status: 'published', cat: 'c1' }).index).toBe('cat_status_date');
  const p = plan(c, { status: 'published', cat: 'c1' }, { date: -1, _id: -1 });
  expect(p.index).toBe('cat_status_date');
  expect(p.walk?.backward).toBe(true);
  expect(plan(c, { status: 'published', cat: 'c1' }, { date: 1, _id: 1 }).walk?.backward).toBe(false);
  // Mixed directions are not an order the view has.
  expect(plan(c, { status: 'published', cat: 'c1' }, { date: 1, _id: -1 }).walk).toBeUndefined();
});

it('at equal equality fields, prefers the index that serves the sort', () => {
  const c = collection(3000, { status: { status: 1 }, published: { status: 1, date: -1, _id: -1 } }, article);
  expect(plan(c, { status: 'published' }, { date: -1, _id: -1 })).toMatchObject({
    index: 'published',
    walk: expect.anything(),
  });
  expect(plan(c, { status: 'published' }, { date: -1 }).index).toBe('published'); // a prefix of the walked fields
  expect(plan(c, { status: 'published' }, { status: 1, date: 1 }).walk).toBeDefined(); // fixed sort field dropped
});

it('then the smallest candidate set; a tiny set (unique key) beats any walk', () => {
  // Under 2,048 documents per key: the planner counts candidate sets exactly up to there.
  const c = collection(
    2000,
    { status: { status: 1 }, kind: { kind: 1 }, u_slug: { slug: 1 }, published: { status: 1, date: -1, _id: -1 } },
    article,
  );
  expect(plan(c, { status: 'published', kind: 'common' }).index).toBe('status'); // 1800 vs 1996
  expect(plan(c, { status: 'published', kind: 'rare' }).index).toBe('kind'); // 4 candidates
  const p = plan(c, { slug: 's42', status: 'published' }, { date: -1, _id: -1 });
  expect(p.index).toBe('u_slug');
  expect(p.rids).toHaveLength(1);
});

it('a walk is counted over its range: a near-empty range beats a small lookup', () => {
  // 3,000 published, a third of them in category `a` (a lookup of 1,000: small enough to beat a whole walk);
  // the walk's range holds the last ten dates.
  const c = collection(3000, { status_date: { status: 1, date: 1 }, cat: { cat: 1 } }, (i) => ({
    status: 'published',
    cat: i % 3 === 0 ? 'a' : `c${i}`,
    date: new Date(1_700_000_000_000 + i * 1000),
  }));
  const late = { $gte: new Date(1_700_000_000_000 + 2990 * 1000) };
  expect(plan(c, { status: 'published', cat: 'a', date: late }, { date: 1 }).walk?.index.name).toBe('status_date');
  // Without the range the lookup is still the smaller set.
  expect(plan(c, { status: 'published', cat: 'a' }, { date: 1 }).index).toBe('cat');
  // A range that holds nothing (the schedule's due part, when nothing is due).
  const none = plan(c, { status: 'published', cat: 'a', date: { $lt: new Date(0) } }, { date: 1 }).walk!;
  expect([...none.index.range(none.lo, none.hi, none.backward)]).toEqual([]);
});

it('range predicates on the first walked field narrow the walk; keyset $or branches too', () => {
  const c = collection(3000, { published: { status: 1, date: -1, _id: -1 } }, article);
  const all = plan(c, { status: 'published' }, { date: -1, _id: -1 }).walk!;
  const ranged = plan(
    c,
    { status: 'published', date: { $gte: new Date(1_700_000_500_000) } },
    { date: -1, _id: -1 },
  ).walk!;
  expect(ranged.lo > all.lo).toBe(true);
  expect(ranged.hi < all.hi).toBe(true); // type bracketing: dates only
  const at = new Date(1_700_000_300_000);
  const keyset = plan(
    c,
    { status: 'published', $or: [{ date: { $lt: at } }, { date: at, _id: { $lt: 5 } }] },
    { date: -1, _id: -1 },
  ).walk!;
  expect(keyset.hi < all.hi).toBe(true);
  const count = (w: typeof all) => [...w.index.range(w.lo, w.hi, w.backward)].length;
  expect(count(ranged)).toBe(2700 - [...Array(3000).keys()].filter((i) => i % 10 !== 0 && i % 977 < 500).length);
  expect(count(keyset)).toBeLessThan(count(all));
});

it('falls back from a walk when a walked field is multikey, and back again when it no longer is', () => {
  const c = collection(50, { published: { status: 1, date: -1, _id: -1 } }, article);
  expect(plan(c, { status: 'published' }, { date: -1, _id: -1 }).walk).toBeDefined();
  const doc = { _id: 'm', status: 'published', date: [new Date(1), new Date(2)] };
  const slot = store.write(() => c.insert(encode(doc), doc));
  const p = plan(c, { status: 'published' }, { date: -1, _id: -1 });
  expect(p.walk).toBeUndefined();
  expect(p.index).toBe('published'); // still the equality candidates
  store.write(() => c.remove(slot, doc));
  expect(plan(c, { status: 'published' }, { date: -1, _id: -1 }).walk).toBeDefined();
});

it('an equality lookup settles its fields: only the rest of the filter is left to test', () => {
  const c = collection(200, { kind: { kind: 1 }, cat_status: { cat: 1, status: 1 } }, article);
  expect(plan(c, { kind: 'rare' })).toMatchObject({ index: 'kind', exact: true });
  expect(plan(c, { kind: { $in: ['rare', 'other'] }, slug: 's0' })).toMatchObject({
    index: 'kind',
    exact: false,
    residual: { slug: 's0' },
  });
  expect(plan(c, { cat: 'c1', status: { $in: ['draft'] }, slug: { $ne: 'x' } })).toMatchObject({
    index: 'cat_status',
    residual: { slug: { $ne: 'x' } },
  });
  // Not settled: more than an equality on the field, or a value whose key equality is not MongoDB's.
  expect(plan(c, { kind: { $in: ['rare'], $ne: 'x' } }).exact).toBe(false);
  expect(plan(c, { kind: { $in: ['rare'], $ne: 'x' } }).residual).toBeUndefined();
});

it('a lookup is narrowed by a range on the field after its equality prefix', () => {
  const c = collection(3000, { cat_date: { cat: 1, date: -1 } }, article);
  const since = new Date(1_700_000_900_000);
  const p = plan(c, { cat: 'c1', date: { $gt: since } });
  expect(p.index).toBe('cat_date');
  // Bounds are inclusive (the filter then drops a document equal to a `$gt` bound).
  const expected = [...Array(3000).keys()].filter((i) => i % 3 === 1 && i % 977 >= 900);
  expect(idsOf(c, p.rids)).toEqual(expected);
  // No narrowing where the bound is not in the index's key order (type-bracketed: a string bounds strings only).
  expect(plan(c, { cat: 'c1', date: { $gt: 'x' } }).rids).toHaveLength(0);
  expect(plan(c, { cat: 'c1', date: { $ne: since } }).rids).toHaveLength(1000);
});

it('an $or whose every branch has a lookup is planned as the union of the branches', () => {
  const c = collection(3000, { cat_date: { cat: 1, date: -1 }, slug: { slug: 1 } }, article);
  const since = new Date(1_700_000_970_000);
  const p = plan(c, { $or: [{ cat: 'c1', date: { $gte: since } }, { slug: 's4' }] });
  expect(p).toMatchObject({ exact: false });
  expect(p.index).toBeUndefined(); // two indexes
  const expected = [4, ...[...Array(3000).keys()].filter((i) => i % 3 === 1 && i % 977 >= 970)];
  expect(idsOf(c, p.rids)).toEqual([...new Set(expected)].sort((a, b) => a - b));
  // An index serving the conditions beside the $or is used as before; conditions no index serves are checked after.
  expect(plan(c, { cat: 'c1', $or: [{ slug: 's4' }, { slug: 's7' }] }).index).toBe('cat_date');
  expect(idsOf(c, plan(c, { kind: 'rare', $or: [{ slug: 's4' }, { slug: 's7' }] }).rids)).toEqual([4, 7]);
  expect(idsOf(c, plan(c, { $and: [{ $or: [{ slug: 's4' }, { slug: 's7' }] }, { kind: 'x' }] }).rids)).toEqual([4, 7]);
  // A branch without a lookup leaves a collection scan.
  expect(plan(c, { $or: [{ slug: 's4' }, { kind: 'rare' }] }).rids).toBeUndefined();
});

it('every plan finds what a collection scan finds', () => {
  const c = collection(
    2000,
    { cat_date: { cat: 1, date: -1 }, slug: { slug: 1 }, kind_tags: { kind: 1, tags: 1 } },
    (i) => ({ ...article(i), tags: i % 7 === 0 ? [i % 5, 10 + (i % 11)] : i % 13 }),
  );
  const at = new Date(1_700_000_500_000);
  const filters: Document[] = [
    { cat: 'c2', date: { $lt: at } },
    { cat: { $in: ['c0', 'c2'] }, date: { $gte: at, $lt: new Date(1_700_000_600_000) } },
    { kind: 'common', tags: { $gt: 12 } },
    { kind: 'common', tags: { $lte: 3 } },
    { $or: [{ cat: 'c0', date: at }, { slug: { $in: ['s1', 's2', 's3'] } }, { kind: 'rare', tags: { $gte: 0 } }] },
    { status: 'published', $or: [{ slug: 's10' }, { slug: 's20' }, { cat: 'c1', date: { $lte: at } }] },
    { $and: [{ $or: [{ slug: 's5' }, { kind: 'rare' }] }, { $or: [{ slug: 's5' }, { cat: 'c2' }] }] },
  ];
  const ids = (p: Plan | undefined, filter: Document) =>
    [...matches(c, filter, {}, p)].map((m) => String(m.doc._id)).sort();
  for (const filter of filters)
    expect([filter, ids(plan(c, filter), filter)]).toEqual([filter, ids({ exact: false }, filter)]);
});

it('does not narrow by a range a field holding arrays: each bound may be met by another element', () => {
  const c = collection(0, { x_a: { x: 1, a: 1 } }, article);
  store.write(() => {
    for (const doc of [
      { _id: 1, x: 1, a: [1, 10] },
      { _id: 2, x: 1, a: 4 },
      { _id: 3, x: 1, a: 20 },
      { _id: 4, x: 1, a: [6, 'a'] },
    ])
      c.insert(encode(doc), doc);
  });
  const scanned = (filter: Document) => [...matches(c, filter, {}, { exact: false })].map((m) => m.doc._id);
  for (const filter of [
    { x: 1, a: { $gt: 3, $lt: 5 } },
    { $and: [{ x: 1 }, { a: { $gt: 3 } }, { a: { $lt: 5 } }] },
    { $or: [{ x: 1, a: { $gt: 3, $lt: 5 } }, { x: 99 }] },
    { x: 1, a: { $gt: 5, $lt: 'z' } },
  ]) {
    expect(scanned(filter).length).toBeGreaterThan(0);
    expect([...matches(c, filter, {}, plan(c, filter))].map((m) => m.doc._id)).toEqual(scanned(filter));
  }
});

it('a range after an equality on a value longer than any key finds nothing, without an error', () => {
  const c = collection(10, { cat_date: { cat: 1, date: -1 } }, article);
  const filter = { cat: 'x'.repeat(3000), date: { $gt: new Date(0) } };
  expect([...matches(c, filter, {}, plan(c, filter))]).toEqual([]);
});

it('nested $or clauses are not planned branch by branch in turn', () => {
  const c = collection(200, { cat: { cat: 1 } }, article);
  const ors = [...Array(20).keys()].map((j) => ({ $or: [{ [`u${j}`]: 1 }, { [`v${j}`]: 1 }] }));
  // 2^20 combinations if each branch were planned with the $or clauses beside it; a collection scan instead.
  expect(plan(c, { $and: [...ors, { $or: [{ cat: 'c1' }, { cat: 'c2' }] }] }).rids).toBeUndefined();
  expect(plan(c, { $or: [...Array(65).keys()].map((i) => ({ cat: `c${i}` })) }).rids).toBeUndefined();
  expect(plan(c, { $or: [...Array(64).keys()].map((i) => ({ cat: `c${i}` })) }).rids).toHaveLength(200);
});
