// A large insert runs as several write transactions with turns of the event loop between them
// (commands/insertChunks.ts), so reads from other connections are answered while it proceeds. Seen from a
// client, the command is the same: every document inserted, `n` and write errors (with their indexes in
// the whole batch) as one transaction would give, an ordered insert stopping at its first error. Engine
// internals (transactions are counted through the oplog listener), so only against the embedded engine.
import { MongoClient } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

function defineTests(): void {
  let engine: RunningEngine;
  let client: MongoClient;
  let other: MongoClient;
  /** Sizes (records) of the write transactions committed since the last reset. */
  let commits: number[] = [];

  beforeAll(async () => {
    engine = await startEngine({ port: 0 });
    engine.changes.onChanges((records) => commits.push(records.length));
    client = new MongoClient(engine.uri);
    other = new MongoClient(engine.uri);
    await Promise.all([client.connect(), other.connect()]);
  });
  afterAll(async () => {
    await Promise.all([client?.close(), other?.close()]);
    await engine?.close();
  });
  beforeEach(() => (commits = []));

  const docs = (n: number, from = 0): Array<{ _id: number; body: string }> =>
    Array.from({ length: n }, (_, i) => ({ _id: from + i, body: 'x'.repeat(2000) }));

  it('inserts every document of a large batch in several transactions', async () => {
    const c = client.db('chunks').collection<{ _id: number; body: string }>('all');
    const res = await c.insertMany(docs(3000));
    expect(res.insertedCount).toBe(3000);
    expect(await c.countDocuments()).toBe(3000);
    expect(commits.length).toBeGreaterThan(1);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(3000 + 1); // the documents and the collection's creation
  });

  it('answers a read on another connection before a large insert has finished', async () => {
    const c = client.db('chunks').collection<{ _id: number; body: string }>('interleaved');
    await c.insertOne({ _id: -1, body: '' });
    const order: string[] = [];
    const insert = c.insertMany(docs(5000)).then(() => order.push('insert'));
    // The read is sent once the insert's first transaction has committed, i.e. while it is under way.
    await new Promise<void>((resolve) => {
      const off = engine.changes.onChanges(() => {
        off();
        resolve();
      });
    });
    const read = other
      .db('chunks')
      .collection<{ _id: number }>('interleaved')
      .findOne({ _id: -1 })
      .then(() => order.push('read'));
    await Promise.all([insert, read]);
    expect(order).toEqual(['read', 'insert']);
  });

  it('stops an ordered insert at its first error, with the index in the whole batch', async () => {
    const c = client.db('chunks').collection<{ _id: number; body: string }>('ordered');
    await c.insertOne({ _id: 2500, body: '' });
    const err = (await c.insertMany(docs(3000)).catch((e: unknown) => e)) as {
      code?: number;
      result?: { insertedCount: number };
      writeErrors?: unknown;
    };
    expect(err.code).toBe(11000);
    const errors = [(err as { writeErrors: { index: number } | Array<{ index: number }> }).writeErrors].flat();
    expect(errors.map((e) => e.index)).toEqual([2500]);
    expect(await c.countDocuments()).toBe(2501);
    expect(await c.countDocuments({ _id: { $gt: 2500 } })).toBe(0);
  });

  it('goes on past errors in an unordered insert and reports each at its index', async () => {
    const c = client.db('chunks').collection<{ _id: number; body: string }>('unordered');
    await c.insertMany([
      { _id: 100, body: '' },
      { _id: 2900, body: '' },
    ]);
    const err = (await c.insertMany(docs(3000), { ordered: false }).catch((e: unknown) => e)) as {
      writeErrors: unknown;
    };
    const errors = [err.writeErrors].flat() as Array<{ index: number; code: number }>;
    expect(errors.map((e) => [e.index, e.code])).toEqual([
      [100, 11000],
      [2900, 11000],
    ]);
    expect(await c.countDocuments()).toBe(3000);
  });
}
