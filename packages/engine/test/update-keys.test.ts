// Updates keep every index as if it were built over the documents as they end up: an update that changes none of
// an index's fields leaves its keys as they were (they are not computed again), one that changes any of them
// (top level or dotted, through $set, $unset, $push, a replacement, the language field of a text index) moves
// them. Each index is asked through a hint (text search through $text) on the updated collection and on a copy
// holding the same final documents inserted afresh: the answers must be the same.
import { MongoClient, type Collection, type Db, type Document } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';

const INDEXES: Array<{ key: Document; name: string; partialFilterExpression?: Document; language_override?: string }> =
  [
    { key: { title: 'text', summary: 'text' }, name: 'text', language_override: 'lang' },
    { key: { status: 1, date: -1 }, name: 'status_date' },
    { key: { tags: 1 }, name: 'tags' },
    { key: { 'meta.kind': 1 }, name: 'meta_kind' },
    { key: { score: 1 }, name: 'published_score', partialFilterExpression: { status: 'published' } },
  ];

const doc = (i: number): Doc => ({
  _id: i,
  title: `harbour ${i} lights`,
  summary: i % 2 ? 'storms and ships' : 'keepers of the coast',
  status: i % 3 ? 'published' : 'draft',
  date: new Date(1_700_000_000_000 + i * 1000),
  tags: [i % 4, 10 + (i % 5)],
  meta: { kind: `k${i % 3}`, other: i },
  score: i % 7,
});

let engine: RunningEngine;
let client: MongoClient;
let db: Db;

beforeAll(async () => {
  engine = await startEngine({ port: 0 });
  client = await MongoClient.connect(engine.uri);
  db = client.db('update-keys');
});
afterAll(async () => {
  await client.close();
  await engine.close();
});

type Doc = Document & { _id: number };

async function withIndexes(name: string): Promise<Collection<Doc>> {
  const c = db.collection<Doc>(name);
  await c.createIndexes(INDEXES);
  return c;
}

/** What each index answers: every document through each B-tree index in its order, and a few text searches. */
async function answers(c: Collection<Doc>): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const { name, key, partialFilterExpression } of INDEXES) {
    if (name === 'text') continue;
    const filter = partialFilterExpression ?? {};
    out.push(await c.find(filter).hint(name).sort(key).project({ _id: 1 }).toArray());
  }
  out.push(
    await c
      .find({ tags: { $in: [2, 12] } })
      .hint('tags')
      .project({ _id: 1 })
      .sort({ _id: 1 })
      .toArray(),
  );
  out.push(await c.find({ 'meta.kind': 'k1' }).hint('meta_kind').project({ _id: 1 }).sort({ _id: 1 }).toArray());
  for (const q of ['harbour', 'storms', 'keepers', 'lighthouse', 'tempête', 'renamed', 'gardiens'])
    out.push(
      await c
        .find({ $text: { $search: q } })
        .project({ _id: 1, s: { $meta: 'textScore' } })
        .sort({ _id: 1 })
        .toArray(),
    );
  return out;
}

it('updates move exactly the keys of the indexes whose fields they change', async () => {
  const kept = await withIndexes('kept');
  await kept.insertMany(Array.from({ length: 60 }, (_, i) => doc(i)));
  // Fields no index reads, then each kind of indexed change.
  await kept.updateMany({ _id: { $lt: 20 } }, { $set: { 'meta.other': -1, body: 'long text' } });
  await kept.updateMany({ status: 'draft' }, { $set: { status: 'published', score: 100 } });
  await kept.updateMany({ _id: { $mod: [5, 0] } }, { $set: { title: 'renamed storms' } });
  await kept.updateMany({ _id: { $mod: [5, 1] } }, { $set: { summary: 'les gardiens et la tempête', lang: 'french' } });
  await kept.updateMany({ _id: { $mod: [5, 2] } }, { $push: { tags: 99 } as never });
  await kept.updateMany({ _id: { $mod: [5, 3] } }, { $set: { 'meta.kind': 'k1' } });
  await kept.updateMany({ _id: { $mod: [5, 4] } }, { $unset: { date: '', score: '' } });
  await kept.updateMany({ _id: { $in: [7, 8] } }, { $set: { status: 'archived' } });
  await kept.replaceOne(
    { _id: 9 },
    { title: 'replaced lighthouse', status: 'published', tags: 3, meta: { kind: 'k1' } },
  );
  await kept.updateMany({ _id: { $gt: 50 } }, { $set: { lang: 'french' } }); // the language alone re-stems the text

  const fresh = await withIndexes('fresh');
  await fresh.insertMany(await kept.find().sort({ _id: 1 }).toArray());
  expect(await answers(kept)).toEqual(await answers(fresh));
});
