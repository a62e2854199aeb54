// The TTL monitor's default interval is MongoDB's 60 s: an expired document outlives a wait that a
// 1 s sweeper would not let it survive; a shorter interval is an explicit option (as the test setup uses).
// Own in-process engines (not the shared test engine, which runs with 1 s). Nothing here depends on the
// machine's speed: a slower machine only makes the first document's survival more certain.
import { MongoClient } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';

async function withExpiredDocument(
  engine: RunningEngine,
  fn: (count: () => Promise<number>) => Promise<void>,
): Promise<void> {
  const client = new MongoClient(engine.uri);
  try {
    const c = client.db('ttl_default').collection('sessions');
    await c.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
    await c.insertOne({ at: new Date(Date.now() - 3_600_000) });
    await fn(() => c.countDocuments({}));
  } finally {
    await client.close();
    await engine.close();
  }
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('by default an expired document is still there 2.5 s later (sweeps every 60 s)', async () => {
  await withExpiredDocument(await startEngine({ host: '127.0.0.1', port: 0 }), async (count) => {
    await wait(2500);
    expect(await count()).toBe(1);
  });
});

it('with ttlIntervalMs the sweeper removes it', async () => {
  await withExpiredDocument(await startEngine({ host: '127.0.0.1', port: 0, ttlIntervalMs: 100 }), async (count) => {
    const deadline = Date.now() + 20_000;
    while ((await count()) > 0 && Date.now() < deadline) await wait(100);
    expect(await count()).toBe(0);
  });
});
