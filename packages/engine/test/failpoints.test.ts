// mongod's failCommand fail point (commands/failpoints.ts): off unless test commands are enabled, and then
// each of its actions as a driver sees them — an error reply, a closed connection, a wait, a write concern
// error — limited by times/skip, the client's appName and the namespace. Runs on engines of its own: a fail
// point is server-wide.
import { MongoClient, MongoNetworkError, MongoServerError, MongoWriteConcernError } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';

let engine: RunningEngine;
let client: MongoClient;

beforeAll(async () => {
  engine = await startEngine({ host: '127.0.0.1', port: 0, testCommands: true });
  client = new MongoClient(engine.uri, {
    serverSelectionTimeoutMS: 5000,
    retryReads: false,
    retryWrites: false,
    appName: 'main-app',
  });
  await client.connect();
  await client
    .db('fp')
    .collection('c')
    .insertMany([
      { _id: 1, x: 1 },
      { _id: 2, x: 2 },
    ] as never[]);
});
afterEach(async () => {
  for (const name of ['failCommand', 'failGetMoreAfterCursorCheckout'])
    await client.db('admin').command({ configureFailPoint: name, mode: 'off' });
});
afterAll(async () => {
  await client.close();
  await engine.close();
});

const coll = () => client.db('fp').collection<{ _id: number; x: number }>('c');
const set = (mode: unknown, data: Record<string, unknown>) =>
  client.db('admin').command({ configureFailPoint: 'failCommand', mode, data });

test('without test commands, configureFailPoint does not exist (CommandNotFound), as on a default mongod', async () => {
  const plain = await startEngine({ host: '127.0.0.1', port: 0 });
  const c = new MongoClient(plain.uri, { serverSelectionTimeoutMS: 5000 });
  try {
    await expect(
      c.db('admin').command({
        configureFailPoint: 'failCommand',
        mode: 'alwaysOn',
        data: { failCommands: ['find'], errorCode: 2 },
      }),
    ).rejects.toMatchObject({ code: 59, codeName: 'CommandNotFound' });
  } finally {
    await c.close();
    await plain.close();
  }
});

test('{times: 2} fails the named command twice with the code and labels given, then it runs again', async () => {
  await set({ times: 2 }, { failCommands: ['find'], errorCode: 91, errorLabels: ['SomeLabel'] });
  for (let i = 0; i < 2; i++) {
    const err = await coll()
      .find({})
      .toArray()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err).toMatchObject({
      code: 91,
      codeName: 'ShutdownInProgress',
      errmsg: "Failing command via 'failCommand' failpoint",
    });
    expect((err as MongoServerError).hasErrorLabel('SomeLabel')).toBe(true);
  }
  expect(await coll().find({}).toArray()).toHaveLength(2);
  // Other commands were never failed.
  expect(await coll().countDocuments()).toBe(2);
});

test('a find by _id, which the engine answers from the request bytes, is failed too', async () => {
  await set({ times: 1 }, { failCommands: ['find'], errorCode: 2 });
  await expect(coll().findOne({ _id: 1 })).rejects.toMatchObject({ code: 2 });
  expect(await coll().findOne({ _id: 1 })).toEqual({ _id: 1, x: 1 });
});

test('{skip: 1} lets the first matching command through and fails the rest while on', async () => {
  await set({ skip: 1 }, { failCommands: ['count'], errorCode: 2 });
  expect(await coll().estimatedDocumentCount()).toBe(2);
  await expect(coll().estimatedDocumentCount()).rejects.toMatchObject({ code: 2 });
  await expect(coll().estimatedDocumentCount()).rejects.toMatchObject({ code: 2 });
});

test('closeConnection closes the connection without an answer: a network error for the driver', async () => {
  await set({ times: 1 }, { failCommands: ['find'], closeConnection: true });
  const err = await coll()
    .find({})
    .toArray()
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MongoNetworkError);
  expect(await coll().find({}).toArray()).toHaveLength(2);
});

test('writeConcernError: the write is made and the reply carries the error', async () => {
  await set(
    { times: 1 },
    { failCommands: ['insert'], writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' } },
  );
  const err = await coll()
    .insertOne({ _id: 3, x: 3 })
    .catch((e: unknown) => e);
  expect(err).toBeInstanceOf(MongoWriteConcernError);
  expect(err).toMatchObject({ code: 64 });
  expect(await coll().findOne({ _id: 3 })).toEqual({ _id: 3, x: 3 });
  await coll().deleteOne({ _id: 3 });
});

test('blockConnection delays the command, which then succeeds; other connections are answered meanwhile', async () => {
  await set({ times: 1 }, { failCommands: ['find'], blockConnection: true, blockTimeMS: 300 });
  const other = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 5000, appName: 'other' });
  await other.connect();
  try {
    let blockedDone = false;
    const blocked = coll()
      .find({})
      .toArray()
      .then((r) => {
        blockedDone = true;
        return r;
      });
    await new Promise((r) => setTimeout(r, 20));
    expect(await other.db('fp').collection('c').countDocuments()).toBe(2);
    expect(blockedDone).toBe(false);
    expect(await blocked).toHaveLength(2);
  } finally {
    await other.close();
  }
});

test("appName: only the named application's commands are failed", async () => {
  await set('alwaysOn', { failCommands: ['find'], errorCode: 2, appName: 'other-app' });
  expect(await coll().find({}).toArray()).toHaveLength(2);
  const other = new MongoClient(engine.uri, {
    serverSelectionTimeoutMS: 5000,
    appName: 'other-app',
    retryReads: false,
  });
  try {
    await expect(other.db('fp').collection('c').find({}).toArray()).rejects.toMatchObject({ code: 2 });
  } finally {
    await other.close();
  }
});

test('bad settings are refused: an unknown fail point, a bad mode, no failCommands, outside admin', async () => {
  await expect(client.db('admin').command({ configureFailPoint: 'nope', mode: 'alwaysOn' })).rejects.toMatchObject({
    code: 2,
  });
  await expect(set({ times: -1 }, { failCommands: ['find'] })).rejects.toMatchObject({ code: 2 });
  await expect(set('sometimes', { failCommands: ['find'] })).rejects.toMatchObject({ code: 2 });
  await expect(set('alwaysOn', { errorCode: 2 })).rejects.toMatchObject({ code: 2 });
  await expect(client.db('fp').command({ configureFailPoint: 'failCommand', mode: 'off' })).rejects.toMatchObject({
    code: 13,
  });
});

test("failGetMoreAfterCursorCheckout fails a getMore; only a change stream's error is labelled resumable", async () => {
  await client
    .db('admin')
    .command({ configureFailPoint: 'failGetMoreAfterCursorCheckout', mode: { times: 1 }, data: { errorCode: 6 } });
  const cursor = coll().find({}, { batchSize: 1 });
  await cursor.next();
  const err = await cursor.next().catch((e: unknown) => e);
  expect(err).toMatchObject({ code: 6, codeName: 'HostUnreachable' });
  expect((err as MongoServerError).hasErrorLabel('ResumableChangeStreamError')).toBe(false);
  // As mongod, the failed getMore's cursor is gone.
  const cursorId = (cursor as unknown as { id?: { toString(): string } }).id!;
  await expect(
    client.db('fp').command({ getMore: BigInt(cursorId.toString()) as never, collection: 'c' }),
  ).rejects.toMatchObject({ code: 43 });
  await cursor.close().catch(() => undefined);
  // A getMore on a cursor that does not exist is its own CursorNotFound, and the fail point is not used up.
  await client
    .db('admin')
    .command({ configureFailPoint: 'failGetMoreAfterCursorCheckout', mode: { times: 1 }, data: { errorCode: 6 } });
  await expect(client.db('fp').command({ getMore: 123456789n as never, collection: 'c' })).rejects.toMatchObject({
    code: 43,
  });
  expect(
    await client.db('admin').command({ configureFailPoint: 'failGetMoreAfterCursorCheckout', mode: 'off' }),
  ).toMatchObject({ count: 0 });

  await client
    .db('admin')
    .command({ configureFailPoint: 'failGetMoreAfterCursorCheckout', mode: { times: 1 }, data: { errorCode: 6 } });
  const stream = coll().watch([], { maxAwaitTimeMS: 50 });
  await (stream as unknown as { cursor: { cursorInit(): Promise<void> } }).cursor.cursorInit();
  const id = (stream as unknown as { cursor: { id?: { toString(): string } } }).cursor.id!;
  const raw = await client
    .db('fp')
    .command({ getMore: BigInt(id.toString()) as never, collection: 'c', maxTimeMS: 50 })
    .catch((e: unknown) => e);
  expect(raw).toMatchObject({ code: 6 });
  expect((raw as MongoServerError).hasErrorLabel('ResumableChangeStreamError')).toBe(true);
  await stream.close();
});

test('a fail point with nothing to do is not entered; a write concern error applies to writes only', async () => {
  await set({ times: 1 }, { failCommands: ['find'], errorLabels: ['X'] });
  expect(await coll().find({}).toArray()).toHaveLength(2);
  await set({ times: 1 }, { failCommands: ['find', 'insert'], writeConcernError: { code: 64, errmsg: 'timed out' } });
  expect(await coll().find({}).toArray()).toHaveLength(2);
  await expect(coll().insertOne({ _id: 9, x: 9 })).rejects.toBeInstanceOf(MongoWriteConcernError);
  expect(await client.db('admin').command({ configureFailPoint: 'failCommand', mode: 'off' })).toMatchObject({
    count: 1,
  });
  await coll().deleteOne({ _id: 9 });
});
