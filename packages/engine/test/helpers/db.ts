// Each test file gets its own database on the shared test server (this engine, or MONGODB_URI).
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';

export function testMongoUri(): string {
  const uri = process.env.TEST_MONGODB_URI;
  if (!uri) throw new Error('TEST_MONGODB_URI is unset: run the tests through jest (global setup starts the engine)');
  return uri;
}

export function uniqueDbName(prefix = 't'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** A client and a fresh database for one test file; drop it in afterAll with `close()`. */
export async function openTestDb(prefix?: string): Promise<{ client: MongoClient; db: Db; close(): Promise<void> }> {
  const client = new MongoClient(testMongoUri(), { serverSelectionTimeoutMS: 5000 });
  await client.connect();
  const db = client.db(uniqueDbName(prefix));
  return {
    client,
    db,
    async close() {
      await db.dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
}
