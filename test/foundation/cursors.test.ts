// Relay pagination as a client walks it: every connection pages cleanly to its end with its own cursors, and
// refuses every cursor it did not issue (another connection, another parent, another filter, altered, forged)
// with BAD_USER_INPUT — never an empty page, never a store error.
import { randomBytes } from 'node:crypto';
import { CursorCodec, type ConnectionKind } from '../../src/cursors/codec.js';
import { connections } from '../../src/operations/connections.js';
import { insertCatalogue } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    beforeStart: async (store) => {
      await insertCatalogue(store);
      const g = contentGraph({ prefix: 'g-', issues: 5, articlesPerIssue: 3 });
      const h = contentGraph({ prefix: 'h-', issues: 3, articlesPerIssue: 1, channelId: '8' });
      await f.insert(store.db, g.fixture);
      await f.insert(store.db, h.fixture);
      await f.insert(store.db, {
        pages: Array.from({ length: 5 }, (_, i) => f.page(`p-${i}`, { name: `Page ${i % 2}` })),
      });
    },
  });
});
afterAll(() => svc.close());

interface Connection {
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const PAGE = 'edges { cursor node { id } } pageInfo { hasNextPage endCursor }';

/** Each connection: a query taking $first/$after, and where its connection sits in the answer. */
const lists: Record<string, { query: string; at: (data: any) => Connection; variables?: Record<string, unknown> }> = {
  pages: {
    query: `query($first: Int!, $after: String) { pages(first: $first, after: $after) { ${PAGE} } }`,
    at: (d) => d.pages,
  },
  articles: {
    query: `query($first: Int!, $after: String) { articles(first: $first, after: $after) { ${PAGE} } }`,
    at: (d) => d.articles,
  },
  filteredArticles: {
    query: `query($first: Int!, $after: String, $filter: ArticlesFilter) { articles(first: $first, after: $after, filter: $filter) { ${PAGE} } }`,
    at: (d) => d.articles,
    variables: { filter: { authorId: 'h-au-1' } },
  },
  pageIssues: {
    query: `query($first: Int!, $after: String) { page(id: "g-page") { issues(first: $first, after: $after) { ${PAGE} } } }`,
    at: (d) => d.page?.issues,
  },
  otherPageIssues: {
    query: `query($first: Int!, $after: String) { page(id: "h-page") { issues(first: $first, after: $after) { ${PAGE} } } }`,
    at: (d) => d.page?.issues,
  },
  categoryArticles: {
    query: `query($first: Int!, $after: String) { contentCategory(id: "g-cat-a") { articles(first: $first, after: $after) { ${PAGE} } } }`,
    at: (d) => d.contentCategory?.articles,
  },
  authorArticles: {
    query: `query($first: Int!, $after: String) { author(id: "g-au-1") { articles(first: $first, after: $after) { ${PAGE} } } }`,
    at: (d) => d.author?.articles,
  },
  otherAuthorArticles: {
    query: `query($first: Int!, $after: String) { author(id: "g-au-2") { articles(first: $first, after: $after) { ${PAGE} } } }`,
    at: (d) => d.author?.articles,
  },
  keywordArticles: {
    query: `query($first: Int!, $after: String) { keyword(id: "g-kw-1") { articles(first: $first, after: $after) { ${PAGE} } } }`,
    at: (d) => d.keyword?.articles,
  },
  categoryProducts: {
    query: `query($first: Int!, $after: String) { productCategories(parentId: "cat-magazines") { products(first: $first, after: $after) { ${PAGE} } } }`,
    at: (d) => d.productCategories?.[0]?.products,
  },
};

async function page(name: string, first: number, after: string | null) {
  const list = lists[name]!;
  return svc.gql<any>(list.query, { first, after, ...list.variables }, { accept: 'application/graphql-response+json' });
}

/** Walks a connection `first` items at a time; returns the ids in order and the cursor the first page ended on. */
async function walk(name: string, first: number): Promise<{ ids: string[]; midCursor: string }> {
  const ids: string[] = [];
  let after: string | null = null;
  let midCursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const res = await page(name, first, after);
    expect(res.body.errors).toBeUndefined();
    const connection = lists[name]!.at(res.body.data);
    ids.push(...connection.edges.map((e) => e.node.id));
    if (!connection.pageInfo.hasNextPage) return { ids, midCursor: midCursor ?? connection.pageInfo.endCursor! };
    midCursor ??= connection.pageInfo.endCursor!;
    after = connection.pageInfo.endCursor;
  }
  throw new Error(`${name} did not end`);
}

const midCursors = new Map<string, string>();

test.each(Object.keys(lists))('%s walks to its end: every item once, in the order of one big page', async (name) => {
  const all = lists[name]!.at((await page(name, 100, null)).body.data).edges.map((e) => e.node.id);
  expect(all.length).toBeGreaterThan(1);
  const walked = await walk(name, all.length > 4 ? 2 : 1);
  expect(walked.ids).toEqual(all);
  midCursors.set(name, walked.midCursor);
});

test('every connection refuses the cursors of every other connection (kind, parent or filter) with BAD_USER_INPUT', async () => {
  expect(midCursors.size).toBe(Object.keys(lists).length);
  let pairs = 0;
  for (const target of Object.keys(lists)) {
    for (const [source, cursor] of midCursors) {
      if (source === target) continue;
      const res = await page(target, 2, cursor);
      expect({ pair: `${source} -> ${target}`, code: res.body.errors?.[0]?.extensions?.code }).toEqual({
        pair: `${source} -> ${target}`,
        code: 'BAD_USER_INPUT',
      });
      expect(res.status).toBeLessThan(500);
      pairs++;
    }
  }
  expect(pairs).toBe(90);
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

test.each([
  ['an operator in the sort keys', b64([0, [{ $ne: null }, 'article-5']])],
  ['an unknown operator', b64({ $foo: 1 })],
  ['$where', b64([0, [{ $where: 'sleep(1000)' }, 'x']])],
  ['a regex that does not compile', b64([0, [{ $regex: '(' }, 'x']])],
  ['garbage', 'not-a-cursor'],
  ['an empty string', ''],
  ['a very long cursor', 'A'.repeat(10_000)],
])(
  'a forged cursor (%s) on a root connection is BAD_USER_INPUT, an execution error: 200 with data null',
  async (_name, cursor) => {
    for (const name of ['pages', 'articles']) {
      const res = await page(name, 2, cursor);
      expect({ status: res.status, data: res.body.data, code: res.body.errors?.[0]?.extensions?.code }).toEqual({
        status: 200,
        data: null,
        code: 'BAD_USER_INPUT',
      });
      expect(res.headers.get('content-type')).toContain('application/graphql-response+json');
    }
  },
);

test('a cursor altered in any part (payload or tag) is refused', async () => {
  const cursor = midCursors.get('articles')!;
  const [payload, tag] = cursor.split('.') as [string, string];
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  for (const altered of [
    `${flip(payload, 3)}.${tag}`,
    `${payload}.${flip(tag, 5)}`,
    `${payload}.`,
    payload,
    `${payload}.${tag}.${tag}`,
  ]) {
    const res = await page('articles', 2, altered);
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  }
});

describe('the codec itself', () => {
  const codec = new CursorCodec([randomBytes(32)]);
  const kind: ConnectionKind = connections.pageIssues;

  test('a signed cursor whose keys do not have the sort keys types is still refused', () => {
    const good = { offset: 3, keys: [new Date(0), 7, 'issue-1'] };
    expect(codec.decode({ kind, parent: 'p' }, codec.encode({ kind, parent: 'p' }, good))).toEqual(good);
    for (const keys of [
      [{ $ne: null }, 7, 'x'],
      [new Date(0), '7', 'x'],
      [new Date(0), 7.5, 'x'],
      [new Date(0), 7, { $gt: '' }],
      [null, 7, 'x'],
      [new Date(0), 7],
    ]) {
      expect(() =>
        codec.decode({ kind, parent: 'p' }, codec.encode({ kind, parent: 'p' }, { offset: 0, keys })),
      ).toThrow(/not a cursor of this connection/);
    }
    expect(() => codec.decode({ kind, parent: 'p' }, codec.encode({ kind, parent: 'p' }, { offset: -1 }))).toThrow();
  });

  test('rotation: a cursor signed with an older key still verifies while that key is listed', () => {
    const old = randomBytes(32);
    const fresh = randomBytes(32);
    const issued = new CursorCodec([old]).encode({ kind, parent: 'p' }, { offset: 1 });
    expect(new CursorCodec([fresh, old]).decode({ kind, parent: 'p' }, issued)).toEqual({ offset: 1 });
    expect(() => new CursorCodec([fresh]).decode({ kind, parent: 'p' }, issued)).toThrow();
  });
});

test('a second process on the same store accepts the cursors of the first (the key is kept in the store)', async () => {
  const { startService } = await import('../../src/server.js');
  const { createLogger } = await import('../../src/logger.js');
  const other = await startService({ config: svc.config, log: createLogger('silent'), store: svc.store });
  try {
    const res = await fetch(`${other.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: lists.articles!.query,
        variables: { first: 2, after: midCursors.get('articles') },
      }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data.articles.edges).toHaveLength(2);
  } finally {
    await other.stop();
  }
});
