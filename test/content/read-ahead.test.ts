// What the loaders read ahead (store/content/loaders.ts, follow-ups) follows what each place in the operation selects,
// with its `@skip` / `@include` applied: an operation that shows an issue's articles in one place and only issue ids in
// another reads the articles of that one issue, not of every issue listed. Counted as the documents the store sent
// back for the request's commands (the driver's command monitoring on the service's own client), by collection, and
// compared with the documents the answer shows.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { BSON, MongoClient, type CommandStartedEvent, type CommandSucceededEvent } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { isBackgroundCommand } from '../helpers/background.js';
import { testMongoUri, uniqueDbName } from '../helpers/db.js';
import { insert } from './fixtures.js';
import { contentGraph } from './graph.fixture.js';

let client: MongoClient;
let service: RunningService;
const dbName = uniqueDbName('ra');
/** Collection of each command the request sent, by request id, and the documents each reply brought back. */
const started = new Map<number, string>();
const read = new Map<string, number>();

const PAGE = 'ra-page';
const issueId = (n: number): string => `ra-issue-${n}`;

beforeAll(async () => {
  client = new MongoClient(testMongoUri(), { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
  client.on('commandStarted', (event: CommandStartedEvent) => {
    if (isBackgroundCommand(event) || event.databaseName !== dbName) return;
    if (event.commandName !== 'find' && event.commandName !== 'aggregate' && event.commandName !== 'getMore') return;
    started.set(
      event.requestId,
      event.commandName === 'getMore' ? String(event.command.collection) : String(event.command[event.commandName]),
    );
  });
  client.on('commandSucceeded', (event: CommandSucceededEvent) => {
    const collection = started.get(event.requestId);
    if (collection === undefined) return;
    started.delete(event.requestId);
    // Raw reads (src/store/read.ts) leave the reply's cursor, or its batch, as BSON bytes.
    type Cursor = { firstBatch?: unknown[]; nextBatch?: unknown[] };
    const raw = (event.reply as { cursor?: Cursor | Uint8Array }).cursor;
    const cursor = raw instanceof Uint8Array ? (BSON.deserialize(raw) as Cursor) : raw;
    const n = (cursor?.firstBatch ?? cursor?.nextBatch ?? []).length;
    read.set(collection, (read.get(collection) ?? 0) + n);
  });
  await client.connect();
  const db = client.db(dbName);
  const store = await Store.onDb(client, db);
  // 8 issues of 5 articles each; every article has 2 authors, 2 categories and 2 keywords (the same ones).
  await insert(db, contentGraph({ prefix: 'ra-', issues: 8, articlesPerIssue: 5 }).fixture);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    RESPONSE_CACHE_MB: '0',
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

interface Answer {
  data?: any;
  errors?: any;
  /** Documents the store sent back for the request, by collection. */
  read: Record<string, number>;
}

/** Posts one operation; its answer and what it read, once every command it sent has been answered. */
async function post(query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  read.clear();
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: any; errors?: any };
  // A read ahead still under way would show up after the answer: wait until nothing is left outstanding.
  for (let round = 0; round < 50 && started.size > 0; round++) await new Promise((resolve) => setTimeout(resolve, 20));
  return { ...body, read: Object.fromEntries(read) };
}

/** The distinct ids of every object under `key` anywhere in `value`. */
function idsUnder(value: unknown, key: string, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) idsUnder(item, key, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key)
        for (const item of [v].flat())
          if (item && typeof item === 'object' && 'id' in item) into.add((item as { id: string }).id);
      idsUnder(v, key, into);
    }
  }
  return into;
}

const ARTICLE = 'id title authors { id } categories { id } keywords { id }';

test('a place that lists only issue ids reads nothing below them; the place that shows an issue deeply reads what it shows', async () => {
  const answer = await post(
    `query($id: ID!, $page: ID!) {
    issue(id: $id) { id contents { category { id } articles { ${ARTICLE} } } }
    page(id: $page) { issues(first: 8) { edges { node { id } } } }
  }`,
    { id: issueId(3), page: PAGE },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data.page.issues.edges).toHaveLength(8);
  const articles = answer.data.issue.contents.flatMap((c: any) => c.articles);
  expect(articles).toHaveLength(5);
  expect(
    articles.every((a: any) => a.authors.length === 2 && a.keywords.length === 2 && a.categories.length === 2),
  ).toBe(true);
  // Only issue 3's five articles, not the contents and articles of all eight issues listed (40 articles).
  expect(answer.read.articles).toBe(5);
  expect(answer.read.authors).toBe(2);
  expect(answer.read.keywords).toBe(2);
});

test('of two pages of issues, the one showing only ids reads nothing below its issues', async () => {
  const answer = await post(
    `query($page: ID!) { page(id: $page) {
    ids: issues(first: 6) { edges { node { id } } }
    deep: issues(first: 1) { edges { node { id contents { category { id } articles { ${ARTICLE} } } } } }
  } }`,
    { page: PAGE },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data.page.ids.edges).toHaveLength(6);
  const articles = answer.data.page.deep.edges[0].node.contents.flatMap((c: any) => c.articles);
  expect(articles).toHaveLength(5);
  expect(answer.read.articles).toBe(idsUnder(answer.data, 'articles').size);
  expect(answer.read.articles).toBe(5);
  expect(answer.read.authors).toBe(idsUnder(answer.data, 'authors').size);
  expect(answer.read.keywords).toBe(idsUnder(answer.data, 'keywords').size);
});

test('contents left out by @skip / @include are not read ahead, whether the condition is a literal or a variable', async () => {
  const declared = (directive: string): string =>
    ['yes', 'no']
      .filter((v) => directive.includes(`$${v}`))
      .map((v) => `, $${v}: Boolean!`)
      .join('');
  const nested = (
    directive: string,
  ): string => `query($page: ID!${declared(directive)}) { page(id: $page) { issues(first: 4) { edges { node {
    id contents ${directive} { category { id } articles { ${ARTICLE} } }
  } } } } }`;
  for (const directive of ['@skip(if: true)', '@include(if: false)', '@skip(if: $yes)', '@include(if: $no)']) {
    const answer = await post(nested(directive), {
      page: PAGE,
      ...(directive.includes('$') ? { yes: true, no: false } : {}),
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data.page.issues.edges).toHaveLength(4);
    expect(answer.data.page.issues.edges[0].node.contents).toBeUndefined();
    // The page and its issues (one more than shown, to tell whether a next page exists), nothing below them.
    expect(answer.read).toEqual({ pages: 1, issues: 5 });
  }
  // The same document with the variables the other way round reads (and shows) the contents: the selection made
  // for one set of variable values is not reused for another.
  for (const directive of ['@skip(if: $no)', '@include(if: $yes)']) {
    const answer = await post(nested(directive), { page: PAGE, yes: true, no: false });
    expect(answer.errors).toBeUndefined();
    expect(
      answer.data.page.issues.edges.flatMap((e: any) => e.node.contents.flatMap((c: any) => c.articles)),
    ).toHaveLength(20);
    expect(answer.read.articles).toBe(20);
  }
  const skipped = `query($page: ID!, $skip: Boolean!) { page(id: $page) { issues(first: 4) { edges { node { id contents @skip(if: $skip) { articles { id } } } } } } }`;
  for (const skip of [true, false, true]) {
    const answer = await post(skipped, { page: PAGE, skip });
    expect(answer.errors).toBeUndefined();
    expect(answer.read.articles ?? 0).toBe(skip ? 0 : 20);
  }
});

test('a skipped field below the articles is not read ahead either', async () => {
  const answer = await post(
    `query($page: ID!, $skip: Boolean!) { page(id: $page) { issues(first: 2) { edges { node {
    contents { articles { id authors @skip(if: $skip) { id } keywords { id } } }
  } } } } }`,
    { page: PAGE, skip: true },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.read.articles).toBe(10);
  expect(answer.read.keywords).toBe(2);
  expect(answer.read.authors).toBeUndefined();
});

test('fragments and inline fragments: each place reads what its own fragments select', async () => {
  const answer = await post(
    `query($page: ID!) { page(id: $page) {
      issues(first: 5) { edges { node { ...IssueId } } }
      one: issues(first: 1) { edges { node { ... on Issue { contents { ...Content } } } } }
    } }
    fragment IssueId on Issue { id }
    fragment Content on IssueContent { category { id } articles { ...ArticleRefs } }
    fragment ArticleRefs on Article { id authors { id } }`,
    { page: PAGE },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data.page.issues.edges).toHaveLength(5);
  expect(answer.data.page.one.edges[0].node.contents[0].articles).toHaveLength(5);
  expect(answer.read.articles).toBe(5);
  expect(answer.read.authors).toBe(2);
  // Neither place selects keywords: none read.
  // node(id) looks the id up among the keywords too (none found); the Article fragment's keywords are not read.
  expect(answer.read.keywords ?? 0).toBe(0);
});

test('aliases: the contents of each issue are read as far as the places listing it go, merged for an issue listed in both', async () => {
  const answer = await post(
    `query($page: ID!) { page(id: $page) {
      a: issues(first: 4) { edges { node { id c: contents { category { id } } } } }
      b: issues(first: 1) { edges { n: node { id c2: contents { list: articles { id writers: authors { id } } } } } }
    } }`,
    { page: PAGE },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data.page.a.edges).toHaveLength(4);
  const shown = answer.data.page.b.edges[0].n.c2.flatMap((c: any) => c.list);
  expect(shown).toHaveLength(5);
  expect(shown[0].writers).toHaveLength(2);
  // The first issue is in both lists: its articles (b) and categories (a) are read; the three others' articles not.
  expect(answer.read.articles).toBe(5);
  expect(answer.read.authors).toBe(2);
  expect(answer.read.contentCategories).toBe(1);
});

test('through node(id), the issue reads ahead what the fragment on its own type selects', async () => {
  const answer = await post(
    `query($id: ID!) { node(id: $id) { id ... on Issue { contents { articles { id authors { id } } } } ... on Article { keywords { id } } } }`,
    { id: issueId(2) },
  );
  expect(answer.errors).toBeUndefined();
  expect(answer.data.node.contents[0].articles).toHaveLength(5);
  expect(answer.read.articles).toBe(5);
  expect(answer.read.authors).toBe(2);
  // node(id) looks the id up among the keywords too (none found); the Article fragment's keywords are not read.
  expect(answer.read.keywords ?? 0).toBe(0);
});
