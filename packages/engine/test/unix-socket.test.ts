// The engine listens on a Unix domain socket beside its TCP port when asked (the service's own clients use it:
// a command costs about a third less CPU than over loopback TCP). Through the official driver on both: the same
// data, a change stream over the socket, the socket file replaced if a dead process left one, removed on close;
// where the socket cannot be made, the port alone.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngine } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'engine-socket-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('serves the same store on its socket and its port, and removes the socket on close', async () => {
  const socketPath = join(dir, 'engine.sock');
  writeFileSync(socketPath, 'left by a process that died');
  const engine = await startEngine({ port: 0, socketPath });
  expect(engine.socketUri).toBe(`mongodb://${encodeURIComponent(socketPath)}/?directConnection=true`);
  const overSocket = new MongoClient(engine.socketUri!);
  const overTcp = new MongoClient(engine.uri);
  try {
    const c = overSocket.db('socket_test').collection<{ _id: number; n: number }>('c');
    const changes = c.watch();
    const next = changes.next();
    await overTcp.db('socket_test').collection<{ _id: number; n: number }>('c').insertOne({ _id: 1, n: 1 });
    expect(await c.findOne({ _id: 1 })).toEqual({ _id: 1, n: 1 });
    expect(await next).toMatchObject({ operationType: 'insert', documentKey: { _id: 1 } });
    await changes.close();
  } finally {
    await overSocket.close();
    await overTcp.close();
    await engine.close();
  }
  expect(existsSync(socketPath)).toBe(false);
});

test('a socket that cannot be made is logged, and the port serves alone', async () => {
  const lines: Array<[string, Record<string, unknown> | undefined]> = [];
  const socketPath = join(dir, 'no-such-directory', 'engine.sock');
  const engine = await startEngine({ port: 0, socketPath, log: (msg, fields) => lines.push([msg, fields]) });
  const client = new MongoClient(engine.uri);
  try {
    expect(engine.socketUri).toBeUndefined();
    expect(lines).toContainEqual([
      'not listening on a Unix domain socket: clients use the TCP port',
      expect.objectContaining({ socketPath }),
    ]);
    expect(await client.db('socket_test').command({ ping: 1 })).toMatchObject({ ok: 1 });
  } finally {
    await client.close();
    await engine.close();
  }
});

test('without a socket path it listens on its port only', async () => {
  const engine = await startEngine({ port: 0 });
  try {
    expect(engine.socketUri).toBeUndefined();
  } finally {
    await engine.close();
  }
});
