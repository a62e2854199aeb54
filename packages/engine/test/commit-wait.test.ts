// What may not wait for a commit. A driver's monitor gives a server a couple of seconds to answer its handshake
// before it clears the connection pool (the service's store timeout is two seconds), and a service asks for its
// indexes at every start. On a cold disk a commit takes hundreds of milliseconds; here another process holds the
// storage's write lock instead, which every commit waits for the same way. Meanwhile a handshake and a ping are
// answered even behind a catalog change (which holds the engine's other commands until it commits), and a
// createIndexes naming indexes that all exist is answered without a transaction; writes still wait.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, type Collection } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';

/** How long the other process keeps the write lock: long enough for a busy machine to answer two commands. */
const HOLD_MS = 3000;

/** Opens the engine's storage in another process and holds its write lock for HOLD_MS; resolves once it holds it. */
async function holdWriteLock(dir: string, events: string[]): Promise<ChildProcess> {
  const script = `
    import { open } from 'lmdb';
    const root = open({ path: ${JSON.stringify(join(dir, 'engine.mdb'))}, maxDbs: 8, encoding: 'binary', noMemInit: true });
    root.transactionSync(() => {
      process.stdout.write('held\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${HOLD_MS});
      // Written before the lock is let go (a pipe's write is synchronous on Linux): it reaches the test before
      // any answer the engine can give once its own commit gets the lock.
      process.stdout.write('released\\n');
    });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: new URL('..', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += String(chunk);
      if (out.includes('held\n') && !events.includes('held')) {
        events.push('held');
        resolve();
      }
      if (out.includes('released\n') && !events.includes('released')) events.push('released');
    });
    child.once('exit', (code) => reject(new Error(`the lock holder exited (${code}) before holding the lock`)));
  });
  return child;
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

describe('commands that do not wait for a commit', () => {
  let dir: string;
  let engine: RunningEngine;
  let client: MongoClient;
  let coll: Collection<{ _id: number; a: number; b: number }>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engine-commit-wait-'));
    engine = await startEngine({ port: 0, dbPath: dir });
    client = await MongoClient.connect(engine.uri);
    coll = client.db('wait').collection('c');
    await coll.insertOne({ _id: 1, a: 1, b: 1 });
    await coll.createIndex({ a: 1 }, { name: 'a_1' });
    // Two pooled connections, so that the concurrent commands below do not wait for a new one to be set up.
    const admin = client.db('admin');
    await Promise.all([admin.command({ ping: 1 }), admin.command({ ping: 1 })]);
  });
  afterAll(async () => {
    await client?.close();
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a handshake and a ping are answered while a catalog change waits for its commit', async () => {
    const events: string[] = [];
    const holder = await holdWriteLock(dir, events);
    const created = coll.createIndex({ b: 1 }, { name: 'b_1' }).then(() => events.push('new index'));
    // The new index is in the engine's catalog (and holds other commands) once the engine has read the command.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const admin = client.db('admin');
    await Promise.all([
      admin.command({ hello: 1 }).then(() => events.push('hello')),
      admin.command({ ping: 1 }).then(() => events.push('ping')),
    ]);
    await Promise.all([created, exited(holder)]);
    expect(events.slice(0, 1)).toEqual(['held']);
    expect(events.slice(1, 3).sort()).toEqual(['hello', 'ping']);
    expect(events.slice(3)).toEqual(['released', 'new index']);
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_', 'a_1', 'b_1']);
  });

  test('a createIndexes of indexes that all exist is answered at once; a write waits for the lock', async () => {
    const events: string[] = [];
    const holder = await holdWriteLock(dir, events);
    const inserted = coll.insertOne({ _id: 2, a: 2, b: 2 }).then(() => events.push('insert'));
    const existing = await coll.createIndexes([
      { key: { a: 1 }, name: 'a_1' },
      { key: { b: 1 }, name: 'b_1' },
    ]);
    events.push('existing indexes');
    await Promise.all([inserted, exited(holder)]);
    expect(existing).toEqual(['a_1', 'b_1']);
    expect(events).toEqual(['held', 'existing indexes', 'released', 'insert']);
    // A changed specification under an existing name is still refused, as MongoDB refuses it.
    await expect(coll.createIndex({ a: 1 }, { name: 'a_1', unique: true })).rejects.toMatchObject({ code: 86 });
  });
});
