// Writes commit on lmdb's write thread and are acknowledged once committed (storage/env.ts writeAsync). An
// engine process killed with SIGKILL while several connections write concurrently keeps every acknowledged
// write (an unacknowledged chunked insert may keep a prefix, as the README says). The engine runs as a child process from
// the dist/ build that jest's global setup produces; engine-internal, so only against the embedded engine.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { startEngineCli } from './helpers/engine-cli.js';

async function kill9(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

interface Item {
  _id: string;
  k: number;
  writer: number;
  pad: string;
}

const register = process.env.MONGODB_URI ? () => undefined : () => defineTests();
register();

function defineTests(): void {
  const dir = mkdtempSync(join(tmpdir(), 'engine-commit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged write of concurrent connections through kill -9', async () => {
    const WRITERS = 4;
    const a = await startEngineCli(dir);
    const clients = Array.from(
      { length: WRITERS },
      () => new MongoClient(a.uri, { serverSelectionTimeoutMS: 5000, maxPoolSize: 2 }),
    );
    /** Per writer: acknowledged single inserts, acknowledged batches, acknowledged counter increments. */
    const acked = clients.map(() => ({ singles: [] as number[], batches: [] as number[], incs: 0 }));
    try {
      await Promise.all(clients.map((c) => c.connect()));
      const setup = clients[0]!.db('app');
      await setup.collection('items').createIndex({ k: 1 }, { unique: true });
      await setup
        .collection('counters')
        .insertMany(Array.from({ length: WRITERS }, (_, w) => ({ _id: w, n: 0 })) as never[]);
      const writers = clients.map(async (client, w) => {
        const items = client.db('app').collection<Item>('items');
        const counters = client.db('app').collection<{ _id: number; n: number }>('counters');
        const mine = acked[w]!;
        try {
          for (let i = 0; ; i++) {
            const k = (w * 1_000_000 + i) * 100;
            if (i % 3 === 0) {
              // A batch of 60: more than one slice, so several transactions (insertChunks.ts).
              await items.insertMany(
                Array.from({ length: 60 }, (_, j) => ({
                  _id: `${w}-${i}-${j}`,
                  k: k + j,
                  writer: w,
                  pad: 'p'.repeat(400),
                })),
              );
              mine.batches.push(i);
            } else {
              await items.insertOne({ _id: `${w}-${i}`, k, writer: w, pad: 'p'.repeat(400) });
              mine.singles.push(i);
            }
            await counters.updateOne({ _id: w }, { $inc: { n: 1 } });
            mine.incs++;
          }
        } catch {
          // The engine was killed: this writer's last command is unacknowledged.
        }
      });
      while (acked.some((m) => m.incs < 20)) await new Promise((r) => setTimeout(r, 5));
      await kill9(a.proc);
      await Promise.all(writers);
    } finally {
      await kill9(a.proc);
      await Promise.all(clients.map((c) => c.close(true).catch(() => undefined)));
    }

    const b = await startEngineCli(dir);
    const client = new MongoClient(b.uri, { serverSelectionTimeoutMS: 5000 });
    try {
      await client.connect();
      const items = client.db('app').collection<Item>('items');
      const counters = client.db('app').collection<{ _id: number; n: number }>('counters');
      for (const [w, mine] of acked.entries()) {
        for (const i of mine.singles) expect(await items.countDocuments({ _id: `${w}-${i}` })).toBe(1);
        for (const i of mine.batches) {
          const k = (w * 1_000_000 + i) * 100;
          expect(await items.countDocuments({ k: { $gte: k, $lt: k + 60 } })).toBe(60);
        }
        // Acknowledged increments are all there; at most the one in flight may be too.
        const n = (await counters.findOne({ _id: w }))!.n;
        expect(n).toBeGreaterThanOrEqual(mine.incs);
        expect(n).toBeLessThanOrEqual(mine.incs + 1);
      }
      // The unique index survived with the documents: every stored key refuses a second document.
      const stored = await items
        .find({}, { projection: { k: 1 } })
        .limit(5)
        .toArray();
      for (const d of stored)
        await expect(items.insertOne({ _id: `again-${d.k}`, k: d.k, writer: -1, pad: '' })).rejects.toMatchObject({
          code: 11000,
        });
      expect(await items.countDocuments({ writer: -1 })).toBe(0);
    } finally {
      await client.close();
      await kill9(b.proc);
    }
  }, 120_000);
}
