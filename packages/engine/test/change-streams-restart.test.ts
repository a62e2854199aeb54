// Resume tokens across an engine restart (embedded engine with a dbPath; registered only when MONGODB_URI is
// unset): the change history is the engine's LMDB oplog, so a token taken before the restart resumes after
// it with exactly the later events, and a token whose record retention has pruned is ChangeStreamHistoryLost.
// Also: TTL deletions, made by storage outside any command, are in the same history.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type ChangeStream, type Document, type ResumeToken } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

async function withClient<T>(engine: RunningEngine, fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.close(true);
  }
}

/** Every event the stream has now (reads until a getMore comes back empty). */
async function drain(stream: ChangeStream): Promise<Document[]> {
  const out: Document[] = [];
  for (let e = await stream.tryNext(); e; e = await stream.tryNext()) out.push(e);
  return out;
}

function defineTests(): void {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  test('a token from before a restart resumes after it with exactly the later events; a pruned one is 286', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engine-resume-'));
    dirs.push(dir);
    const opts = { port: 0, dbPath: dir, maxChanges: 50 };

    let token: ResumeToken | undefined;
    const first = await startEngine(opts);
    try {
      await withClient(first, async (client) => {
        const coll = client.db('resume').collection<{ _id: number; n?: number }>('items');
        const stream = coll.watch([], { maxAwaitTimeMS: 200 });
        await stream.tryNext(); // opened on the server before the writes
        await coll.insertOne({ _id: 1 });
        const seen = await stream.next();
        token = seen._id;
        expect(seen).toMatchObject({ operationType: 'insert', documentKey: { _id: 1 } });
        // Written after the token was taken, not read by this stream before the restart.
        await coll.insertOne({ _id: 2, n: 1 });
        await stream.close();
      });
    } finally {
      await first.close();
    }

    const second = await startEngine(opts);
    try {
      await withClient(second, async (client) => {
        const coll = client.db('resume').collection<{ _id: number; n?: number }>('items');
        await coll.updateOne({ _id: 2 }, { $inc: { n: 1 } });
        await coll.replaceOne({ _id: 1 }, { n: 9 });
        await coll.deleteOne({ _id: 2 });
        const resumed = coll.watch([], {
          resumeAfter: token,
          fullDocumentBeforeChange: 'whenAvailable',
          maxAwaitTimeMS: 200,
        });
        const events = await drain(resumed);
        await resumed.close();
        expect(events.map((e) => [e.operationType, e.documentKey._id])).toEqual([
          ['insert', 2],
          ['update', 2],
          ['replace', 1],
          ['delete', 2],
        ]);
        expect(events[1]!.updateDescription).toEqual({
          updatedFields: { n: 2 },
          removedFields: [],
          truncatedArrays: [],
        });
        expect(events[1]!.fullDocumentBeforeChange).toEqual({ _id: 2, n: 1 });
        expect(events[2]!.fullDocument).toEqual({ _id: 1, n: 9 });
        expect(events[3]!.fullDocumentBeforeChange).toEqual({ _id: 2, n: 2 });

        // Push the token's record out of the retained history (50 records): resuming is history lost.
        await coll.insertMany(Array.from({ length: 60 }, (_, i) => ({ _id: 100 + i })));
        const lost = coll.watch([], { resumeAfter: token });
        await expect(lost.tryNext()).rejects.toMatchObject({ code: 286 });
        await lost.close();
      });
    } finally {
      await second.close();
    }
  });

  test('a token from another data directory is history lost', async () => {
    const engines = [mkdtempSync(join(tmpdir(), 'engine-resume-a-')), mkdtempSync(join(tmpdir(), 'engine-resume-b-'))];
    dirs.push(...engines);
    let token: ResumeToken | undefined;
    const a = await startEngine({ port: 0, dbPath: engines[0] });
    try {
      await withClient(a, async (client) => {
        const coll = client.db('resume').collection<{ _id: number }>('items');
        const stream = coll.watch();
        await stream.tryNext();
        await coll.insertOne({ _id: 1 });
        token = (await stream.next())._id;
        await stream.close();
      });
    } finally {
      await a.close();
    }
    const b = await startEngine({ port: 0, dbPath: engines[1] });
    try {
      await withClient(b, async (client) => {
        const coll = client.db('resume').collection<{ _id: number }>('items');
        await coll.insertOne({ _id: 1 });
        const stream = coll.watch([], { resumeAfter: token });
        await expect(stream.tryNext()).rejects.toMatchObject({ code: 286 });
        await stream.close();
      });
    } finally {
      await b.close();
    }
  });

  test('a TTL deletion is a delete event with its pre-image', async () => {
    const engine = await startEngine({ port: 0, ttlIntervalMs: 50 });
    try {
      await withClient(engine, async (client) => {
        const coll = client.db('resume').collection<{ _id: number; at: Date }>('expiring');
        await coll.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
        const stream = coll.watch([], { fullDocumentBeforeChange: 'whenAvailable' });
        await stream.tryNext();
        await coll.insertOne({ _id: 1, at: new Date(0) });
        const events = [await stream.next(), await stream.next()] as Document[];
        await stream.close();
        expect(events.map((e) => e.operationType)).toEqual(['insert', 'delete']);
        expect(events[1]).toMatchObject({
          documentKey: { _id: 1 },
          fullDocumentBeforeChange: { _id: 1, at: new Date(0) },
        });
      });
    } finally {
      await engine.close();
    }
  });
}
