// CRUD through the official driver: insert/find/update/delete, projection, sort/skip/limit, upserts.
import { ObjectId, type Collection, type Db } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('crud');
  db = ctx.db;
});
afterAll(async () => ctx.close());

describe('insert and find', () => {
  let c: Collection;
  beforeAll(async () => {
    c = db.collection('people');
    await c.insertMany([
      { name: 'ann', age: 31, tags: ['a', 'b'], addr: { city: 'Oslo' } },
      { name: 'bob', age: 25, tags: ['b'], addr: { city: 'Rome' } },
      { name: 'cid', age: 40, tags: [], addr: { city: 'Oslo' } },
      { name: 'dee', age: 25 },
    ]);
  });

  it('insertOne returns the generated _id and stores _id first', async () => {
    const r = await c.insertOne({ name: 'eve', age: 50 });
    expect(r.insertedId).toBeInstanceOf(ObjectId);
    const doc = await c.findOne({ _id: r.insertedId });
    expect(Object.keys(doc!)).toEqual(['_id', 'name', 'age']);
    await c.deleteOne({ _id: r.insertedId });
  });

  it('finds with query operators', async () => {
    expect(await c.countDocuments({ age: { $gte: 30 } })).toBe(2);
    expect((await c.find({ tags: 'b' }).toArray()).map((d) => d.name).sort()).toEqual(['ann', 'bob']);
    expect((await c.find({ 'addr.city': 'Oslo' }).toArray()).map((d) => d.name).sort()).toEqual(['ann', 'cid']);
    expect(await c.countDocuments({ addr: { $exists: false } })).toBe(1);
    expect(await c.countDocuments({ name: { $in: ['ann', 'dee', 'zzz'] } })).toBe(2);
    expect(await c.countDocuments({ name: /^[ab]/ })).toBe(2);
  });

  it('sorts, skips, limits and projects', async () => {
    const docs = await c
      .find({}, { projection: { _id: 0, name: 1 } })
      .sort({ age: -1, name: 1 })
      .skip(1)
      .limit(2)
      .toArray();
    expect(docs).toEqual([{ name: 'ann' }, { name: 'bob' }]);
    const excl = await c.findOne({ name: 'ann' }, { projection: { tags: 0, addr: 0 } });
    expect(Object.keys(excl!)).toEqual(['_id', 'name', 'age']);
    const incl = await c.findOne({ name: 'ann' }, { projection: { age: 1, 'addr.city': 1 } });
    expect(Object.keys(incl!)).toEqual(['_id', 'age', 'addr']);
    expect(incl!.addr).toEqual({ city: 'Oslo' });
    expect(await c.findOne({ name: 'ann' }, { projection: { _id: 0, tags: { $slice: 1 } } })).toEqual({ tags: ['a'] });
    expect(await c.findOne({ tags: 'b', name: 'ann' }, { projection: { _id: 0, 'tags.$': 1 } })).toEqual({
      tags: ['b'],
    });
  });

  it('findOne returns null when nothing matches', async () => {
    expect(await c.findOne({ name: 'nobody' })).toBeNull();
  });

  it('count and distinct', async () => {
    expect(await c.estimatedDocumentCount()).toBe(4);
    expect((await c.distinct('age')).sort()).toEqual([25, 31, 40]);
    expect((await c.distinct('tags')).sort()).toEqual(['a', 'b']);
    expect((await c.distinct('name', { age: 25 })).sort()).toEqual(['bob', 'dee']);
    expect(await db.command({ count: 'people', query: { age: 25 } })).toMatchObject({ n: 2, ok: 1 });
  });
});

interface NumDoc {
  _id: number;
  n?: number;
  arr?: number[];
  list?: number[];
  items?: Array<{ k: string; v: number; hit?: boolean }>;
  s?: string;
  total?: number;
  fresh?: boolean;
  key?: string;
  sub?: { x: number };
  v?: number;
  created?: boolean;
  a?: number;
}

describe('updates', () => {
  let c: Collection<NumDoc>;
  beforeEach(async () => {
    c = db.collection<NumDoc>('upd');
    await c.deleteMany({});
    await c.insertMany([
      {
        _id: 1,
        n: 1,
        arr: [1, 2, 3],
        items: [
          { k: 'a', v: 1 },
          { k: 'b', v: 2 },
        ],
      },
      { _id: 2, n: 2, arr: [3, 4], items: [{ k: 'a', v: 5 }] },
    ]);
  });

  it('updateOne with operators reports matched/modified', async () => {
    const r = await c.updateOne({ _id: 1 }, { $set: { s: 'x' }, $inc: { n: 5 }, $push: { arr: 9 } });
    expect(r).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect(await c.findOne({ _id: 1 })).toMatchObject({ s: 'x', n: 6, arr: [1, 2, 3, 9] });
    const same = await c.updateOne({ _id: 1 }, { $set: { s: 'x' } });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  it('updateMany, $unset, $mul, $min, $max, $rename, $addToSet, $pull, $pop', async () => {
    const r = await c.updateMany({}, { $mul: { n: 10 }, $addToSet: { arr: 3 } });
    expect(r).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    await c.updateOne({ _id: 1 }, { $unset: { items: '' }, $min: { n: 3 }, $rename: { arr: 'list' } });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 3, list: [1, 2, 3] });
    await c.updateOne({ _id: 2 }, { $max: { n: 100 }, $pull: { arr: 3 } });
    await c.updateOne({ _id: 2 }, { $pop: { arr: -1 } });
    expect(await c.findOne({ _id: 2 }, { projection: { n: 1, arr: 1 } })).toEqual({ _id: 2, n: 100, arr: [] });
  });

  it('$push with $each/$sort/$slice/$position and $pullAll', async () => {
    await c.updateOne({ _id: 1 }, { $push: { arr: { $each: [0, 7], $position: 0 } } });
    expect((await c.findOne({ _id: 1 }))!.arr).toEqual([0, 7, 1, 2, 3]);
    await c.updateOne({ _id: 1 }, { $push: { arr: { $each: [5], $sort: -1, $slice: 3 } } });
    expect((await c.findOne({ _id: 1 }))!.arr).toEqual([7, 5, 3]);
    await c.updateOne({ _id: 1 }, { $pullAll: { arr: [7, 3] } });
    expect((await c.findOne({ _id: 1 }))!.arr).toEqual([5]);
  });

  it('positional $, $[] and $[<id>] with arrayFilters', async () => {
    await c.updateOne({ _id: 1, 'items.k': 'b' }, { $set: { 'items.$.v': 20 } });
    expect((await c.findOne({ _id: 1 }))!.items).toEqual([
      { k: 'a', v: 1 },
      { k: 'b', v: 20 },
    ]);
    await c.updateOne({ _id: 1 }, { $inc: { 'arr.$[]': 1 } });
    expect((await c.findOne({ _id: 1 }))!.arr).toEqual([2, 3, 4]);
    await c.updateMany({}, { $set: { 'items.$[el].hit': true } }, { arrayFilters: [{ 'el.k': 'a' }] });
    expect((await c.findOne({ _id: 2 }))!.items).toEqual([{ k: 'a', v: 5, hit: true }]);
    expect((await c.findOne({ _id: 1 }))!.items).toEqual([
      { k: 'a', v: 1, hit: true },
      { k: 'b', v: 20 },
    ]);
  });

  it('replaceOne keeps _id; changing _id fails with code 66', async () => {
    await c.replaceOne({ _id: 2 }, { fresh: true });
    expect(await c.findOne({ _id: 2 })).toEqual({ _id: 2, fresh: true });
    await expect(c.updateOne({ _id: 2 }, { $set: { _id: 3 } })).rejects.toMatchObject({ code: 66 });
  });

  it('upserts with operators, $setOnInsert and equality fields from the filter', async () => {
    const r = await c.updateOne(
      { key: 'k1', 'sub.x': 1 },
      { $set: { v: 1 }, $setOnInsert: { created: true } },
      { upsert: true },
    );
    expect(r.upsertedCount).toBe(1);
    expect(r.upsertedId).toBeInstanceOf(ObjectId);
    const doc = await c.findOne({ _id: r.upsertedId! });
    expect(doc).toMatchObject({ key: 'k1', sub: { x: 1 }, v: 1, created: true });
    const again = await c.updateOne(
      { key: 'k1' },
      { $set: { v: 2 }, $setOnInsert: { created: false } },
      { upsert: true },
    );
    expect(again).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null });
    expect((await c.findOne({ key: 'k1' }))!.created).toBe(true);
    const rep = await c.replaceOne({ _id: 77 }, { a: 1 }, { upsert: true });
    expect(rep.upsertedId).toBe(77);
    expect(await c.findOne({ _id: 77 })).toEqual({ _id: 77, a: 1 });
  });

  it('pipeline-style update', async () => {
    await c.updateOne({ _id: 1 }, [{ $set: { total: { $sum: '$arr' } } }]);
    expect((await c.findOne({ _id: 1 }))!.total).toBe(6);
  });

  it('unknown update operator is an error', async () => {
    await expect(c.updateOne({ _id: 1 }, { $frob: { a: 1 } } as never)).rejects.toMatchObject({ code: 9 });
  });
});

describe('sorting', () => {
  it('sorts mixed, missing and array values the way MongoDB does', async () => {
    const c = db.collection('sorting');
    await c.insertMany([
      { k: 'a', v: 5 },
      { k: 'b', v: [1, 9] },
      { k: 'c' },
      { k: 'd', v: null },
      { k: 'e', v: 'str' },
      { k: 'f', v: 3 },
    ]);
    const asc = (await c.find({}, { sort: { v: 1, k: 1 } }).toArray()).map((d) => d.k);
    expect(asc).toEqual(['c', 'd', 'b', 'f', 'a', 'e']);
    const desc = (await c.find({}, { sort: { v: -1, k: 1 } }).toArray()).map((d) => d.k);
    expect(desc).toEqual(['e', 'b', 'a', 'f', 'c', 'd']);
    const top = await c
      .find({ k: { $in: ['a', 'b', 'f'] } }, { sort: { v: -1 }, limit: 2, skip: 1, projection: { _id: 0, k: 1 } })
      .toArray();
    expect(top).toEqual([{ k: 'a' }, { k: 'f' }]);
  });
});

describe('deletes', () => {
  it('deleteOne / deleteMany', async () => {
    const c = db.collection('del');
    await c.insertMany([{ g: 1 }, { g: 1 }, { g: 2 }, { g: 3 }]);
    expect((await c.deleteOne({ g: 1 })).deletedCount).toBe(1);
    expect((await c.deleteMany({ g: { $gte: 1 } })).deletedCount).toBe(3);
    expect(await c.countDocuments()).toBe(0);
  });
});

describe('findOneAndX', () => {
  let c: Collection;
  beforeAll(async () => {
    c = db.collection('fam');
    await c.insertMany([
      { q: 1, v: 'a' },
      { q: 2, v: 'b' },
      { q: 3, v: 'c' },
    ]);
  });

  it('findOneAndUpdate returns before/after and honours sort and projection', async () => {
    const before = await c.findOneAndUpdate({}, { $set: { v: 'z' } }, { sort: { q: -1 }, projection: { _id: 0 } });
    expect(before).toEqual({ q: 3, v: 'c' });
    const after = await c.findOneAndUpdate(
      { q: 3 },
      { $inc: { q: 10 } },
      { returnDocument: 'after', projection: { _id: 0, q: 1 } },
    );
    expect(after).toEqual({ q: 13 });
  });

  it('findOneAndUpdate with upsert, includeResultMetadata', async () => {
    const res = await c.findOneAndUpdate(
      { q: 99 },
      { $set: { v: 'new' } },
      { upsert: true, returnDocument: 'after', includeResultMetadata: true },
    );
    expect(res.value).toMatchObject({ q: 99, v: 'new' });
    expect(res.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false });
    expect(res.lastErrorObject!.upserted).toBeInstanceOf(ObjectId);
    const miss = await c.findOneAndUpdate({ q: 1000 }, { $set: { v: 1 } }, { includeResultMetadata: true });
    expect(miss.value).toBeNull();
    expect(miss.lastErrorObject).toMatchObject({ n: 0, updatedExisting: false });
  });

  it('findOneAndReplace and findOneAndDelete', async () => {
    const rep = await c.findOneAndReplace({ q: 1 }, { q: 1, v: 'replaced' }, { returnDocument: 'after' });
    expect(rep).toMatchObject({ q: 1, v: 'replaced' });
    const del = await c.findOneAndDelete({ q: 2 });
    expect(del).toMatchObject({ q: 2, v: 'b' });
    expect(await c.findOne({ q: 2 })).toBeNull();
    expect(await c.findOneAndDelete({ q: 2 })).toBeNull();
  });
});
