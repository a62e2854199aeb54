// Reads by key of concurrent requests go out as one command (src/store/shared-reads.ts): each reader still gets
// exactly the documents of its own keys, as objects of its own, and a failed command fails only its own readers.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { BSON, MongoClient, type Collection, type CommandStartedEvent, type Db, type Document } from 'mongodb';
import { findByKeys, MAX_SHARED_KEY_CHARS, MAX_SHARED_KEYS } from '../../src/store/shared-reads.js';
import { isBackgroundCommand } from '../helpers/background.js';
import { testMongoUri, uniqueDbName } from '../helpers/db.js';
import { startMonitoredService, type MonitoredService } from '../helpers/monitored.js';
import { pipelinedPosts } from '../helpers/pipelined.js';
import { article, insert } from './fixtures.js';

const published = { status: 'published' };
const titles = { _id: 1, title: 1 };
const everything = {};

describe('findByKeys', () => {
  let client: MongoClient;
  let db: Db;
  const finds: CommandStartedEvent[] = [];
  const dbName = uniqueDbName('shared');

  beforeAll(async () => {
    client = new MongoClient(testMongoUri(), { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
    client.on('commandStarted', (event) => {
      if (event.databaseName === dbName && event.commandName === 'find' && !isBackgroundCommand(event))
        finds.push(event);
    });
    await client.connect();
    db = client.db(dbName);
    await db.collection('things').insertMany(
      Array.from({ length: 1200 }, (_, i) => ({
        _id: `t${i}` as never,
        title: `Thing ${i}`,
        status: i % 10 === 9 ? 'draft' : 'published',
        body: `body ${i}`,
      })),
    );
  });
  afterAll(async () => {
    await db.dropDatabase().catch(() => undefined);
    await client.close();
  });

  // The store keeps one Collection object per collection (reads merge by it), as here.
  let collection: Collection<Document>;
  const things = () => (collection ??= db.collection<Document>('things'));
  const ids = (docs: Document[]) => docs.map((d) => d._id as string).sort();

  test('a read with nothing of its kind on its way leaves at once; the others of its turn leave together after it', async () => {
    finds.length = 0;
    const [a, b, c] = await Promise.all([
      findByKeys(things(), '_id', ['t1', 't2'], published, titles),
      findByKeys(things(), '_id', ['t3', 't9', 'missing'], published, titles),
      findByKeys(things(), '_id', ['t2', 't4'], published, titles),
    ]);
    expect(finds.map((f) => (f.command.filter as Document)._id)).toEqual([
      { $in: ['t1', 't2'] },
      { $in: ['t3', 't9', 'missing', 't2', 't4'] },
    ]);
    expect(ids(a)).toEqual(['t1', 't2']);
    expect(ids(b)).toEqual(['t3']); // t9 is a draft, `missing` is absent
    expect(ids(c)).toEqual(['t2', 't4']);
    expect(a[0]).toEqual({ _id: 't1', title: 'Thing 1' });
  });

  test("a document two readers of one command asked for is an object of each one's own", async () => {
    finds.length = 0;
    const [, a, b] = await Promise.all([
      findByKeys(things(), '_id', ['t0'], published, titles),
      findByKeys(things(), '_id', ['t5', 't6'], published, titles),
      findByKeys(things(), '_id', ['t5'], published, titles),
    ]);
    expect(finds).toHaveLength(2);
    expect(a.find((d) => d._id === 't5')).toEqual(b[0]);
    expect(a.find((d) => d._id === 't5')).not.toBe(b[0]);
    b[0]!.title = 'changed by one request';
    expect(a.find((d) => d._id === 't5')!.title).toBe('Thing 5');
  });

  test('another filter, projection, field or collection, or a later turn, is another command', async () => {
    finds.length = 0;
    await Promise.all([
      findByKeys(things(), '_id', ['t1'], published, titles),
      findByKeys(things(), '_id', ['t1'], { status: 'draft' }, titles),
      findByKeys(things(), '_id', ['t1'], published, { _id: 1, body: 1 }),
      findByKeys(things(), 'title', ['Thing 1'], published, titles),
      findByKeys(db.collection('others'), '_id', ['t1'], published, titles),
    ]);
    expect(finds).toHaveLength(5);
    finds.length = 0;
    await findByKeys(things(), '_id', ['t1'], published, titles);
    await findByKeys(things(), '_id', ['t2'], published, titles);
    expect(finds).toHaveLength(2);
  });

  test(`no command asks for more than ${MAX_SHARED_KEYS} keys`, async () => {
    finds.length = 0;
    const sizes = [100, 500, 500, 100];
    const readers = sizes.map((size, r) =>
      Array.from({ length: size }, (_, i) => `t${sizes.slice(0, r).reduce((a, b) => a + b, 0) + i}`),
    );
    const results = await Promise.all(readers.map((keys) => findByKeys(things(), '_id', keys, everything, titles)));
    // The first alone (nothing of its kind was on its way), then 1,000, then 100: 1,100 would be over the limit.
    expect(finds.map((f) => ((f.command.filter as Document)._id as { $in: string[] }).$in.length)).toEqual([
      100, 1000, 100,
    ]);
    expect(results.map((docs) => docs.length)).toEqual(sizes);
    expect(ids(results[3]!)).toEqual([...readers[3]!].sort());
  });

  test(`no command merges more than ${MAX_SHARED_KEY_CHARS} characters of keys`, async () => {
    finds.length = 0;
    const long = (c: string) => c.repeat(Math.ceil(MAX_SHARED_KEY_CHARS * 0.6));
    const results = await Promise.all([
      findByKeys(things(), '_id', ['t1'], published, titles),
      findByKeys(things(), '_id', [long('a')], published, titles),
      findByKeys(things(), '_id', [long('b'), 't2'], published, titles),
      findByKeys(things(), '_id', ['t3'], published, titles),
    ]);
    // t1 alone; then the first long key; the second would take that group past the limit, so it starts another, which t3 joins.
    expect(
      finds.map((f) =>
        ((f.command.filter as Document)._id as { $in: string[] }).$in.map((k) => (k.length > 64 ? k[0] : k)),
      ),
    ).toEqual([['t1'], ['a'], ['b', 't2', 't3']]);
    expect(results.map(ids)).toEqual([['t1'], [], ['t2'], ['t3']]);
  });

  test('a failed command fails the reads in it, not those of another command of the same turn', async () => {
    const bad = { status: { $noSuchOperator: 1 } }; // refused by the store
    const [failedA, failedB, fine] = await Promise.allSettled([
      findByKeys(things(), '_id', ['t1'], bad, titles),
      findByKeys(things(), '_id', ['t2'], bad, titles),
      findByKeys(things(), '_id', ['t3'], published, titles),
    ]);
    expect(failedA.status).toBe('rejected');
    expect(failedB.status).toBe('rejected');
    expect(fine).toEqual({ status: 'fulfilled', value: [{ _id: 't3', title: 'Thing 3' }] });
  });

  // The store refuses strings of invalid UTF-8 (the engine checks what it is sent), but a MongoDB that another system
  // writes to may hold one. A stand-in collection answers with such a document: only the reads of its key fail.
  test('a document that does not decode fails the reads of its key only, and leaves nothing unanswered', async () => {
    const good = (id: string) => BSON.serialize({ _id: id, title: `Title ${id}` });
    const broken = BSON.serialize({ _id: 'bad', title: 'xx' });
    broken.set([0xff, 0xfe], broken.indexOf(0x78)); // "xx" -> two bytes that are no UTF-8
    const sent: string[][] = [];
    const standIn = {
      find: (filter: { _id: { $in: string[] } }) => ({
        toArray: async () => {
          sent.push(filter._id.$in);
          return filter._id.$in.map((id) => (id === 'bad' ? broken : good(id)));
        },
      }),
    } as unknown as Collection<Document>;
    const reads = await Promise.allSettled([
      findByKeys(standIn, '_id', ['x'], published, titles),
      findByKeys(standIn, '_id', ['y', 'bad'], published, titles),
      findByKeys(standIn, '_id', ['z'], published, titles),
      findByKeys(standIn, '_id', ['bad'], published, titles),
    ]);
    expect(sent).toEqual([['x'], ['y', 'bad', 'z']]);
    expect(reads.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected']);
    expect(reads[2]).toEqual({ status: 'fulfilled', value: [{ _id: 'z', title: 'Title z' }] });
  });
});

describe('through the service', () => {
  let service: MonitoredService;
  const QUERY = 'query One($id: ID!) { article(id: $id) { id title } }';
  const asked = ['a1', 'a2', 'a3', 'draft1', 'nobody', 'a1', 'a4', 'a5', 'a2', 'a6', 'a7', 'a8'];

  beforeAll(async () => {
    service = await startMonitoredService({
      prefix: 'shared_http',
      beforeStart: (_store, db) =>
        insert(db, {
          articles: [
            ...['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'].map((id) => article(id, { title: `Title of ${id}` })),
            article('draft1', { status: 'draft' }),
          ],
        }),
    });
  });
  afterAll(() => service.close());

  test('requests arriving together read their articles in two commands (the first alone), and each answer is its own', async () => {
    const bodies = asked.map((id) => JSON.stringify({ query: QUERY, variables: { id } }));
    const alone: string[] = [];
    for (const body of bodies)
      alone.push(
        await (
          await fetch(`${service.url}/graphql`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
        ).text(),
      );
    expect(
      alone.map((a) => (JSON.parse(a) as { data: { article: { id: string } | null } }).data.article?.id ?? null),
    ).toEqual(asked.map((id) => (id === 'draft1' || id === 'nobody' ? null : id)));

    service.commands.length = 0;
    const together = await pipelinedPosts(service.url, '/graphql', bodies);
    expect(together).toEqual(alone);
    const articleFinds = service.commands.filter((c) => c.commandName === 'find' && c.command.find === 'articles');
    expect(articleFinds.map((f) => ((f.command.filter as Document)._id as { $in: string[] }).$in.sort())).toEqual([
      ['a1'],
      [...new Set(asked.slice(1))].sort(),
    ]);
  });
});
