// The round-trip bound (docs/api.md): store commands grow with the depth of a query, never with
// the number of objects. Counted with the driver's command monitoring on the service's own client.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { MongoClient, type CommandFailedEvent, type CommandStartedEvent, type CommandSucceededEvent } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { testMongoUri, uniqueDbName } from '../helpers/db.js';
import { insert } from './fixtures.js';
import { contentGraph } from './graph.fixture.js';
import { isBackgroundCommand } from '../helpers/background.js';

const DEEP = `query Deep($id: ID!) { page(id: $id) { id issues(first: 20) { totalCount edges { node {
  id contents { category { id } articles {
    id authors { id } categories { id } keywords { id }
    attachments { id video { id formats { format } } }
    elements { liveBlogs { id previewMessages { id } } polls { id voted } quizzes { id questions { id } } }
  } }
} } } } }`;

let client: MongoClient;
let service: RunningService;
const commands: CommandStartedEvent[] = [];
const dbName = uniqueDbName('rt');
/**
 * The request's commands grouped by wait: a command sent after one of the request's replies came back (since its
 * command before) may depend on that reply, and starts a new wait for the store (a round trip in sequence); those
 * sent before any reply came back join the wait of the one before them. (Counting a wait as over only once nothing
 * is out would join a level's read to the wait before it whenever a read of that wait that nothing depends on was
 * still out: reads by key leave at the end of their turn, store/shared-reads.ts, after the other commands of it.)
 */
const waits: string[][] = [];
const out = new Set<number>();
let replied = true;

beforeAll(async () => {
  // Commands sent together leave together only over idle pooled connections (otherwise one is opened first, and a
  // reply may come back meanwhile): the pool keeps a few open from the start (minPoolSize).
  client = new MongoClient(testMongoUri(), { monitorCommands: true, serverSelectionTimeoutMS: 5000, minPoolSize: 8 });
  client.on('commandStarted', (event) => {
    if (isBackgroundCommand(event) || event.databaseName !== dbName) return;
    commands.push(event);
    if (replied) waits.push([]);
    replied = false;
    waits.at(-1)!.push(`${event.commandName}:${String(event.command[event.commandName])}`);
    out.add(event.requestId);
  });
  const done = (event: CommandSucceededEvent | CommandFailedEvent): void => {
    if (out.delete(event.requestId)) replied = true;
  };
  client.on('commandSucceeded', done);
  client.on('commandFailed', done);
  await client.connect();
  const db = client.db(dbName);
  const store = await Store.onDb(client, db);
  await insert(db, contentGraph({ prefix: 'big-', issues: 20, articlesPerIssue: 30 }).fixture);
  await insert(db, contentGraph({ prefix: 'small-', issues: 1, articlesPerIssue: 1, channelId: '8' }).fixture);
  await insert(db, contentGraph({ prefix: 'off-', issues: 3, articlesPerIssue: 3, channelId: '9' }).fixture);
  await db.collection('pages').updateOne({ _id: 'off-page' as never }, { $set: { enabled: false } });
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    MONGODB_DB: dbName,
  });
  service = await startService({ config, log: createLogger('silent'), store });
}, 120_000);

afterAll(async () => {
  await service.stop();
  await client
    .db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
});

/** Posts one operation with the commands and waits of earlier ones forgotten; its answer. */
async function post(query: string, variables: Record<string, unknown>): Promise<{ data?: any; errors?: any }> {
  commands.length = 0;
  waits.length = 0;
  replied = true;
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: any; errors?: any };
}

/** Runs the deep query for one page; returns its data and the store commands it sent, by name and collection. */
async function deepQuery(pageId: string): Promise<{ data: any; sent: string[] }> {
  const body = await post(DEEP, { id: pageId });
  expect(body.errors).toBeUndefined();
  const sent = commands
    .filter((c) => c.databaseName === dbName)
    .map((c) => `${c.commandName}:${String(c.command[c.commandName])}`);
  return { data: body.data, sent };
}

test('20 issues of 30 articles cost exactly the store commands of 1 issue of 1 article', async () => {
  const big = await deepQuery('big-page');
  const small = await deepQuery('small-page');

  // The answers really are that big and that small, with every level filled.
  const bigIssues = big.data.page.issues.edges;
  expect(bigIssues).toHaveLength(20);
  expect(bigIssues.flatMap((e: any) => e.node.contents.flatMap((c: any) => c.articles))).toHaveLength(600);
  const anArticle = bigIssues[7].node.contents[0].articles[29];
  expect(anArticle.authors).toHaveLength(2);
  expect(anArticle.attachments[0].video.formats).toEqual([{ format: 'mp4-720p' }]);
  expect(anArticle.elements.liveBlogs[0].previewMessages).toHaveLength(5);
  expect(anArticle.elements.quizzes[0].questions).toHaveLength(1);
  expect(small.data.page.issues.edges).toHaveLength(1);

  expect(big.sent.length).toBe(small.sent.length);
  expect([...big.sent].sort()).toEqual([...small.sent].sort());
  // No loader fell back to one query per object, and no cursor needed a getMore.
  expect(big.sent.filter((c) => c.startsWith('getMore'))).toEqual([]);
}, 180_000); // 600 fully linked articles through GraphQL: generous on a loaded CI machine

// The benchmark's nested query (bench/scenarios.ts): one command per level and collection, the reads a
// hand-written handler makes (bench/minimal-nested.ts). Reading ahead what the operation selects below the issues
// (store/content/loaders.ts, follow-ups) must not add one.
const NESTED = `query Nested($id: ID!) { page(id: $id) { id name issues(first: 5) { totalCount edges { node {
  id title date issueNumber contents { categoryId category { id name slug } articles {
    id title slug firstPublishedDate premium summary authors { id name slug } categories { id name slug } keywords { id name slug }
  } }
} } } } }`;

test('the nested query reads each collection once per level', async () => {
  const body = await post(NESTED, { id: 'big-page' });
  expect(body.errors).toBeUndefined();
  const articles = body.data.page.issues.edges.flatMap((e: any) => e.node.contents.flatMap((c: any) => c.articles));
  expect(articles.length).toBeGreaterThan(50);
  expect(articles.every((a: any) => a.authors.length > 0 && a.keywords.length > 0 && a.categories.length > 0)).toBe(
    true,
  );
  const sent = commands
    .filter((c) => c.databaseName === dbName)
    .map((c) => `${c.commandName}:${String(c.command[c.commandName])}`);
  expect([...sent].sort()).toEqual([
    'aggregate:issues', // the page of issues
    'aggregate:issues', // totalCount
    'find:articles',
    'find:authors',
    'find:contentCategories', // the contents' categories
    'find:contentCategories', // the articles' categories not read with them
    'find:keywords',
    'find:pages',
  ]);
});

// What the nested query waits for, in order (same request as above), as the hand-written handler does: the page's
// issues and their count are read beside the page (operations/content/pages.ts), and what the operation selects
// below the issues level by level before they resolve (store/content/loaders.ts, follow-ups), so the count does not
// wait for all of it.
test('the nested query waits for the store four times: the page with its issues, then once per level', async () => {
  expect((await post(NESTED, { id: 'big-page' })).errors).toBeUndefined();
  expect(waits.map((w) => [...w].sort())).toEqual([
    ['aggregate:issues', 'aggregate:issues', 'find:pages'],
    ['find:contentCategories'],
    ['find:articles'],
    ['find:authors', 'find:contentCategories', 'find:keywords'],
  ]);
});

// The issues read beside the page are those the field will ask for: each selected `issues` (aliases, fragments) with
// its own arguments, none for one `@skip` leaves out, and arguments the field refuses are still refused by it.
test('the page reads beside it the issues each selected issues field asks for, and nothing for a skipped one', async () => {
  const body = await post(
    `query($skip: Boolean!) { page(id: "big-page") { a: issues(first: 2) { edges { node { id } } } ...F
       b: issues(first: 1) @skip(if: $skip) { totalCount } } }
     fragment F on Page { c: issues(first: 3) { totalCount edges { node { id } } } }`,
    { skip: true },
  );
  expect(body.errors).toBeUndefined();
  expect(body.data.page.a.edges).toHaveLength(2);
  expect(body.data.page.c.edges).toHaveLength(3);
  expect(body.data.page.c.totalCount).toBe(20);
  expect(body.data.page.b).toBeUndefined();
  // One wait: the page, the two pages of issues (one command) and the count. No second read of issues.
  expect(waits.map((w) => [...w].sort())).toEqual([['aggregate:issues', 'aggregate:issues', 'find:pages']]);
  expect(commands.filter((c) => JSON.stringify(c.command).includes('$unionWith'))).toHaveLength(1);

  // A bad argument on the page's issues loses that field (a nullable connection), not the page.
  const refused = await post('{ page(id: "big-page") { name issues(first: 0) { totalCount } } }', {});
  expect(refused.data?.page).toEqual({ name: 'Page big-page', issues: null });
  expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
});

// A disabled page answers PAGE_NOT_ENABLED as soon as the page is read; its issues, read beside it, must not pull
// their contents, articles and references after the answer is sent (the request's loaders are released then).
test('nothing is read ahead for an answer already sent', async () => {
  const body = await post(NESTED, { id: 'off-page' });
  expect(body.errors?.[0]?.extensions?.code).toBe('PAGE_NOT_ENABLED');
  // Wait until the store has been idle for a while: whatever was still under way has been sent by then.
  let seen = -1;
  for (let round = 0; round < 50 && (seen !== commands.length || out.size > 0); round++) {
    seen = commands.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const sent = commands
    .filter((c) => c.databaseName === dbName)
    .map((c) => `${c.commandName}:${String(c.command[c.commandName])}`);
  expect(sent.filter((c) => /articles|authors|keywords/.test(c))).toEqual([]);
});
