// Durability of the embedded engine with a dbPath (engine-internal, so only registered when the tests run
// against the embedded engine, i.e. MONGODB_URI is unset). The engine runs as a child process from the
// dist/ build that jest's global setup produces; the test SIGKILLs it right after acknowledged writes and
// checks that a new process on the same dbPath has everything, including unique-index enforcement.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngineCli } from './helpers/engine-cli.js';

interface Child {
  proc: ChildProcess;
  uri: string;
}

function exited(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
}

async function kill9(child: Child): Promise<void> {
  child.proc.kill('SIGKILL');
  await exited(child.proc);
}

async function withClient<T>(uri: string, fn: (c: MongoClient) => Promise<T>): Promise<T> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.close(true).catch(() => undefined);
  }
}

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

function defineTests(): void {
  describe('embedded engine durability', () => {
    const dirs: string[] = [];
    const fresh = (): string => {
      const d = mkdtempSync(join(tmpdir(), 'engine-dur-'));
      dirs.push(d);
      return d;
    };
    afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

    it('kill -9 right after acknowledged writes loses nothing', async () => {
      const dir = fresh();
      const a = await startEngineCli(dir);
      await withClient(a.uri, async (client) => {
        const c = client.db('app').collection('users');
        await c.createIndex({ email: 1 }, { unique: true });
        await c.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i, email: `u${i}@x.io`, n: i })) as never[]);
        await c.updateOne({ _id: 5 } as never, { $set: { n: 500 } });
        await c.updateMany({ n: { $lt: 3 } }, { $inc: { n: 1000 } });
        await c.deleteOne({ _id: 7 } as never);
        await c.findOneAndUpdate({ _id: 8 } as never, { $set: { fam: true } });
        await client.db('app').collection('gone').insertOne({ x: 1 });
        await client.db('app').collection('gone').drop();
      });
      await kill9(a);

      const b = await startEngineCli(dir);
      try {
        await withClient(b.uri, async (client) => {
          const c = client.db('app').collection('users');
          expect(await c.countDocuments()).toBe(99);
          expect(await c.findOne({ _id: 5 } as never)).toMatchObject({ n: 500 });
          expect(await c.findOne({ _id: 1 } as never)).toMatchObject({ n: 1001 });
          expect(await c.findOne({ _id: 7 } as never)).toBeNull();
          expect(await c.findOne({ _id: 8 } as never)).toMatchObject({ fam: true });
          expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'email_1']);
          await expect(c.insertOne({ email: 'u1@x.io' })).rejects.toMatchObject({ code: 11000 });
          const names = (await client.db('app').listCollections().toArray()).map((x) => x.name);
          expect(names).toEqual(['users']);
        });
      } finally {
        await kill9(b);
      }
    });

    it('kill -9 in the middle of a stream of writes keeps every acknowledged one', async () => {
      const dir = fresh();
      const a = await startEngineCli(dir);
      const acked: number[] = [];
      await withClient(a.uri, async (client) => {
        const c = client.db('app').collection('stream');
        await c.createIndex({ k: 1 }, { unique: true });
        // Writes keep going while the process is killed: some are acknowledged, the last ones may not be.
        const writer = (async () => {
          for (let i = 0; ; i++) {
            try {
              await c.insertMany(
                Array.from({ length: 20 }, (_, j) => ({
                  _id: i * 20 + j,
                  k: i * 20 + j,
                  pad: 'p'.repeat(300),
                })) as never[],
              );
            } catch {
              return;
            }
            acked.push(i);
          }
        })();
        while (acked.length < 15) await new Promise((r) => setTimeout(r, 5));
        await kill9(a);
        await writer;
      });

      const b = await startEngineCli(dir);
      try {
        await withClient(b.uri, async (client) => {
          const c = client.db('app').collection('stream');
          const n = await c.countDocuments();
          expect(n).toBeGreaterThanOrEqual(acked.length * 20);
          expect(n % 20).toBe(0); // one transaction per command: a batch is all in or all out
          for (const i of acked) expect(await c.countDocuments({ k: { $gte: i * 20, $lt: i * 20 + 20 } })).toBe(20);
          await expect(c.insertOne({ k: 0 })).rejects.toMatchObject({ code: 11000 });
        });
      } finally {
        await kill9(b);
      }
    });

    it('refuses a dbPath another running engine holds', async () => {
      const dir = fresh();
      const a = await startEngineCli(dir);
      try {
        await expect(startEngineCli(dir)).rejects.toThrow(/in use/);
      } finally {
        await kill9(a);
      }
    });

    it('takes over a dbPath whose lock names a process that has exited but was never reaped (a zombie)', async () => {
      const dir = fresh();
      // The child exits after 0.3 s, by when its parent has become `sleep 5`, which never waits for it: a zombie
      // for about 5 s. (A child that exited at once could be reaped by the shell before its exec, under load.)
      const parent = spawn('sh', ['-c', 'sleep 0.3 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
      try {
        const pid = Number(
          (await new Promise<Buffer>((resolve) => parent.stdout!.once('data', resolve))).toString().trim(),
        );
        for (let i = 0; i < 150 && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); i++)
          await new Promise((r) => setTimeout(r, 20));
        expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /);
        writeFileSync(join(dir, 'engine.lock'), `${pid}\n`);
        const a = await startEngineCli(dir);
        await kill9(a);
      } finally {
        parent.kill('SIGKILL');
      }
    });

    it('closes cleanly on SIGTERM (exit 0), releasing the data directory', async () => {
      const dir = fresh();
      const a = await startEngineCli(dir);
      await withClient(a.uri, async (client) => {
        const c = client.db('app').collection('bulk');
        await c.createIndex({ k: 1 }, { unique: true });
        for (let batch = 0; batch < 20; batch++) {
          await c.insertMany(Array.from({ length: 50 }, (_, i) => ({ k: batch * 50 + i, pad: 'p'.repeat(200) })));
        }
        await c.deleteMany({ k: { $gte: 900 } });
      });
      a.proc.kill('SIGTERM');
      expect(await exited(a.proc)).toBe(0);
      expect(readdirSync(dir)).not.toContain('engine.lock');

      const b = await startEngineCli(dir);
      try {
        await withClient(b.uri, async (client) => {
          const c = client.db('app').collection('bulk');
          expect(await c.countDocuments()).toBe(900);
          await expect(c.insertOne({ k: 5 })).rejects.toMatchObject({ code: 11000 });
        });
      } finally {
        await kill9(b);
      }
    }, 60_000);
  });
}
