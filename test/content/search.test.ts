// searchArticles over HTTP: ranking, filters, totals, paging, highlights, facets, visibility and bad input.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Entitlement, Viewer } from '../../src/context.js';
import { unauthenticated } from '../../src/errors.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from './fixtures.js';

const future = new Date(Date.now() + 86_400_000);
const tokens: Record<string, Entitlement[]> = { subscriber: [{ group: 'subscription', validUntil: future }] };

let svc: TestService;

/** 25 articles with the same title, one a day: equal scores, so newest first. */
const pagingIds = Array.from({ length: 25 }, (_, i) => `pg-${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  svc = await startTestService({
    authenticate: async (authorization) => {
      if (!authorization) return null;
      const name = authorization.replace(/^Bearer /, '');
      if (!(name in tokens)) throw unauthenticated();
      return {
        customerId: `cust-${name}`,
        scopes: new Set(['openid']),
        entitlements: async () => tokens[name]!,
      } satisfies Viewer;
    },
  });
  await f.insert(svc.db, {
    articles: [
      f.article('s-bridge', {
        title: 'Harbour bridge reopens after the storm',
        summary: 'The old harbour bridge is open again, two weeks after the storm.',
        categoryIds: ['c-news', 'c-city'],
        authorIds: ['au-1'],
        keywordIds: ['k-1', 'k-2'],
        firstPublishedDate: new Date('2025-03-01T10:00:00Z'),
      }),
      f.article('s-storm', {
        title: 'Storm closes the harbour',
        summary: 'Ferries stopped as the wind hit the coast.',
        categoryIds: ['c-news'],
        authorIds: ['au-2'],
        keywordIds: ['k-1'],
        firstPublishedDate: new Date('2024-11-20T10:00:00Z'),
      }),
      f.article('s-elections', {
        title: 'Local elections: the results',
        summary: 'Candidates debated near the harbour bridges on Sunday.',
        categoryIds: ['c-politics'],
        authorIds: ['au-1'],
        keywordIds: ['k-3'],
        firstPublishedDate: new Date('2024-05-02T10:00:00Z'),
      }),
      f.article('s-premium', {
        title: 'Harbour tunnel plans for the next decade unveiled by the city council',
        summary: 'What the tunnel will cost.',
        premium: true,
        free: false,
        accessControlEnabled: true,
        previewLimit: 5,
        preview: 'Tunnel preview text',
        body: '<p>secret tunnel</p>',
        categoryIds: ['c-city', 'c-hidden'],
        authorIds: ['au-2'],
        keywordIds: ['k-2'],
        firstPublishedDate: new Date('2025-01-15T10:00:00Z'),
      }),
      f.article('s-draft', { status: 'draft', title: 'Harbour bridge draft', firstPublishedDate: null }),
      f.article('s-scheduled', {
        status: 'scheduled',
        title: 'Harbour bridge scheduled',
        publishAt: future,
        firstPublishedDate: null,
      }),
      f.article('s-archived', { status: 'archived', title: 'Harbour bridge archived' }),
      f.article('s-gt', { title: 'GT cars return', summary: 'Racing is back.' }),
      f.article('s-long', {
        title: 'A long read',
        summary:
          'It begins slowly. '.repeat(20) +
          'Then the lighthouse keeper appears and the story turns. ' +
          'More follows. '.repeat(20),
      }),
      ...pagingIds.map((id, i) =>
        f.article(id, { title: 'Zeppelin sighting', summary: 'Seen again.', firstPublishedDate: f.day(i) }),
      ),
    ],
    contentCategories: [
      f.category('c-news'),
      f.category('c-city'),
      f.category('c-politics'),
      f.category('c-hidden', { status: 'inactive' }),
    ],
    authors: [f.author('au-1'), f.author('au-2')],
    keywords: [f.keyword('k-1'), f.keyword('k-2'), f.keyword('k-3')],
  });
});
afterAll(() => svc.close());

async function data(query: string, variables?: Record<string, unknown>, token?: string): Promise<any> {
  const res = await svc.gql(query, variables, token ? { authorization: `Bearer ${token}` } : {});
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data;
}

async function errorOf(query: string, variables?: Record<string, unknown>): Promise<{ status: number; code: unknown }> {
  const res = await svc.gql(query, variables);
  return { status: res.status, code: res.body.errors?.[0]?.extensions?.code };
}

const SEARCH = `query S($q: String!, $filter: ArticleSearchFilter, $first: Int = 20, $after: String) {
  searchArticles(query: $q, filter: $filter, first: $first, after: $after) {
    totalCount
    edges { cursor score node { id } }
    pageInfo { hasNextPage hasPreviousPage endCursor }
  }
}`;

const ids = (d: any): string[] => d.searchArticles.edges.map((e: any) => e.node.id);

describe('ranking and visibility', () => {
  test('results come most relevant first, with falling scores; drafts, scheduled and archived are never found', async () => {
    const d = await data(SEARCH, { q: 'harbour bridge' });
    expect(ids(d)).toEqual(['s-bridge', 's-storm', 's-premium', 's-elections']);
    const scores = d.searchArticles.edges.map((e: any) => e.score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThan(scores[i - 1]);
    expect(d.searchArticles.totalCount).toBe(4);
  });

  test('words match by stem: "bridging" finds "bridge" and "bridges"', async () => {
    expect(ids(await data(SEARCH, { q: 'bridging' }))).toEqual(['s-bridge', 's-elections']);
  });

  test('a quoted phrase is required and a -word excludes', async () => {
    // A phrase matches as a substring (MongoDB's rule): "harbour bridges" holds "harbour bridge".
    expect(ids(await data(SEARCH, { q: '"harbour bridge"' }))).toEqual(['s-bridge', 's-elections']);
    expect(ids(await data(SEARCH, { q: '"bridge reopens"' }))).toEqual(['s-bridge']);
    expect(ids(await data(SEARCH, { q: 'harbour -storm' })).sort()).toEqual(['s-elections', 's-premium']);
  });

  test('premium articles are found; their body and preview follow the same access rules as everywhere', async () => {
    const q = `{ searchArticles(query: "tunnel") { edges { node { id accessAllowed body preview } } } }`;
    expect((await data(q)).searchArticles.edges).toEqual([
      { node: { id: 's-premium', accessAllowed: false, body: null, preview: 'Tunne' } },
    ]);
    expect((await data(q, undefined, 'subscriber')).searchArticles.edges).toEqual([
      { node: { id: 's-premium', accessAllowed: true, body: '<p>secret tunnel</p>', preview: 'Tunnel preview text' } },
    ]);
  });

  test('operator-looking and regex-like text is searched as words', async () => {
    // An operator would match every article; as text, the quoted "$gt" is a phrase no article holds.
    expect(ids(await data(SEARCH, { q: '{"$gt":""}' }))).toEqual([]);
    expect(ids(await data(SEARCH, { q: '{$gt: 1}' }))).toEqual(['s-gt']);
    expect(ids(await data(SEARCH, { q: '{"$where": "1"} harbour' }))).toEqual([]);
    expect(ids(await data(SEARCH, { q: '.* harbour$' })).length).toBe(4);
    // An unclosed quote makes no phrase: its words are searched as words (MongoDB's parser).
    expect(ids(await data(SEARCH, { q: '"harbour bridge' }))).toEqual([
      's-bridge',
      's-storm',
      's-premium',
      's-elections',
    ]);
    expect(ids(await data(SEARCH, { q: 'the' }))).toEqual([]);
  });
});

describe('filters', () => {
  test('categories, authors and keywords match any listed id; filters combine', async () => {
    const by = async (filter: Record<string, unknown>) => ids(await data(SEARCH, { q: 'harbour', filter })).sort();
    expect(await by({ categoryIds: ['c-city'] })).toEqual(['s-bridge', 's-premium']);
    expect(await by({ categoryIds: ['c-politics', 'c-city'] })).toEqual(['s-bridge', 's-elections', 's-premium']);
    expect(await by({ authorIds: ['au-2'] })).toEqual(['s-premium', 's-storm']);
    expect(await by({ keywordIds: ['k-1'] })).toEqual(['s-bridge', 's-storm']);
    expect(await by({ keywordIds: ['k-1'], authorIds: ['au-1'] })).toEqual(['s-bridge']);
  });

  test('the date range is from (inclusive) to before (exclusive); premium narrows both ways', async () => {
    const by = async (filter: Record<string, unknown>) => ids(await data(SEARCH, { q: 'harbour', filter })).sort();
    expect(await by({ publishedFrom: '2025-01-01T00:00:00Z' })).toEqual(['s-bridge', 's-premium']);
    expect(await by({ publishedBefore: '2025-01-15T10:00:00Z' })).toEqual(['s-elections', 's-storm']);
    expect(await by({ publishedFrom: '2024-11-20T10:00:00Z', publishedBefore: '2025-03-01T10:00:00Z' })).toEqual([
      's-premium',
      's-storm',
    ]);
    expect(await by({ premium: true })).toEqual(['s-premium']);
    expect(await by({ premium: false })).toEqual(['s-bridge', 's-elections', 's-storm']);
    const d = await data(SEARCH, { q: 'harbour', filter: { premium: false } });
    expect(d.searchArticles.totalCount).toBe(3);
  });
});

describe('paging', () => {
  test('cursors page through the whole result without gaps or repeats; equal scores come newest first', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const d = await data(SEARCH, { q: 'zeppelin', first: 10, after });
      const c = d.searchArticles;
      expect(c.totalCount).toBe(25);
      expect(c.pageInfo.hasPreviousPage).toBe(pages > 0);
      seen.push(...ids(d));
      pages++;
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual([...pagingIds].reverse());
  });

  test('a cursor is bound to its query and filter: another search, another connection or a forged one is refused', async () => {
    const bad = { status: 200, code: 'BAD_USER_INPUT' };
    const d = await data(SEARCH, { q: 'zeppelin', first: 2 });
    const cursor = d.searchArticles.pageInfo.endCursor;
    expect(await errorOf(SEARCH, { q: 'sighting', after: cursor })).toEqual(bad);
    expect(await errorOf(SEARCH, { q: 'zeppelin', after: cursor, filter: { premium: false } })).toEqual(bad);
    // One character in the middle changed: its six bits are all the cursor's (the last ones may be padding, and
    // a cursor may already end as a forgery would).
    const at = Math.floor(cursor.length / 2);
    const forged = cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
    expect(await errorOf(SEARCH, { q: 'zeppelin', after: forged })).toEqual(bad);
    const list = await data(`{ articles(first: 1) { pageInfo { endCursor } } }`);
    expect(await errorOf(SEARCH, { q: 'zeppelin', after: list.articles.pageInfo.endCursor })).toEqual(bad);
  });
});

describe('highlights', () => {
  const HL = `query H($q: String!) { searchArticles(query: $q) {
    edges { node { id } highlights { title { text match } summary { text match } } }
  } }`;

  test('matched words are marked by stem in the title and summary, as plain-text segments', async () => {
    const d = await data(HL, { q: 'bridging harbours' });
    const bridge = d.searchArticles.edges.find((e: any) => e.node.id === 's-bridge').highlights;
    expect(bridge.title).toEqual([
      { text: 'Harbour', match: true },
      { text: ' ', match: false },
      { text: 'bridge', match: true },
      { text: ' reopens after the storm', match: false },
    ]);
    expect(bridge.summary).toEqual([
      { text: 'The old ', match: false },
      { text: 'harbour', match: true },
      { text: ' ', match: false },
      { text: 'bridge', match: true },
      { text: ' is open again, two weeks after the storm.', match: false },
    ]);
  });

  test('a long summary is cut around its first match, with an ellipsis where text was left out', async () => {
    const d = await data(HL, { q: 'lighthouse' });
    const summary: Array<{ text: string; match: boolean }> = d.searchArticles.edges[0].highlights.summary;
    expect(summary[0]).toEqual({ text: expect.stringMatching(/^…It begins/), match: false });
    expect(summary.at(-1)).toEqual({ text: expect.stringMatching(/ More follows.*…$/), match: false });
    expect(summary.filter((s) => s.match)).toEqual([{ text: 'lighthouse', match: true }]);
    const text = summary.map((s) => s.text).join('');
    expect(text.length).toBeLessThanOrEqual(202);
    expect(text).toContain('Then the lighthouse keeper appears');
  });
});

describe('facets', () => {
  test('counts over the whole result by category, author, keyword and year; hidden categories left out', async () => {
    const d = await data(`{ searchArticles(query: "harbour", first: 1) {
      totalCount edges { node { id } }
      facets {
        categories { category { id } count }
        authors { author { id } count }
        keywords { keyword { id } count }
        years { year count }
      }
    } }`);
    const s = d.searchArticles;
    expect(s.edges).toHaveLength(1);
    expect(s.totalCount).toBe(4);
    expect(s.facets).toEqual({
      categories: [
        { category: { id: 'c-city' }, count: 2 },
        { category: { id: 'c-news' }, count: 2 },
        { category: { id: 'c-politics' }, count: 1 },
      ],
      authors: [
        { author: { id: 'au-1' }, count: 2 },
        { author: { id: 'au-2' }, count: 2 },
      ],
      keywords: [
        { keyword: { id: 'k-1' }, count: 2 },
        { keyword: { id: 'k-2' }, count: 2 },
        { keyword: { id: 'k-3' }, count: 1 },
      ],
      years: [
        { year: 2025, count: 2 },
        { year: 2024, count: 2 },
      ],
    });
  });

  test('facets follow the filter', async () => {
    const d = await data(`{ searchArticles(query: "harbour", filter: { authorIds: ["au-2"] }) {
      totalCount facets { authors { author { id } count } years { year count } }
    } }`);
    expect(d.searchArticles).toEqual({
      totalCount: 2,
      facets: {
        authors: [{ author: { id: 'au-2' }, count: 2 }],
        years: [
          { year: 2025, count: 1 },
          { year: 2024, count: 1 },
        ],
      },
    });
  });
});

describe('bad input', () => {
  const bad = { status: 200, code: 'BAD_USER_INPUT' };

  test('an empty, blank, wordless, too long or too wordy query is BAD_USER_INPUT', async () => {
    for (const q of ['', '   ', '!!! ?', 'x'.repeat(201), Array.from({ length: 33 }, (_, i) => `w${i}`).join(' ')])
      expect(await errorOf(SEARCH, { q })).toEqual(bad);
    expect(ids(await data(SEARCH, { q: ` ${'harbour '.repeat(24)}` })).length).toBe(4);
  });

  test('bad filter ids, too many ids and bad page sizes are BAD_USER_INPUT', async () => {
    expect(await errorOf(SEARCH, { q: 'harbour', filter: { categoryIds: ['no spaces'] } })).toEqual(bad);
    const many = Array.from({ length: 21 }, (_, i) => `c-${i}`);
    expect(await errorOf(SEARCH, { q: 'harbour', filter: { authorIds: many } })).toEqual(bad);
    expect(await errorOf(SEARCH, { q: 'harbour', first: 0 })).toEqual(bad);
    expect(await errorOf(SEARCH, { q: 'harbour', first: 101 })).toEqual(bad);
    expect(await errorOf(SEARCH, { q: 'harbour', after: 'not-a-cursor' })).toEqual(bad);
  });
});

describe('response cache', () => {
  let cached: TestService;
  beforeAll(async () => {
    cached = await startTestService({
      env: { RESPONSE_CACHE_MB: '16', CACHE_MAX_AGE: '60', RESPONSE_CACHE_TTL_SECONDS: '600' },
      beforeStart: (store) => f.insert(store.db, { articles: [f.article('c-1', { title: 'Comet seen' })] }),
    });
  });
  afterAll(() => cached?.close());

  const ask = async (): Promise<{ count: number; res: Response }> => {
    const query = '{ searchArticles(query: "comet") { totalCount } }';
    const res = await fetch(`${cached.url}/graphql?${new URLSearchParams({ query })}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    const body = (await res.clone().json()) as { data: { searchArticles: { totalCount: number } } };
    return { count: body.data.searchArticles.totalCount, res };
  };

  test('a search answer is public and cached, and a newly published article evicts it', async () => {
    expect((await ask()).count).toBe(1);
    const again = await ask();
    expect(again.res.headers.get('x-cache')).toBe('HIT');
    expect(again.res.headers.get('cache-control')).toBe('max-age=60, public');
    // Only the connection's own type is selected: a write to articles must still evict the answer.
    await f.insert(cached.db, { articles: [f.article('c-2', { title: 'Another comet' })] });
    const end = Date.now() + 5_000;
    let count = (await ask()).count;
    while (count !== 2 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      count = (await ask()).count;
    }
    expect(count).toBe(2);
  });
});
