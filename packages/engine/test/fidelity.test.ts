// Behaviours where a simpler engine would differ from MongoDB: each is MongoDB's documented answer,
// asserted through the official driver.
import { MongoClient, MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { openTestDb, testMongoUri } from './helpers/db.js';

// Loose on purpose: these tests send updates MongoDB refuses (e.g. $inc on a string field).
type Doc = { _id: number; [k: string]: any };

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('fidelity');
  db = ctx.db;
});
afterAll(async () => ctx.close());

async function serverError(p: Promise<unknown>): Promise<MongoServerError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(MongoServerError);
  return e as MongoServerError;
}

describe('errors a client can make', () => {
  let c: Collection<Doc>;
  beforeAll(async () => {
    c = db.collection<Doc>('errors');
    await c.insertMany([{ _id: 1, name: 'a', n: 1, s: 'text', a: 5 }]);
  });

  it('an unknown top-level query operator is BadValue (2), also on a collection that does not exist', async () => {
    for (const coll of [c, db.collection<Doc>('missing')]) {
      const e = await serverError(coll.find({ $foo: 1 }).toArray());
      expect([e.code, e.codeName]).toEqual([2, 'BadValue']);
      expect(e.message).toMatch(/unknown top level operator: \$foo/);
    }
  });

  it('a malformed $regex answers 51091 and keeps the connection open', async () => {
    const e = await serverError(c.find({ name: { $regex: '[' } }).toArray());
    expect([e.code, e.codeName]).toEqual([51091, 'Location51091']);
    // A BSON regular expression JavaScript cannot compile fails at decoding: the same answer.
    const { BSONRegExp } = await import('bson');
    const e2 = await serverError(c.find({ name: new BSONRegExp('(', '') }).toArray());
    expect(e2.code).toBe(51091);
    expect(await c.countDocuments({})).toBe(1);
  });

  it('a query value longer than any stored key (kilobytes) matches nothing: finds, counts, updates and deletes answer, never InternalError', async () => {
    const k = db.collection<Doc>('longvalues');
    await k.insertOne({ _id: 1, t: 'a', u: 'b' });
    await k.createIndex({ t: 1 });
    await k.createIndex({ u: 1 }, { unique: true });
    // Typed as the documents' _id (a number) so the driver's filter types accept them; sent as they are.
    const bigs = ['z'.repeat(2000), 'z'.repeat(5000), 'é'.repeat(1400), { a: 'q'.repeat(5000) }] as unknown as number[];
    for (const big of bigs) {
      expect(await k.findOne({ _id: big })).toBeNull();
      expect(await k.find({ _id: { $in: [big, 1] } }).toArray()).toEqual([{ _id: 1, t: 'a', u: 'b' }]);
      expect(await k.find({ _id: big, t: 'a' }).toArray()).toEqual([]);
      expect(await k.find({ t: big }).toArray()).toEqual([]);
      expect(await k.find({ u: { $in: [big] } }).toArray()).toEqual([]);
      expect(await k.countDocuments({ t: big })).toBe(0);
      expect(await k.countDocuments({ t: { $gte: big } })).toBe(0);
      expect((await k.updateOne({ _id: big }, { $set: { x: 1 } })).matchedCount).toBe(0);
      expect((await k.deleteMany({ u: big })).deletedCount).toBe(0);
    }
    // Storing such a key is refused as MongoDB before 4.2 refused it, with nothing written.
    const e = await serverError(k.insertOne({ _id: 'y'.repeat(5000) as unknown as number }));
    expect(e.code).toBe(17280);
    expect(await k.countDocuments({})).toBe(1);
  });

  it('an upsert whose filter matches _id by a pattern seeds no _id from it: the inserted document gets an ObjectId', async () => {
    const u = db.collection<Doc>('upsertpattern');
    const r = await u.updateOne({ _id: /abc/ as unknown as number }, { $set: { r: 1 } }, { upsert: true });
    expect(r.upsertedId?.constructor.name).toBe('ObjectId');
    const { BSONRegExp } = await import('bson');
    await u.updateOne(
      { name: new BSONRegExp('^x') as unknown as string, k: { $in: [/y/] } },
      { $set: { r: 2 } },
      { upsert: true },
    );
    const docs = await u.find({}, { projection: { _id: 0 } }).toArray();
    expect(docs).toEqual([{ r: 1 }, { r: 2 }]);
  });

  it('a poison command beside concurrent innocent ones on the same client: none of those fail', async () => {
    const { BSONRegExp } = await import('bson');
    // One connection, so the poison and the innocent requests are queued on the same socket.
    const one = new MongoClient(testMongoUri(), { maxPoolSize: 1 });
    const oc = one.db(db.databaseName).collection<Doc>('errors');
    try {
      const innocent = Array.from({ length: 40 }, (_, i) =>
        oc.findOne({ _id: 1 }, { projection: { name: 1, i: { $literal: i } } }),
      );
      const poison = Array.from({ length: 10 }, () =>
        oc
          .find({ name: new BSONRegExp('[', '') })
          .toArray()
          .then(
            () => 'no error',
            (x: MongoServerError) => x.code,
          ),
      );
      const [ok, bad] = await Promise.all([Promise.allSettled(innocent), Promise.all(poison)]);
      expect(ok.filter((r) => r.status === 'rejected')).toEqual([]);
      expect(new Set(bad)).toEqual(new Set([51091]));
    } finally {
      await one.close();
    }
  });
});

describe('MongoDB error codes', () => {
  let c: Collection<Doc>;
  beforeAll(async () => {
    c = db.collection<Doc>('codes');
    await c.insertMany([{ _id: 1, s: 'text', a: 5, n: 1 }]);
  });

  it('changing a TTL index expireAfterSeconds by createIndex is IndexOptionsConflict (85)', async () => {
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 60 });
    const e = await serverError(c.createIndex({ at: 1 }, { expireAfterSeconds: 120 }));
    expect([e.code, e.codeName]).toEqual([85, 'IndexOptionsConflict']);
  });

  it('conflicting update operators are ConflictingUpdateOperators (40)', async () => {
    const e = await serverError(c.updateOne({ _id: 1 }, { $set: { n: 2 }, $inc: { n: 1 } }));
    expect(e.code).toBe(40); // a write error: code and errmsg, no codeName (as mongod sends)
    const nested = await serverError(c.updateOne({ _id: 1 }, { $set: { 'x.y': 2 }, $unset: { x: '' } }));
    expect(nested.code).toBe(40);
  });

  it('a projection mixing inclusion and exclusion is 31254', async () => {
    const e = await serverError(c.find({}, { projection: { a: 1, s: 0 } }).toArray());
    expect(e.code).toBe(31254);
    // _id may be excluded from an inclusion projection.
    expect(await c.findOne({ _id: 1 }, { projection: { _id: 0, a: 1 } })).toEqual({ a: 5 });
  });

  it('$inc on a string is TypeMismatch (14) and changes nothing', async () => {
    const e = await serverError(c.updateOne({ _id: 1 }, { $inc: { s: 1 } }));
    expect(e.code).toBe(14);
    expect((await c.findOne({ _id: 1 }))!.s).toBe('text');
  });

  it('$in, $nin and $all with an argument that is not an array are BadValue (2), on _id, indexed and other fields, and in counts', async () => {
    await c.createIndex({ n: 1 });
    const raw = db.collection('errors'); // untyped: these filters are what the driver's types refuse
    const cases: Array<[Document, string]> = [
      [{ _id: { $in: 'x' } }, '$in'],
      [{ _id: { $in: 1 } }, '$in'],
      [{ n: { $in: 'x' } }, '$in'],
      [{ name: { $in: { $gt: 1 } } }, '$in'],
      [{ n: { $nin: 'x' } }, '$nin'],
      [{ a: { $all: 'x' } }, '$all'],
      [{ arr: { $elemMatch: { $in: 3 } } }, '$in'],
    ];
    for (const [filter, op] of cases) {
      // One at a time: a request sent before the previous one's error is awaited could reject unhandled meanwhile.
      for (const send of [
        () => raw.find(filter).toArray(),
        () => raw.countDocuments(filter),
        () => raw.aggregate([{ $match: filter }]).toArray(),
      ]) {
        const e = await serverError(send());
        expect([e.code, e.codeName, e.message]).toEqual([2, 'BadValue', `${op} needs an array`]);
      }
    }
  });

  it('$set through a scalar is PathNotViable (28) and changes nothing', async () => {
    const e = await serverError(c.updateOne({ _id: 1 }, { $set: { 'a.b': 1 } }));
    expect(e.code).toBe(28);
    expect((await c.findOne({ _id: 1 }))!.a).toBe(5);
  });

  it('a hint naming no index is BadValue (2); an existing index name or key pattern is accepted', async () => {
    for (const p of [
      c.find({}, { hint: 'nope_1' }).toArray(),
      c.countDocuments({}, { hint: { nope: 1 } }),
      c.updateOne({ _id: 1 }, { $set: { n: 3 } }, { hint: 'nope_1' }),
      c.deleteOne({ _id: 9 }, { hint: { nope: 1 } }),
    ]) {
      const e = await serverError(p);
      expect(e.code).toBe(2);
      expect(e.message).toMatch(/hint provided does not correspond to an existing index/);
    }
    expect(await c.find({}, { hint: '_id_' }).toArray()).toHaveLength(1);
    expect(await c.find({}, { hint: { _id: 1 } }).toArray()).toHaveLength(1);
  });
});

describe('collation', () => {
  let c: Collection<Doc>;
  beforeAll(async () => {
    c = db.collection<Doc>('collation');
    await c.insertMany([
      { _id: 1, x: 'ping' },
      { _id: 2, x: 'PING' },
      { _id: 3, x: 'pîng' },
      { _id: 4, x: 'pong' },
    ]);
  });

  it('MongoDB locale names are accepted and strengths 1-3 decide equality', async () => {
    const ids = async (strength: number) =>
      (await c.find({ x: 'ping' }, { collation: { locale: 'en_US', strength }, sort: { _id: 1 } }).toArray()).map(
        (d) => d._id,
      );
    expect(await ids(1)).toEqual([1, 2, 3]);
    expect(await ids(2)).toEqual([1, 2]);
    expect(await ids(3)).toEqual([1]);
    expect(await c.countDocuments({ x: { $in: ['PONG'] } }, { collation: { locale: 'fr', strength: 2 } })).toBe(1);
  });

  it('distinct folds values equal under the collation', async () => {
    expect(await c.distinct('x', {}, { collation: { locale: 'en_US', strength: 1 } })).toEqual(['ping', 'pong']);
  });

  it('updates and deletes match with the collation', async () => {
    const r = await c.updateMany({ x: 'PING' }, { $set: { seen: true } }, { collation: { locale: 'en', strength: 2 } });
    expect(r.matchedCount).toBe(2);
  });

  it('an unknown locale is refused', async () => {
    const e = await serverError(c.find({ x: 'ping' }, { collation: { locale: 'xx_NOPE_1234' } }).toArray());
    expect(e.code).toBe(2);
  });
});

describe('BSON order in aggregate $sort at any position', () => {
  it('ObjectId sorts before Date, and strings by UTF-8 bytes, after $project/$addFields/$lookup as at the start', async () => {
    const { ObjectId } = await import('mongodb');
    const c = db.collection<Doc>('order');
    const oid = new ObjectId();
    await c.insertMany([
      { _id: 1, v: new Date(0) },
      { _id: 2, v: oid },
      { _id: 3, v: '\u{1F600}' }, // astral: UTF-8 F0.., after U+FFFD in byte order
      { _id: 4, v: '\uFFFD' },
      { _id: 5, v: 7 },
    ]);
    const expected = [5, 4, 3, 2, 1]; // numbers, strings (U+FFFD < U+1F600), ObjectId, Date
    for (const prefix of [
      [],
      [{ $project: { v: 1 } }],
      [{ $addFields: { w: 1 } }, { $match: {} }],
      [{ $lookup: { from: 'order', localField: '_id', foreignField: '_id', as: 'self' } }],
    ]) {
      const ids = (await c.aggregate([...prefix, { $sort: { v: 1 } }]).toArray()).map((d) => d._id);
      expect(ids).toEqual(expected);
    }
  });
});

describe('$min and $max in BSON order across types', () => {
  it('update operators: ObjectId < Date, strings by UTF-8 bytes, numbers < strings, null lowest', async () => {
    const { ObjectId } = await import('mongodb');
    const c = db.collection<Doc>('minmaxops');
    const oid = new ObjectId();
    await c.insertOne({ _id: 1, d: new Date(0), o: oid, s: '\uFFFD', n: 5, m: 5, z: 5, arr: [1, 2] });
    await c.updateOne(
      { _id: 1 },
      { $max: { d: oid, s: '\u{1F600}', n: 'a', arr: [1, 3] }, $min: { o: new Date(0), m: 'a', z: null } },
    );
    const doc = await c.findOne({ _id: 1 });
    expect(doc).toEqual({ _id: 1, d: new Date(0), o: oid, s: '\u{1F600}', n: 'a', m: 5, z: null, arr: [1, 3] });
  });

  it('$group and expression $min/$max: BSON order, null and missing ignored', async () => {
    const { ObjectId } = await import('mongodb');
    const c = db.collection<Doc>('minmaxgroup');
    const oid = new ObjectId();
    await c.insertMany([
      { _id: 1, g: 1, v: 5 },
      { _id: 2, g: 1, v: 'a' },
      { _id: 3, g: 1, v: null },
      { _id: 4, g: 1, v: new Date(0) },
      { _id: 5, g: 1, v: oid },
      { _id: 6, g: 1, v: true },
      { _id: 7, g: 1, v: [1] },
      { _id: 8, g: 1, v: { x: 1 } },
      { _id: 9, g: 1 },
      { _id: 10, g: 2, v: '\uFFFD' },
      { _id: 11, g: 2, v: '\u{1F600}' },
      { _id: 12, g: 3, v: null },
    ]);
    const groups = await c
      .aggregate([{ $group: { _id: '$g', mn: { $min: '$v' }, mx: { $max: '$v' } } }, { $sort: { _id: 1 } }])
      .toArray();
    expect(groups).toEqual([
      { _id: 1, mn: 5, mx: new Date(0) },
      { _id: 2, mn: '\uFFFD', mx: '\u{1F600}' },
      { _id: 3, mn: null, mx: null },
    ]);
    const [e] = await c
      .aggregate([
        { $match: { _id: 1 } },
        { $project: { _id: 0, mx: { $max: [oid, new Date(0)] }, mn: { $min: [oid, new Date(0), null] } } },
      ])
      .toArray();
    expect(e).toEqual({ mx: new Date(0), mn: oid });
  });
});

describe('numeric types survive updates', () => {
  it('Long, Double, Decimal128 and Int32 keep their BSON types when a document is rewritten', async () => {
    const { Decimal128, Double, Int32, Long } = await import('mongodb');
    const c = db.collection<Doc>('types');
    await c.insertOne({
      _id: 1,
      l: Long.fromNumber(5),
      d: new Double(2),
      dec: Decimal128.fromString('1.5'),
      i: new Int32(7),
      big: new Int32(2147483647),
      nested: { d: new Double(4) },
      arr: [new Double(1), Long.fromNumber(2)],
    });
    await c.updateOne({ _id: 1 }, { $set: { touched: true } });
    await c.updateOne({ _id: 1 }, { $inc: { l: 1, d: 1, big: 1 } });
    const raw = await c.findOne({ _id: 1 }, { promoteValues: false });
    const type = (v: unknown) => (v as { _bsontype?: string })._bsontype;
    expect([
      type(raw!.l),
      type(raw!.d),
      type(raw!.dec),
      type(raw!.i),
      type(raw!.big),
      type(raw!.nested.d),
      type(raw!.arr[0]),
      type(raw!.arr[1]),
    ]).toEqual(['Long', 'Double', 'Decimal128', 'Int32', 'Long', 'Double', 'Double', 'Long']);
    expect([String(raw!.l), Number(raw!.d), Number(raw!.big)]).toEqual(['6', 3, 2147483648]);
    // $type answers from the stored type.
    const count = (f: Doc | object) => c.countDocuments(f);
    expect(
      await Promise.all([
        count({ d: { $type: 'int' } }),
        count({ d: { $type: 'double' } }),
        count({ l: { $type: 'long' } }),
        count({ i: { $type: 'int' } }),
        count({ i: { $type: 'number' } }),
        count({ 'nested.d': { $type: ['double'] } }),
        count({ arr: { $type: 'long' } }),
      ]),
    ).toEqual([0, 1, 1, 1, 1, 1, 1]);
    // A no-op update rewrites nothing, so it modifies nothing; setting an equal value of another type is a change (MongoDB compares types too).
    expect((await c.updateOne({ _id: 1 }, { $set: { l: Long.fromNumber(6) } })).modifiedCount).toBe(0);
    expect((await c.updateOne({ _id: 1 }, { $set: { l: 6 } })).modifiedCount).toBe(1);
    expect(type((await c.findOne({ _id: 1 }, { promoteValues: false }))!.l)).toBe('Int32');
  });

  describe('values sent in an update keep the BSON type they were sent with', () => {
    const type = (v: unknown) => (v as { _bsontype?: string } | undefined)?._bsontype ?? typeof v;
    const typesOf = async (c: Collection<Doc>, id: number, paths: string[]) => {
      const raw = await c.findOne({ _id: id }, { promoteValues: false });
      return paths.map((p) => type(p.split('.').reduce<any>((d, k) => d?.[k], raw)));
    };

    it('$set, $setOnInsert, replacements and upserts', async () => {
      const { Decimal128, Double, Int32, Long } = await import('mongodb');
      const c = db.collection<Doc>('senttypes');
      await c.insertOne({ _id: 1, x: 1 });
      await c.updateOne(
        { _id: 1 },
        {
          $set: {
            d: new Double(1),
            l: Long.fromNumber(5),
            i: new Int32(3),
            dec: Decimal128.fromString('1.5'),
            o: { d: new Double(2), arr: [new Double(4), 5] },
            'p.q': new Double(3),
          },
        },
      );
      expect(await typesOf(c, 1, ['d', 'l', 'i', 'dec', 'o.d', 'o.arr.0', 'o.arr.1', 'p.q', 'x'])).toEqual([
        'Double',
        'Long',
        'Int32',
        'Decimal128',
        'Double',
        'Double',
        'Int32',
        'Double',
        'Int32',
      ]);
      const count = (f: object) => c.countDocuments(f);
      expect(
        await Promise.all([
          count({ d: { $type: 'double' } }),
          count({ d: { $type: 'int' } }),
          count({ l: { $type: 'long' } }),
          count({ 'p.q': { $type: 'double' } }),
        ]),
      ).toEqual([1, 0, 1, 1]);

      await c.replaceOne({ _id: 1 }, { d: new Double(1), l: Long.fromNumber(2), arr: [new Double(3)], i: 4 });
      expect(await typesOf(c, 1, ['d', 'l', 'arr.0', 'i'])).toEqual(['Double', 'Long', 'Double', 'Int32']);

      await c.updateOne(
        { _id: 2, l: Long.fromNumber(3) },
        { $set: { d: new Double(2) }, $setOnInsert: { s: Long.fromNumber(4) } },
        { upsert: true },
      );
      expect(await typesOf(c, 2, ['l', 'd', 's'])).toEqual(['Long', 'Double', 'Long']);
      await c.replaceOne({ _id: 3 }, { d: new Double(1) }, { upsert: true });
      expect(await typesOf(c, 3, ['d'])).toEqual(['Double']);
      await c.findOneAndUpdate({ _id: 4 }, { $set: { d: new Double(7) } }, { upsert: true });
      await c.findOneAndUpdate({ _id: 1 }, { $set: { e: new Double(8) } });
      await c.findOneAndReplace({ _id: 3 }, { l: Long.fromNumber(1) });
      expect([
        ...(await typesOf(c, 4, ['d'])),
        ...(await typesOf(c, 1, ['e'])),
        ...(await typesOf(c, 3, ['l'])),
      ]).toEqual(['Double', 'Double', 'Long']);
      // findAndModify returns the document with its stored types, before and after.
      const after = await c.findOneAndUpdate(
        { _id: 1 },
        { $set: { f: new Double(9) } },
        { returnDocument: 'after', promoteValues: false },
      );
      const beforeDoc = await c.findOneAndUpdate(
        { _id: 1 },
        { $set: { g: 1 } },
        { returnDocument: 'before', promoteValues: false },
      );
      const removed = await c.findOneAndDelete({ _id: 4 }, { promoteValues: false });
      expect([type(after!.f), type(after!.l), type(beforeDoc!.f), type(removed!.d)]).toEqual([
        'Double',
        'Long',
        'Double',
        'Double',
      ]);
      // A pipeline update's literal numbers keep their types too.
      await c.updateOne({ _id: 2 }, [{ $set: { p: new Double(5), q: Long.fromNumber(6) } }]);
      expect(await typesOf(c, 2, ['p', 'q', 'l'])).toEqual(['Double', 'Long', 'Long']);
    });

    it('$inc and $mul widen the type (decimals exactly), $min/$max take the winner type, $rename keeps it', async () => {
      const { Double, Int32, Long } = await import('mongodb');
      const c = db.collection<Doc>('arithtypes');
      await c.insertOne({
        _id: 1,
        a: new Int32(1),
        b: new Int32(1),
        c: Long.fromNumber(1),
        m: new Int32(3),
        lo: new Int32(5),
        hi: new Int32(5),
        r: Long.fromNumber(9),
      });
      await c.updateOne(
        { _id: 1 },
        {
          $inc: { a: Long.fromNumber(1), b: new Double(1), c: 1, missing: Long.fromNumber(1) },
          $mul: { m: new Double(2) },
          $max: { hi: Long.fromNumber(100) },
          $min: { lo: new Double(5) },
          $rename: { r: 'renamed' },
        },
      );
      expect(await typesOf(c, 1, ['a', 'b', 'c', 'missing', 'm', 'hi', 'lo', 'renamed'])).toEqual([
        'Long',
        'Double',
        'Long',
        'Long',
        'Double',
        'Long',
        'Int32',
        'Long',
      ]);
      const raw = await c.findOne({ _id: 1 });
      expect([raw!.a, raw!.b, raw!.c, raw!.m, raw!.hi, raw!.lo]).toEqual([2, 2, 2, 6, 100, 5]);
      // Decimal128 arithmetic is decimal: exact, and a decimal with any number gives a decimal.
      const { Decimal128 } = await import('mongodb');
      await c.updateOne({ _id: 1 }, { $set: { dec: Decimal128.fromString('1.5'), one: new Int32(1) } });
      await c.updateOne(
        { _id: 1 },
        {
          $inc: { dec: 1, one: Decimal128.fromString('0.1'), newdec: Decimal128.fromString('0.2') },
          $mul: { a: Decimal128.fromString('1.5') },
        },
      );
      const dec = await c.findOne({ _id: 1 });
      expect([String(dec!.dec), String(dec!.one), String(dec!.newdec), String(dec!.a)]).toEqual([
        '2.5',
        '1.1',
        '0.2',
        '3.0',
      ]);
      expect(await typesOf(c, 1, ['dec', 'one', 'newdec', 'a'])).toEqual([
        'Decimal128',
        'Decimal128',
        'Decimal128',
        'Decimal128',
      ]);
    });

    it('array operators, positional updates and client bulkWrite keep sent types', async () => {
      const { Double, Int32, Long } = await import('mongodb');
      const c = db.collection('arraytypes') as unknown as Collection<Doc>;
      const loose = db.collection<{ _id: number }>('arraytypes'); // array operators on a loose schema
      await c.insertOne({ _id: 1, arr: [new Int32(1), Long.fromNumber(3)], objs: [{ q: 1 }] });
      await loose.updateOne(
        { _id: 1 },
        { $push: { arr: { $each: [new Double(2), Long.fromNumber(7)] }, objs: { q: new Double(5) } } },
      );
      expect(await typesOf(c, 1, ['arr.0', 'arr.1', 'arr.2', 'arr.3', 'objs.0.q', 'objs.1.q'])).toEqual([
        'Int32',
        'Long',
        'Double',
        'Long',
        'Int32',
        'Double',
      ]);
      await c.updateOne({ _id: 1, arr: 3 }, { $set: { 'arr.$': new Double(9) } });
      await loose.updateOne({ _id: 1 }, { $addToSet: { arr: new Double(11) }, $pull: { objs: { q: 1 } } });
      expect(await typesOf(c, 1, ['arr.0', 'arr.1', 'arr.2', 'arr.3', 'arr.4', 'objs.0.q'])).toEqual([
        'Int32',
        'Double',
        'Double',
        'Long',
        'Double',
        'Double',
      ]);

      await ctx.client.bulkWrite<{ [ns: string]: Doc }>([
        {
          name: 'insertOne',
          namespace: `${db.databaseName}.arraytypes`,
          document: { _id: 2, d: new Double(1), l: Long.fromNumber(2) },
        },
        {
          name: 'updateOne',
          namespace: `${db.databaseName}.arraytypes`,
          filter: { _id: 2 },
          update: { $set: { e: new Double(3) } },
        },
      ]);
      expect(await typesOf(c, 2, ['d', 'l', 'e'])).toEqual(['Double', 'Long', 'Double']);
    });
  });
});

describe('numbers as keys: equal by value across Int32, Long, Double and Decimal128', () => {
  it('an _id or unique value equal to a stored one of another numeric type is a duplicate; distinct Longs past 2^53 are distinct', async () => {
    const { Decimal128, Long, Int32 } = await import('bson');
    let c = db.collection<{ _id: unknown; [k: string]: unknown }>('numkeys');
    const dup = async (doc: { _id: unknown; [k: string]: unknown }): Promise<number | undefined> =>
      c.insertOne(doc).then(
        () => undefined,
        (e: MongoServerError) => Number(e.code),
      );
    await c.insertOne({ _id: 5 });
    expect(await dup({ _id: Decimal128.fromString('5') })).toBe(11000);
    expect(await dup({ _id: Decimal128.fromString('5.000') })).toBe(11000);
    expect(await dup({ _id: new Int32(5) })).toBe(11000);
    expect(await dup({ _id: Long.fromNumber(5) })).toBe(11000);
    await c.insertOne({ _id: 2 ** 53 + 2 });
    expect(await dup({ _id: Long.fromString('9007199254740994') })).toBe(11000);
    // Long(2^53+4) and Long(2^53+5) are distinct values (no double holds 2^53+5).
    await c.insertOne({ _id: Long.fromString('9007199254740996') });
    expect(await dup({ _id: Long.fromString('9007199254740997') })).toBeUndefined();
    expect(await dup({ _id: Decimal128.fromString('9007199254740997') })).toBe(11000);
    // Decimal128 0.1 is not the double 0.1 (0.1000000000000000055…), but equals Decimal128 0.10.
    await c.insertOne({ _id: 0.1 });
    expect(await dup({ _id: Decimal128.fromString('0.1') })).toBeUndefined();
    expect(await dup({ _id: Decimal128.fromString('0.10') })).toBe(11000);
    expect(await dup({ _id: Decimal128.fromString('0.5') })).toBeUndefined();
    expect(await dup({ _id: 0.5 })).toBe(11000);
    expect(await c.countDocuments({})).toBe(7);
    expect((await c.findOne({ _id: Long.fromString('9007199254740997') }))?._id).toEqual(
      Long.fromString('9007199254740997'),
    );
    // The same in a unique secondary index.
    c = db.collection('numkeys-unique');
    await c.createIndex({ n: 1 }, { unique: true });
    await c.insertOne({ _id: 'a', n: 7 });
    expect(await dup({ _id: 'b', n: Decimal128.fromString('7.0') })).toBe(11000);
    expect(await dup({ _id: 'c', n: Long.fromString('9007199254740997') })).toBeUndefined();
    expect(await dup({ _id: 'd', n: Long.fromString('9007199254740996') })).toBeUndefined();
    expect(await dup({ _id: 'e', n: 2 ** 53 + 4 })).toBe(11000);
  });
});

describe('views', () => {
  it('reads run the view pipeline over its source; writes are refused with 166', async () => {
    const src = db.collection<Doc>('viewsrc');
    await src.insertMany([
      { _id: 1, k: 'a' },
      { _id: 2, k: 'b' },
      { _id: 3, k: 'b' },
    ]);
    await db.createCollection('bview', { viewOn: 'viewsrc', pipeline: [{ $match: { k: 'b' } }] });
    const v = db.collection<Doc>('bview');
    expect(await v.estimatedDocumentCount()).toBe(2);
    expect(await v.countDocuments({ _id: { $gt: 2 } })).toBe(1);
    expect(await v.find({}, { sort: { _id: -1 }, projection: { k: 0 } }).toArray()).toEqual([{ _id: 3 }, { _id: 2 }]);
    expect((await db.listCollections({ name: 'bview' }).toArray())[0]!.type).toBe('view');
    const e = await serverError(v.insertOne({ _id: 9, k: 'b' }));
    expect(e.code).toBe(166);
  });
});

describe('counts answered from indexes keep these semantics', () => {
  let c: Collection<Doc>;
  beforeAll(async () => {
    c = db.collection<Doc>('indexcounts');
    await c.createIndex({ k: 1 });
    await c.insertMany([
      { _id: 1, k: 'b', shown: true },
      { _id: 2, k: 'b', shown: false },
      { _id: 3, k: 'B', shown: true },
      { _id: 4, k: 'a', shown: true },
    ]);
    await db.createCollection('shownview', { viewOn: 'indexcounts', pipeline: [{ $match: { shown: true } }] });
  });

  it('a count on a view runs its pipeline, though the filter alone could be counted from the index', async () => {
    const v = db.collection<Doc>('shownview');
    expect(await c.countDocuments({ k: 'b' })).toBe(2);
    expect(await v.countDocuments({ k: 'b' })).toBe(1);
    expect(await v.countDocuments({})).toBe(3);
    expect(await v.countDocuments({ _id: { $in: [1, 2] } })).toBe(1);
    expect((await db.command({ count: 'shownview', query: { k: 'b' } })).n).toBe(1);
    expect(await v.aggregate([{ $match: { k: { $in: ['a', 'b'] } } }, { $count: 'n' }]).toArray()).toEqual([{ n: 2 }]);
  });

  it('a collation makes the count match documents (the index holds binary keys)', async () => {
    const collation = { locale: 'en', strength: 2 };
    expect(await c.countDocuments({ k: 'b' }, { collation })).toBe(3);
    expect((await db.command({ count: 'indexcounts', query: { k: 'b' }, collation })).n).toBe(3);
  });

  it('a hint naming no index is refused before the index answers', async () => {
    const e = await serverError(c.countDocuments({ k: 'b' }, { hint: 'nope_1' }));
    expect(e.code).toBe(2);
  });

  it('$out and $merge write in the command (index counts follow), and a failed $out keeps the target', async () => {
    const target = db.collection<Doc>('outtarget');
    await target.createIndex({ k: 1 }, { unique: true });
    await c.aggregate([{ $match: { shown: true } }, { $project: { k: 1 } }, { $out: 'outtarget' }]).toArray();
    expect(await target.countDocuments({ k: { $in: ['a', 'b', 'B'] } })).toBe(3);
    await c.aggregate([{ $match: { _id: 2 } }, { $set: { k: 'c' } }, { $merge: { into: 'outtarget' } }]).toArray();
    expect(await target.countDocuments({ k: 'c' })).toBe(1);
    // Two documents with the same k break the unique index: nothing of the $out is kept.
    await serverError(c.aggregate([{ $match: { k: 'b' } }, { $out: 'outtarget' }]).toArray());
    expect((await target.find({}, { sort: { _id: 1 } }).toArray()).map((d) => d._id)).toEqual([1, 2, 3, 4]);
    expect(await target.countDocuments({ k: 'c' })).toBe(1);
  });
});

describe('document validation and collMod', () => {
  it('a validator refuses a document with 121 and errInfo; bypassDocumentValidation, moderate and warn let it through', async () => {
    await db.createCollection('validated', { validator: { email: { $type: 'string' } } });
    const c = db.collection<Doc>('validated');
    await c.insertOne({ _id: 1, email: 'a@x.com' });
    const e = await serverError(c.insertOne({ _id: 2, email: 5 }));
    expect(e.code).toBe(121);
    expect(e.errInfo).toMatchObject({ failingDocumentId: 2, details: { operatorName: '$and' } });
    expect((await serverError(c.updateOne({ _id: 1 }, { $set: { email: 7 } }))).code).toBe(121);
    expect((await serverError(c.findOneAndUpdate({ _id: 1 }, { $unset: { email: '' } }))).code).toBe(121);
    expect((await serverError(c.updateOne({ _id: 3 }, { $set: { n: 1 } }, { upsert: true }))).code).toBe(121);
    expect(await c.countDocuments({})).toBe(1);
    await c.insertOne({ _id: 4, email: 4 }, { bypassDocumentValidation: true });
    // Level moderate: a document that was already invalid may be updated; a valid one may not become invalid.
    await db.command({ collMod: 'validated', validationLevel: 'moderate' });
    expect((await c.updateOne({ _id: 4 }, { $set: { n: 1 } })).modifiedCount).toBe(1);
    expect((await serverError(c.updateOne({ _id: 1 }, { $set: { email: 8 } }))).code).toBe(121);
    await db.command({ collMod: 'validated', validationAction: 'warn' });
    await c.insertOne({ _id: 5, email: 5 });
    const [info] = await db.listCollections({ name: 'validated' }).toArray();
    expect((info as { options: object }).options).toEqual({
      validator: { email: { $type: 'string' } },
      validationLevel: 'moderate',
      validationAction: 'warn',
    });
  });

  it('collMod adds a validator, changes a TTL index, and refuses what it does not know', async () => {
    const c = db.collection<Doc>('modded');
    await c.insertOne({ _id: 1, n: 1 });
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 60 });
    await db.command({ collMod: 'modded', validator: { n: { $gte: 0 } } });
    expect((await serverError(c.insertOne({ _id: 2, n: -1 }))).code).toBe(121);
    const r = await db.command({ collMod: 'modded', index: { keyPattern: { at: 1 }, expireAfterSeconds: 120 } });
    expect([r.expireAfterSeconds_old, r.expireAfterSeconds_new]).toEqual([60, 120]);
    expect((await c.indexes()).find((i) => i.name === 'at_1')!.expireAfterSeconds).toBe(120);
    expect((await serverError(db.command({ collMod: 'modded', nonsense: 1 }))).code).toBe(40415);
    expect((await serverError(db.command({ collMod: 'nosuchcollection', validator: {} }))).code).toBe(26);
  });
});

describe('capped collections', () => {
  it('keep the newest documents within size and max, in insertion order; $collStats reports the cap', async () => {
    await db.createCollection('capped', { capped: true, size: 4096, max: 3 });
    const c = db.collection<Doc>('capped');
    for (let i = 1; i <= 5; i++) await c.insertOne({ _id: i });
    expect((await c.find().toArray()).map((d) => d._id)).toEqual([3, 4, 5]);
    await c.insertMany(Array.from({ length: 40 }, (_, i) => ({ _id: 100 + i, pad: 'x'.repeat(200) })));
    const [stats] = await c.aggregate([{ $collStats: { storageStats: {}, count: {} } }]).toArray();
    expect(stats).toMatchObject({ count: 3, storageStats: { capped: true, maxSize: 4096, max: 3, count: 3 } });
    expect((await c.find().toArray()).map((d) => d._id)).toEqual([137, 138, 139]);
    // By size alone: a 4096-byte cap holds what fits, the oldest deleted first.
    await db.createCollection('cappedbysize', { capped: true, size: 1000 });
    const s = db.collection<Doc>('cappedbysize');
    await s.insertMany(Array.from({ length: 30 }, (_, i) => ({ _id: i, pad: 'y'.repeat(200) })));
    const ids = (await s.find().toArray()).map((d) => d._id);
    expect(ids.length).toBeLessThan(30);
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => 30 - ids.length + i));
    const [st] = await s.aggregate([{ $collStats: { storageStats: {} } }]).toArray();
    expect(st!.storageStats.size).toBeLessThanOrEqual(4096);
    expect(st!.storageStats.maxSize).toBe(4096);
    expect((await serverError(db.createCollection('cappednosize', { capped: true }))).code).toBe(72);
  });
});
