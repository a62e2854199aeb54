// Change streams through the driver's watch() against the test server (the embedded engine, or a replica
// set at MONGODB_URI): event shapes, pipelines on events, resume tokens, awaitData, invalidate, history lost.
import {
  MongoServerError,
  Timestamp,
  type ChangeStream,
  type ChangeStreamDocument,
  type Collection,
  type Db,
  type Document,
} from 'mongodb';
import { openTestDb } from './helpers/db.js';

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await openTestDb('changes'));
});
afterAll(() => close());

/** The next `n` events of a stream (awaits across getMores). */
async function take<T extends Document>(stream: ChangeStream<T>, n: number): Promise<ChangeStreamDocument<T>[]> {
  const out: ChangeStreamDocument<T>[] = [];
  while (out.length < n) out.push(await stream.next());
  return out;
}

/** Opens the stream on the server before anything is written (watch() is lazy). */
async function opened<T extends Document>(stream: ChangeStream<T>): Promise<ChangeStream<T>> {
  await stream.tryNext();
  return stream;
}

describe('collection watch', () => {
  let coll: Collection<{ _id: number; n?: number; s?: string; sub?: { a: number } }>;
  beforeAll(() => {
    coll = db.collection('items');
  });

  test('insert, update, replace and delete arrive in order with MongoDB shapes', async () => {
    const stream = await opened(coll.watch([], { fullDocument: 'updateLookup' }));
    await coll.insertOne({ _id: 1, n: 1, sub: { a: 1 } });
    await coll.updateOne({ _id: 1 }, { $inc: { n: 1 }, $set: { 'sub.a': 2 } });
    await coll.replaceOne({ _id: 1 }, { s: 'replaced' });
    await coll.deleteOne({ _id: 1 });
    const events = await take(stream, 4);
    await stream.close();
    expect(events.map((e) => e.operationType)).toEqual(['insert', 'update', 'replace', 'delete']);
    const [ins, upd, rep, del] = events as Document[];
    expect(ins).toMatchObject({
      ns: { db: db.databaseName, coll: 'items' },
      documentKey: { _id: 1 },
      fullDocument: { _id: 1, n: 1, sub: { a: 1 } },
    });
    expect(ins!.clusterTime).toBeInstanceOf(Timestamp);
    expect(ins!.wallTime).toBeInstanceOf(Date);
    expect(upd!.updateDescription).toEqual({
      updatedFields: { n: 2, 'sub.a': 2 },
      removedFields: [],
      truncatedArrays: [],
    });
    // updateLookup reads the document when the event is read: by then it has been deleted.
    expect(upd!.fullDocument).toBeNull();
    expect(rep!.fullDocument).toEqual({ _id: 1, s: 'replaced' });
    expect(del).toMatchObject({ documentKey: { _id: 1 } });
    expect(del!.fullDocument).toBeUndefined();
    const tokens = events.map((e) => JSON.stringify(e._id));
    expect(new Set(tokens).size).toBe(4);
  });

  test('whenAvailable post-images and pre-images on delete', async () => {
    const stream = await opened(
      coll.watch([], { fullDocument: 'whenAvailable', fullDocumentBeforeChange: 'whenAvailable' }),
    );
    await coll.insertOne({ _id: 2, n: 10 });
    await coll.updateOne({ _id: 2 }, { $set: { n: 11 } });
    await coll.deleteOne({ _id: 2 });
    const [, upd, del] = (await take(stream, 3)) as Document[];
    await stream.close();
    expect(upd!.fullDocument).toEqual({ _id: 2, n: 11 });
    expect(upd!.fullDocumentBeforeChange).toEqual({ _id: 2, n: 10 });
    expect(del!.fullDocumentBeforeChange).toEqual({ _id: 2, n: 11 });
  });

  test('$match and $project run on the events; the resume token must survive', async () => {
    const stream = await opened(
      coll.watch([
        { $match: { operationType: 'insert', 'fullDocument.n': { $gte: 5 } } },
        { $project: { 'fullDocument.n': 1, operationType: 1 } },
      ]),
    );
    await coll.insertMany([
      { _id: 3, n: 1 },
      { _id: 4, n: 7 },
    ]);
    await coll.deleteOne({ _id: 4 });
    await coll.insertOne({ _id: 5, n: 9 });
    const events = (await take(stream, 2)) as Document[];
    await stream.close();
    expect(events.map((e) => ({ op: e.operationType, doc: e.fullDocument }))).toEqual([
      { op: 'insert', doc: { n: 7 } },
      { op: 'insert', doc: { n: 9 } },
    ]);
    expect(events[0]!.ns).toBeUndefined();

    const bad = coll.watch([{ $project: { _id: 0 } }]);
    await bad.tryNext();
    await coll.insertOne({ _id: 6 });
    await expect(bad.next()).rejects.toMatchObject({ code: 280 });
    await bad.close();
    await expect(coll.watch([{ $group: { _id: null } }]).tryNext()).rejects.toBeInstanceOf(MongoServerError);
  });
});

describe('pipelines that read part of each event', () => {
  // The engine makes an event only as far as a stream's stages read it (its head alone, or the head first to test
  // the leading $match stages): whatever it makes, each stream must get what it would from the whole event.
  test('each stream gets what its stages make of the whole event', async () => {
    const mine = { 'ns.coll': 'parts_mine' };
    const watch = (pipeline: Document[]) => opened(db.watch(pipeline, { fullDocument: 'updateLookup' }));
    const [all, head, filtered, twoMatches, expr] = await Promise.all([
      watch([]),
      watch([{ $match: mine }, { $project: { ns: 1, operationType: 1, documentKey: 1 } }]),
      watch([{ $match: { $or: [mine, { operationType: { $nin: ['insert', 'update', 'replace', 'delete'] } }] } }]),
      watch([{ $match: mine }, { $match: { 'fullDocument.n': { $gte: 1 } } }]),
      watch([{ $match: { $expr: { $eq: ['$ns.coll', 'parts_mine'] } } }]),
    ]);
    for (const name of ['parts_other', 'parts_mine']) {
      const c = db.collection<{ _id: number; n: number; s?: string }>(name);
      await c.insertOne({ _id: 1, n: 1 });
      await c.updateOne({ _id: 1 }, { $set: { n: 2, s: 'x' } });
      await c.replaceOne({ _id: 1 }, { n: 3 });
      await c.deleteOne({ _id: 1 });
    }
    const every = (await take(all, 8)) as Document[];
    const expected = every.filter((e) => (e.ns as Document).coll === 'parts_mine');
    expect(expected.map((e) => e.operationType)).toEqual(['insert', 'update', 'replace', 'delete']);
    expect(await take(head, 4)).toEqual(
      expected.map(({ _id, ns, operationType, documentKey }) => ({ _id, operationType, ns, documentKey })),
    );
    expect(await take(filtered, 4)).toEqual(expected);
    // The update's lookup finds the document deleted (null): the insert and the replace are left.
    const withN = expected.filter((e) => typeof (e.fullDocument as Document | null)?.n === 'number');
    expect(withN.map((e) => e.operationType)).toEqual(['insert', 'replace']);
    expect(await take(twoMatches, 2)).toEqual(withN);
    expect(await take(expr, 4)).toEqual(expected);
    await Promise.all([all, head, filtered, twoMatches, expr].map((s) => s.close()));
  });
});

describe('resuming', () => {
  test('resumeAfter, startAfter and startAtOperationTime replay from the given point', async () => {
    const coll = db.collection<{ _id: number }>('resume');
    const first = await opened(coll.watch());
    await coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]);
    const seen = await take(first, 3);
    await first.close();

    const after1 = coll.watch([], { resumeAfter: seen[0]!._id });
    expect((await take(after1, 2)).map((e) => (e as Document).documentKey._id)).toEqual([2, 3]);
    await after1.close();
    const start1 = coll.watch([], { startAfter: seen[0]!._id });
    expect(((await start1.next()) as Document).documentKey._id).toBe(2);
    await start1.close();
    const atTime = coll.watch([], { startAtOperationTime: (seen[1] as Document).clusterTime });
    expect(((await atTime.next()) as Document).documentKey._id).toBe(2);
    await atTime.close();
  });

  test('a token older than the retained history, or from another history, is ChangeStreamHistoryLost (286)', async () => {
    const coll = db.collection<{ _id: number }>('lost');
    const first = await opened(coll.watch());
    await coll.insertOne({ _id: 1 });
    const data = String(((await first.next())._id as { _data: string })._data);
    await first.close();
    // The same history (the token's tail), a position long before it: that part is gone.
    const ancient = { _data: `0000000100000001${data.slice(16)}` };
    // A well-formed token from another history (as after an in-memory engine restarted).
    const foreign = { _data: `${data.slice(0, 16)}${data.slice(16, 24) === 'FFFFFFFF' ? '00000001' : 'FFFFFFFF'}00` };
    for (const resumeAfter of [ancient, foreign]) {
      const stream = coll.watch([], { resumeAfter });
      await expect(stream.tryNext()).rejects.toMatchObject({ code: 286 });
      await stream.close();
    }
    const malformed = coll.watch([], { resumeAfter: { _data: 'nonsense' } });
    await expect(malformed.tryNext()).rejects.toMatchObject({ code: 260 });
    await malformed.close();
  });

  test('getMore waits for data: a change made while the stream waits is delivered', async () => {
    const coll = db.collection<{ _id: number }>('await');
    const stream = await opened(coll.watch([], { maxAwaitTimeMS: 5000 }));
    const next = stream.next();
    setTimeout(() => void coll.insertOne({ _id: 42 }), 50);
    expect(((await next) as Document).documentKey).toEqual({ _id: 42 });
    await stream.close();
  });
});

describe('drops', () => {
  test('dropping the collection ends its stream with drop + invalidate; startAfter the invalidate opens a new one', async () => {
    const coll = db.collection<{ _id: number }>('doomed');
    await coll.insertOne({ _id: 0 });
    const stream = await opened(coll.watch());
    await coll.insertOne({ _id: 1 });
    await coll.drop();
    const events = await take(stream, 3);
    expect(events.map((e) => e.operationType)).toEqual(['insert', 'drop', 'invalidate']);
    expect(stream.closed).toBe(true);
    const invalidate = events[2]!._id;
    const resumed = coll.watch([], { resumeAfter: invalidate });
    await expect(resumed.tryNext()).rejects.toMatchObject({ code: 260 });
    await resumed.close();
    const restarted = coll.watch([], { startAfter: invalidate });
    await restarted.tryNext();
    await coll.insertOne({ _id: 2 });
    expect(((await restarted.next()) as Document).documentKey).toEqual({ _id: 2 });
    await restarted.close();
  });

  test('a database watch sees every collection and ends with dropDatabase + invalidate', async () => {
    const { db: other, close: closeOther } = await openTestDb('changes_db');
    const stream = await opened(other.watch([], { fullDocument: 'updateLookup' }));
    await other.collection('a').insertOne({ _id: 1 } as Document);
    await other.collection('b').insertOne({ _id: 2 } as Document);
    await other.dropDatabase();
    const events = (await take(stream, 6)) as Document[];
    expect(events.map((e) => `${e.operationType}:${e.ns?.coll ?? ''}`)).toEqual([
      'insert:a',
      'insert:b',
      'drop:a',
      'drop:b',
      'dropDatabase:',
      'invalidate:',
    ]);
    await stream.close();
    await closeOther();
  });
});

describe('a long history that a stream filters out', () => {
  test('is read in parts: other connections are answered meanwhile, and the wanted event still comes', async () => {
    const { db: other, client: second, close: closeOther } = await openTestDb('changes_backlog');
    const coll = other.collection<{ _id: number; wanted?: boolean; pad?: string }>('burst');
    const stream = await opened(coll.watch([{ $match: { 'fullDocument.wanted': true } }]));
    // A burst of writes the stream's $match drops, then the one it wants: long enough that reading it takes several
    // times as long as the ping may wait behind one read, on a fast machine as on a loaded one (8,000 writes were
    // read in 160 ms while the ping waited up to 110 ms, and the event came first under load).
    const pad = 'x'.repeat(2048);
    for (let i = 0; i < 24; i++)
      await coll.insertMany(Array.from({ length: 1000 }, (_, j) => ({ _id: i * 1000 + j, pad })));
    await coll.insertOne({ _id: -1, wanted: true });
    const order: string[] = [];
    const event = stream.next().then((e) => {
      order.push('event');
      return e as Document;
    });
    // Sent while the stream reads the burst: answered between two of its reads, not after all of them.
    await new Promise((r) => setTimeout(r, 5));
    await second.db('admin').command({ ping: 1 });
    order.push('ping');
    expect((await event).documentKey).toEqual({ _id: -1 });
    expect(order).toEqual(['ping', 'event']);
    await stream.close();
    await closeOther();
  }, 60_000);
});
