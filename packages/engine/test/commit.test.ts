// Write commands commit off the engine's event loop (storage/env.ts writeAsync: lmdb's write thread commits and
// flushes, the reply waits for the commit). What a client sees must not change: every acknowledged write is
// readable from any connection once acknowledged, a unique index admits each key once however writers race,
// a refused write leaves nothing behind, replies on one connection come in request order with each seeing the
// writes sent before it, and a read sent while an index is being created sees every document.
import { MongoClient, type Collection } from 'mongodb';
import { testMongoUri, uniqueDbName } from './helpers/db.js';
import { exchange, opMsg } from './helpers/raw-wire.js';

const dbName = uniqueDbName('commit');
const WRITERS = 4;
let clients: MongoClient[] = [];
let reader: MongoClient;

beforeAll(async () => {
  clients = Array.from({ length: WRITERS }, () => new MongoClient(testMongoUri(), { serverSelectionTimeoutMS: 5000 }));
  reader = new MongoClient(testMongoUri(), { serverSelectionTimeoutMS: 5000 });
  await Promise.all([...clients, reader].map((c) => c.connect()));
});
afterAll(async () => {
  await reader
    ?.db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await Promise.all([...clients, reader].map((c) => c?.close()));
});

interface Doc {
  _id: number;
  k: number;
  writer: number;
  n?: number;
  email?: string;
}

const coll = (client: MongoClient, name: string): Collection<Doc> => client.db(dbName).collection<Doc>(name);

it('makes every acknowledged write readable from another connection as soon as it is acknowledged', async () => {
  const seen: string[] = [];
  await Promise.all(
    clients.map(async (client, w) => {
      const c = coll(client, 'visible');
      const r = coll(reader, 'visible');
      for (let i = 0; i < 40; i++) {
        const _id = w * 1000 + i;
        await c.insertOne({ _id, k: _id, writer: w, n: 0 });
        if ((await r.findOne({ _id }))?.n !== 0) seen.push(`insert ${_id} not visible`);
        await c.updateOne({ _id }, { $inc: { n: 1 } });
        if ((await r.findOne({ _id }))?.n !== 1) seen.push(`update ${_id} not visible`);
        if (i % 4 === 0) {
          await c.deleteOne({ _id });
          if ((await r.findOne({ _id })) !== null) seen.push(`delete ${_id} not visible`);
        }
      }
    }),
  );
  expect(seen).toEqual([]);
  expect(await coll(reader, 'visible').countDocuments()).toBe(WRITERS * 30);
});

it('admits each unique key once when writers on several connections race for the same keys', async () => {
  const name = 'race';
  await coll(reader, name).createIndex({ k: 1 }, { unique: true });
  const KEYS = 150;
  const results = await Promise.all(
    clients.map(async (client, w) => {
      // Unordered: every document is tried; a key another writer already holds is a write error (11000).
      const docs = Array.from({ length: KEYS }, (_, k) => ({ _id: w * 10_000 + k, k, writer: w }));
      try {
        const r = await coll(client, name).insertMany(docs, { ordered: false });
        return { inserted: r.insertedCount, codes: [] as number[] };
      } catch (e) {
        const err = e as {
          insertedCount?: number;
          result?: { insertedCount: number };
          writeErrors?: Array<{ code: number }> | { code: number };
        };
        return {
          inserted: err.result?.insertedCount ?? err.insertedCount ?? 0,
          codes: [err.writeErrors ?? []].flat().map((x) => x.code),
        };
      }
    }),
  );
  for (const r of results) {
    expect(r.inserted + r.codes.length).toBe(KEYS);
    expect(new Set(r.codes)).toEqual(r.codes.length ? new Set([11000]) : new Set());
  }
  expect(results.reduce((a, r) => a + r.inserted, 0)).toBe(KEYS);
  const stored = await coll(reader, name).find({}).sort({ k: 1 }).toArray();
  expect(stored.map((d) => d.k)).toEqual(Array.from({ length: KEYS }, (_, k) => k));
  // Documents and index agree: each key found through the index is the stored document, whole.
  for (const d of stored) {
    expect(d._id).toBe(d.writer * 10_000 + d.k);
    expect(await coll(reader, name).findOne({ k: d.k })).toEqual(d);
  }
  expect(await coll(reader, name).countDocuments({ _id: { $gte: 0 } })).toBe(KEYS);
});

it('leaves a refused update without any trace when writers race for one unique value', async () => {
  const name = 'emails';
  const setup = coll(reader, name);
  await setup.createIndex({ email: 1 }, { unique: true });
  await setup.insertMany(
    Array.from({ length: WRITERS }, (_, w) => ({ _id: w, k: w, writer: w, email: `w${w}@x.io`, n: 0 })),
  );
  const outcomes = await Promise.all(
    clients.map((client, w) =>
      coll(client, name)
        .updateOne({ _id: w }, { $set: { email: 'taken@x.io' }, $inc: { n: 1 } })
        .then(
          (r) => (r.modifiedCount === 1 ? 'won' : 'unchanged'),
          (e: { code?: number }) => (e.code === 11000 ? 'duplicate' : `error ${String(e.code)}`),
        ),
    ),
  );
  expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
  expect(outcomes.filter((o) => o === 'duplicate')).toHaveLength(WRITERS - 1);
  const winner = outcomes.indexOf('won');
  expect(await setup.find({ email: 'taken@x.io' }).toArray()).toEqual([
    { _id: winner, k: winner, writer: winner, email: 'taken@x.io', n: 1 },
  ]);
  for (let w = 0; w < WRITERS; w++) {
    if (w === winner) continue;
    // Neither the document nor the index changed: found under its own e-mail, counter untouched.
    expect(await setup.findOne({ email: `w${w}@x.io` })).toEqual({
      _id: w,
      k: w,
      writer: w,
      email: `w${w}@x.io`,
      n: 0,
    });
  }
  expect(await setup.findOne({ email: `w${winner}@x.io` })).toBeNull();
});

it('counts every acknowledged insert, update and delete, however other connections were counting while it waited for its commit', async () => {
  // Counts on an index are kept between writes. A count sent by another connection after a write ran but before
  // it committed sees the entries before it; that count must not be served for after the commit.
  const w = coll(clients[0]!, 'counted');
  await w.createIndex({ k: 1 });
  await w.insertOne({ _id: 0, k: 7, writer: 0 });
  let stop = false;
  const counting = clients.slice(1).map(async (client, n) => {
    const c = coll(client, 'counted');
    while (!stop) await c.countDocuments({ k: 7 + (n % 2) });
  });
  const wrong: string[] = [];
  const expected = { 7: 1, 8: 0 };
  const check = async (what: string): Promise<void> => {
    for (const k of [7, 8] as const) {
      const n = await coll(reader, 'counted').countDocuments({ k });
      if (n !== expected[k]) wrong.push(`after ${what}: ${n} with k ${k}, not ${expected[k]}`);
    }
  };
  try {
    for (let i = 1; i <= 150; i++) {
      await w.insertOne({ _id: i, k: 7, writer: 0 });
      expected[7]++;
      await check(`insert ${i}`);
      if (i % 3 === 0) {
        await w.updateOne({ _id: i }, { $set: { k: 8 } }); // moves between the counted values
        expected[7]--;
        expected[8]++;
        await check(`update ${i}`);
      }
      if (i % 5 === 0) {
        await w.deleteOne({ _id: i });
        expected[i % 3 === 0 ? 8 : 7]--;
        await check(`delete ${i}`);
      }
    }
  } finally {
    stop = true;
    await Promise.all(counting);
  }
  expect(wrong).toEqual([]);
  const viaCommand = await reader.db(dbName).command({ count: 'counted', query: { k: 7 } });
  expect(viaCommand.n).toBe(expected[7]);
  // 230 durable commits while other connections count without pause: slow on a loaded two-core machine.
}, 120_000);

it('sees every document in reads sent while an index is being created', async () => {
  const name = 'indexing';
  const N = 2000;
  await coll(reader, name).insertMany(Array.from({ length: N }, (_, i) => ({ _id: i, k: (i * 7919) % N, writer: 0 })));
  let created = false;
  const creating = coll(clients[0]!, name)
    .createIndex({ k: 1 })
    .finally(() => (created = true));
  // Reads that a planner answers from the new index once it exists, sent back to back on three other
  // connections until the index's creation is acknowledged (and once more after).
  const counts: number[] = [];
  await Promise.all(
    clients.slice(1).map(async (client) => {
      const c = coll(client, name);
      for (let last = false; !last;) {
        last = created;
        const ks = await c
          .find({ k: { $gte: N / 2 } })
          .sort({ k: 1 })
          .project<{ k: number }>({ _id: 0, k: 1 })
          .toArray();
        counts.push(ks.length);
        expect(ks.map((d) => d.k)).toEqual(Array.from({ length: N / 2 }, (_, i) => N / 2 + i));
      }
    }),
  );
  await creating;
  expect(counts.length).toBeGreaterThanOrEqual(6);
});

it('answers writes and reads pipelined on one connection in order, each read seeing the writes before it', async () => {
  const $db = dbName;
  const messages: Buffer[] = [opMsg(1, { insert: 'piped', documents: [{ _id: 1, n: 0 }], $db })];
  for (let i = 0; i < 30; i++) {
    messages.push(opMsg(100 + 2 * i, { update: 'piped', updates: [{ q: { _id: 1 }, u: { $inc: { n: 1 } } }], $db }));
    messages.push(opMsg(101 + 2 * i, { find: 'piped', filter: { _id: 1 }, limit: 1, singleBatch: true, $db }));
  }
  messages.push(
    opMsg(2, { findAndModify: 'piped', query: { _id: 1 }, update: { $set: { done: true } }, new: true, $db }),
  );
  messages.push(opMsg(3, { delete: 'piped', deletes: [{ q: { _id: 1 }, limit: 1 }], $db }));
  messages.push(opMsg(4, { count: 'piped', $db }));
  const replies = await exchange(messages);
  expect(replies.map(([to]) => to)).toEqual(messages.map((m) => m.readInt32LE(4)));
  const bodies = replies.map(([, b]) => b);
  expect(bodies[0]).toMatchObject({ ok: 1, n: 1 });
  for (let i = 0; i < 30; i++) {
    expect(bodies[1 + 2 * i]).toMatchObject({ ok: 1, n: 1, nModified: 1 });
    expect(bodies[2 + 2 * i]!.cursor.firstBatch).toEqual([{ _id: 1, n: i + 1 }]);
  }
  expect(bodies[61]!.value).toEqual({ _id: 1, n: 30, done: true });
  expect(bodies[62]).toMatchObject({ ok: 1, n: 1 });
  expect(bodies[63]).toMatchObject({ ok: 1, n: 0 });
});
