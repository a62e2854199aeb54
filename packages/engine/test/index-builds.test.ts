// Index builds over collections that hold documents: createIndexes answers once the build has ended, while
// other commands are served during it; currentOp shows its progress as MongoDB does; no query uses the index
// before it is built; writes during the build are in the finished index; dropping the index abandons the build
// (the waiting createIndexes fails with IndexBuildAborted); a build the engine was stopped in continues at the
// next start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MongoClient, MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { startEngine, type RunningEngine } from '../src/index.js';

/** Enough documents that the build takes many steps (each a few milliseconds), so it is seen under way. */
const DOCS = 3000;

interface Article {
  _id: number;
  title: string;
  summary?: string;
}

const article = (i: number): Article => ({
  _id: i,
  title: `article ${i} about harbours and lighthouses`,
  summary: `number ${i} of the series: keepers, storms, ships and the coast guard`,
});

async function fill(c: Collection<Article>): Promise<void> {
  await c.insertMany(Array.from({ length: DOCS }, (_, i) => article(i)));
}

const TEXT = { title: 'text', summary: 'text' } as const;

/** The index builds currentOp reports on `ns`. */
async function buildsOn(client: MongoClient, ns: string): Promise<Document[]> {
  const r = await client.db('admin').command({ currentOp: 1, 'command.createIndexes': { $exists: true }, ns });
  return r.inprog as Document[];
}

const searchIds = async (c: Collection<Article>, q: string): Promise<unknown[]> =>
  (await c.find({ $text: { $search: q } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id).sort();

describe('index builds', () => {
  let engine: RunningEngine;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    engine = await startEngine({ port: 0 });
    client = await MongoClient.connect(engine.uri);
    db = client.db('builds');
  });
  afterAll(async () => {
    await client.close();
    await engine.close();
  });

  it('shows progress, serves other commands, and keeps the writes made during the build', async () => {
    const c = db.collection<Article>('during');
    await fill(c);
    let built = false;
    const creating = c.createIndex(TEXT, { name: 'text' }).then((name) => ((built = true), name));

    let seen: Document | undefined;
    while (!seen && !built) seen = (await buildsOn(client, c.namespace))[0];
    expect(seen).toBeDefined();
    expect(seen).toMatchObject({
      op: 'command',
      ns: c.namespace,
      command: { createIndexes: 'during', indexes: [expect.objectContaining({ name: 'text' })] },
      progress: { total: DOCS },
    });
    expect(seen!.msg).toMatch(/^Index Build: scanning collection Index Build: scanning collection: \d+\/3000 \d+%$/);
    expect(seen!.progress.done).toBeLessThanOrEqual(DOCS);

    // While it builds: reads and writes are answered, the index is neither listed nor used.
    const during = await Promise.all([
      c.findOne({ _id: 7 }),
      c.listIndexes().toArray(),
      c
        .find({ $text: { $search: 'lighthouses' } })
        .toArray()
        .catch((e: unknown) => e),
      c.insertOne({ _id: -1, title: 'a zeppelin over the harbour', summary: '' }),
      c.insertOne({ _id: DOCS + 1, title: 'the zeppelin returns', summary: '' }),
      c.updateOne({ _id: 0 }, { $set: { title: 'an airship', summary: 'nothing else' } }),
      c.updateOne({ _id: DOCS - 1 }, { $set: { title: 'an airship again', summary: 'nothing else' } }),
      c.deleteOne({ _id: 1 }),
      c.deleteOne({ _id: DOCS - 2 }),
      buildsOn(client, c.namespace),
    ]);
    const stillBuilding = during[9].length > 0;
    expect(during[0]).toMatchObject({ _id: 7 });
    if (stillBuilding) {
      expect(during[1].map((i) => i.name)).toEqual(['_id_']);
      expect(during[2]).toBeInstanceOf(MongoServerError);
      expect((during[2] as MongoServerError).code).toBe(27);
    }

    await expect(creating).resolves.toBe('text');
    expect(await buildsOn(client, c.namespace)).toEqual([]);
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'text']);
    expect(await searchIds(c, 'zeppelin')).toEqual([-1, DOCS + 1]);
    expect(await searchIds(c, 'airship')).toEqual([0, DOCS - 1]);
    const lighthouses = await searchIds(c, 'lighthouses');
    expect(lighthouses).toHaveLength(DOCS - 4);
    expect(lighthouses).not.toContain(0);
    expect(lighthouses).not.toContain(1);
    expect(lighthouses).not.toContain(DOCS - 1);
    expect(lighthouses).not.toContain(DOCS - 2);
  });

  it('indexes the documents written up to the moment the build ends, the last step and its finish included', async () => {
    const c = db.collection<Article>('tail');
    await fill(c);
    let built = false;
    const creating = c.createIndex(TEXT, { name: 'text' }).then(() => (built = true));
    // Insert without pause until the build has ended: some inserts land between its last step and its end.
    const inserted: number[] = [];
    for (let i = DOCS; !built; i++) {
      await c.insertOne({ _id: i, title: `zeppelin number ${i}` });
      inserted.push(i);
    }
    await creating;
    for (let i = 0; i < 20; i++) {
      const id = DOCS * 2 + i;
      await c.insertOne({ _id: id, title: `zeppelin number ${id}` });
      inserted.push(id);
    }
    expect(await searchIds(c, 'zeppelin')).toEqual(inserted.sort());
  });

  it('builds the same entries the writes keep, whichever fields of the documents the index reads', async () => {
    // A build decodes only the fields an index reads from each stored document: built over existing documents,
    // each index must answer exactly as the same index kept by the writes from the start.
    const docs: Document[] = Array.from({ length: 400 }, (_, i) => ({
      _id: i,
      body: 'x'.repeat(200 + (i % 7)),
      ...(i % 5 === 0 ? { language: 'french' } : {}),
      title: i % 5 === 0 ? `les phares ${i} et les ports` : `lighthouses ${i} and harbours`,
      meta: { tags: [`t${i % 3}`, `u${i % 4}`], section: { name: `s${i % 6}` } },
      page: i % 4,
      n: i % 9,
      ...(i % 2 ? { flag: true } : {}),
    }));
    const specs: Array<[Document, Document]> = [
      [
        { page: 1, title: 'text', 'meta.section.name': 'text' },
        { name: 'compound_text', weights: { title: 5 } },
      ],
      [{ 'meta.tags': 1, n: -1 }, { name: 'tags_n' }],
      [{ n: 1 }, { name: 'n_partial', partialFilterExpression: { flag: true } }],
    ];
    const kept = db.collection<Document>('kept');
    for (const [key, options] of specs) await kept.createIndex(key, options);
    await kept.insertMany(docs);
    const built = db.collection<Document>('built');
    await built.insertMany(docs);
    for (const [key, options] of specs) await built.createIndex(key, options);
    const ids = async (c: Collection<Document>, filter: Document, hint?: string): Promise<unknown[]> =>
      (await c.find(filter, { projection: { _id: 1 }, ...(hint ? { hint } : {}) }).toArray()).map((d) => d._id).sort();
    const queries: Array<[Document, string?]> = [
      [{ page: 1, $text: { $search: 'lighthouses' } }],
      [{ page: 0, $text: { $search: 'phare', $language: 'french' } }],
      [{ page: 2, $text: { $search: 's2' } }],
      [{ 'meta.tags': 't1', n: { $gte: 3 } }, 'tags_n'],
      [{ n: 4, flag: true }, 'n_partial'],
    ];
    for (const [filter, hint] of queries) {
      const want = await ids(kept, filter, hint);
      expect(want.length).toBeGreaterThan(0);
      expect(await ids(built, filter, hint)).toEqual(want);
    }
  });

  it('lets a second createIndexes of the same index wait for the build', async () => {
    const c = db.collection<Article>('twice');
    await fill(c);
    const [a, b] = await Promise.all([
      c.createIndex({ title: 1 }, { name: 'title_1' }),
      c.createIndex({ title: 1 }, { name: 'title_1' }),
    ]);
    expect([a, b]).toEqual(['title_1', 'title_1']);
    expect(await c.countDocuments({ title: 'article 5 about harbours and lighthouses' }, { hint: 'title_1' })).toBe(1);
  });

  it('abandons the build when the index is dropped', async () => {
    const c = db.collection<Article>('dropped');
    await fill(c);
    const creating = c.createIndex(TEXT, { name: 'text' }).catch((e: unknown) => e);
    while ((await buildsOn(client, c.namespace)).length === 0) {
      // until the build is registered
    }
    await c.dropIndex('text');
    const e = await creating;
    expect(e).toBeInstanceOf(MongoServerError);
    expect((e as MongoServerError).code).toBe(276);
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
    // The same index can be created again, and holds every document.
    await c.createIndex(TEXT, { name: 'text' });
    expect(await searchIds(c, 'lighthouses')).toHaveLength(DOCS);
  });

  it('refuses a key too long to store, leaving no index', async () => {
    const c = db.collection<Article>('toolong');
    await fill(c);
    await c.insertOne({ _id: DOCS, title: 'x'.repeat(3000) });
    await expect(c.createIndex({ title: 1 })).rejects.toMatchObject({ codeName: 'KeyTooLong' });
    expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_']);
  });
});

describe('an index built after another was dropped', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-builds-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // The seed's order: the text index made on the empty collection, dropped, the documents written, the index
  // built over them. The build's index was served until the engine stopped, and missing after it started again.
  it('is still there when the engine starts again', async () => {
    let engine = await startEngine({ port: 0, dbPath: dir });
    let client = await MongoClient.connect(engine.uri);
    let c = client.db('seeded').collection<Article>('articles');
    try {
      await c.createIndex({ title: 1 }, { name: 'by_title' });
      await c.createIndex(TEXT, { name: 'text' });
      await c.dropIndex('text');
      await fill(c);
      await c.createIndex(TEXT, { name: 'text' });
      expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'by_title', 'text']);
    } finally {
      await client.close();
      await engine.close();
    }

    engine = await startEngine({ port: 0, dbPath: dir });
    client = await MongoClient.connect(engine.uri);
    c = client.db('seeded').collection<Article>('articles');
    try {
      expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'by_title', 'text']);
      expect(await searchIds(c, 'lighthouses')).toHaveLength(DOCS);
    } finally {
      await client.close();
      await engine.close();
    }
  });
});

describe('an index build the engine was stopped in', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engine-builds-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('continues when the engine starts again', async () => {
    let engine = await startEngine({ port: 0, dbPath: dir });
    let client = await MongoClient.connect(engine.uri);
    let c = client.db('resume').collection<Article>('articles');
    await fill(c);
    const creating = c.createIndex(TEXT, { name: 'text' }).catch((e: unknown) => e);
    while ((await buildsOn(client, c.namespace)).length === 0) {
      // until the build is registered
    }
    await client.close(true);
    await engine.close();
    await creating;

    engine = await startEngine({ port: 0, dbPath: dir });
    client = await MongoClient.connect(engine.uri);
    c = client.db('resume').collection<Article>('articles');
    try {
      while ((await buildsOn(client, c.namespace)).length > 0) {
        // until the build continued at start has ended
      }
      expect((await c.listIndexes().toArray()).map((i) => i.name)).toEqual(['_id_', 'text']);
      expect(await searchIds(c, 'lighthouses')).toHaveLength(DOCS);
    } finally {
      await client.close();
      await engine.close();
    }
  });
});
