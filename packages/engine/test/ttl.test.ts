// TTL indexes: documents whose date has passed expireAfterSeconds are removed by the background monitor.
// The embedded engine sweeps every second; a real server every 60 s, hence the long timeout.
import type { Db } from 'mongodb';
import { openTestDb } from './helpers/db.js';

let ctx: Awaited<ReturnType<typeof openTestDb>>;
let db: Db;

beforeAll(async () => {
  ctx = await openTestDb('ttl');
  db = ctx.db;
});
afterAll(async () => ctx.close());

it('expires documents with a past date and keeps the rest', async () => {
  const c = db.collection('sessions');
  await c.createIndex({ at: 1 }, { expireAfterSeconds: 0 });
  const idx = (await c.listIndexes().toArray()).find((i) => i.name === 'at_1');
  expect(idx).toMatchObject({ key: { at: 1 }, expireAfterSeconds: 0 });
  await c.insertMany([
    { k: 'old', at: new Date(Date.now() - 60_000) },
    { k: 'future', at: new Date(Date.now() + 3_600_000) },
    { k: 'nodate', at: 'not a date' },
  ]);
  const deadline = Date.now() + 130_000;
  while ((await c.countDocuments({ k: 'old' })) > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 250));
  expect((await c.find({}, { sort: { k: 1 } }).toArray()).map((d) => d.k)).toEqual(['future', 'nodate']);
}, 150_000);
