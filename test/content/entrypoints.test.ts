// Every content entry point of the GraphQL schema against the real service, checking values from the stored documents.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from './fixtures.js';

let svc: TestService;

const fixture: f.Fixture = {
  pages: [
    f.page('p-b', { name: 'Beta' }),
    f.page('p-a', { name: 'Alpha' }),
    f.page('p-off', { name: 'Off', enabled: false }),
  ],
  issues: [
    f.issue('i-1', 'p-a', { title: 'First', issueNumber: 11, date: f.day(3) }),
    f.issue('i-draft', 'p-a', { status: 'draft' }),
    f.issue('i-off', 'p-off'),
    f.issue('i-b1', 'p-b', { date: f.day(1), issueNumber: 1 }),
    f.issue('i-b2', 'p-b', { date: f.day(2), issueNumber: 2 }),
    f.issue('i-b3', 'p-b', { date: f.day(2), issueNumber: 3 }),
  ],
  articles: [
    f.article('a-old', {
      title: 'Old',
      firstPublishedDate: f.day(1),
      categoryIds: ['c-1'],
      authorIds: ['au-1'],
      keywordIds: ['k-1'],
    }),
    f.article('a-new', {
      title: 'New',
      firstPublishedDate: f.day(9),
      categoryIds: ['c-1'],
      authorIds: ['au-2'],
      keywordIds: ['k-1'],
      premium: true,
      free: false,
    }),
    f.article('a-mid', { title: 'Mid', firstPublishedDate: f.day(5), categoryIds: ['c-2'], authorIds: ['au-1'] }),
    f.article('a-draft', { status: 'draft', categoryIds: ['c-1'], firstPublishedDate: f.day(20) }),
    f.article('a-archived', { status: 'archived', categoryIds: ['c-1'] }),
  ],
  contentCategories: [
    f.category('c-1', { name: 'News' }),
    f.category('c-2'),
    f.category('c-off', { status: 'inactive' }),
  ],
  authors: [f.author('au-1', { name: 'Ana Novak' }), f.author('au-2')],
  keywords: [f.keyword('k-1', { name: 'Elections' })],
  channels: [f.channel('12')],
};

beforeAll(async () => {
  svc = await startTestService();
  await f.insert(svc.db, fixture);
});
afterAll(() => svc.close());

async function data<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
  const res = await svc.gql<T>(query, variables);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res.body.data as T;
}

async function errorCode(query: string): Promise<unknown> {
  const res = await svc.gql(query);
  return res.body.errors?.[0]?.extensions?.code;
}

describe('pages and page', () => {
  test('pages lists enabled pages by name, in pages of `first`, with totalCount', async () => {
    const first = await data(
      `{ pages(first: 1) { totalCount edges { node { id name } } pageInfo { hasNextPage hasPreviousPage endCursor } } }`,
    );
    expect(first.pages.totalCount).toBe(2);
    expect(first.pages.edges.map((e: any) => e.node)).toEqual([{ id: 'p-a', name: 'Alpha' }]);
    expect(first.pages.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const next = await data(
      `query($after: String) { pages(first: 5, after: $after) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } }`,
      {
        after: first.pages.pageInfo.endCursor,
      },
    );
    expect(next.pages.edges.map((e: any) => e.node.id)).toEqual(['p-b']);
    expect(next.pages.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  });

  test('page returns the stored fields', async () => {
    const d = await data(
      `{ page(id: "p-a") { id name previewUrl enabled publicFacingMetadata { title description language imageUrl canonicalUrl keywords } } }`,
    );
    const stored = f.page('p-a');
    expect(d.page).toEqual({
      id: 'p-a',
      name: 'Alpha',
      previewUrl: stored.previewUrl,
      enabled: true,
      publicFacingMetadata: stored.publicFacingMetadata,
    });
  });

  test('an unknown page is null; a disabled one is PAGE_NOT_ENABLED; a malformed id is BAD_USER_INPUT', async () => {
    expect((await data(`{ page(id: "nope") { id } }`)).page).toBeNull();
    expect(await errorCode(`{ page(id: "p-off") { id } }`)).toBe('PAGE_NOT_ENABLED');
    expect(await errorCode(`{ page(id: "no spaces!") { id } }`)).toBe('BAD_USER_INPUT');
    expect(await errorCode(`{ page(id: "${'x'.repeat(65)}") { id } }`)).toBe('BAD_USER_INPUT');
  });

  test('page size outside 1..100 and foreign cursors are BAD_USER_INPUT', async () => {
    expect(await errorCode(`{ pages(first: 0) { totalCount } }`)).toBe('BAD_USER_INPUT');
    expect(await errorCode(`{ pages(first: 101) { totalCount } }`)).toBe('BAD_USER_INPUT');
    expect(await errorCode(`{ pages(first: 1, after: "not-a-cursor") { totalCount } }`)).toBe('BAD_USER_INPUT');
  });

  test('a cursor of another connection is BAD_USER_INPUT, not a silent restart', async () => {
    const issues = await data(`{ page(id: "p-b") { issues(first: 1) { pageInfo { endCursor } } } }`);
    const res = await svc.gql(`query($after: String) { articles(first: 1, after: $after) { totalCount } }`, {
      after: issues.page.issues.pageInfo.endCursor,
    });
    expect(res.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('issues of pages', () => {
  test('issues of several pages in one query: each page its own newest-first page of issues and count', async () => {
    const d = await data(
      `{ pages(first: 5) { edges { node { id issues(first: 2) { totalCount edges { node { id } } pageInfo { hasNextPage } } } } } }`,
    );
    expect(d.pages.edges.map((e: any) => e.node)).toEqual([
      { id: 'p-a', issues: { totalCount: 1, edges: [{ node: { id: 'i-1' } }], pageInfo: { hasNextPage: false } } },
      // Same date: the higher issue number first.
      {
        id: 'p-b',
        issues: {
          totalCount: 3,
          edges: [{ node: { id: 'i-b3' } }, { node: { id: 'i-b2' } }],
          pageInfo: { hasNextPage: true },
        },
      },
    ]);
  });

  test('a cursor continues where the previous page of issues ended', async () => {
    const first = await data(`{ page(id: "p-b") { issues(first: 2) { pageInfo { endCursor } } } }`);
    const next = await data(
      `query($after: String) { page(id: "p-b") { issues(first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage hasPreviousPage } } } }`,
      {
        after: first.page.issues.pageInfo.endCursor,
      },
    );
    expect(next.page.issues).toEqual({
      edges: [{ node: { id: 'i-b1' } }],
      pageInfo: { hasNextPage: false, hasPreviousPage: true },
    });
  });
});

describe('issue', () => {
  test('returns a published issue with its stored fields', async () => {
    const d = await data(
      `{ issue(id: "i-1") { id title date status issueNumber timestamp lastModifierUserId pageId imageUrl topImageUrl pdfFiles { name url } } }`,
    );
    expect(d.issue).toEqual({
      id: 'i-1',
      title: 'First',
      date: f.day(3).toISOString(),
      status: 'PUBLISHED',
      issueNumber: 11,
      timestamp: f.day(11).toISOString(),
      lastModifierUserId: 'editor-i-1',
      pageId: 'p-a',
      imageUrl: 'https://img.example.com/i-1.jpg',
      topImageUrl: 'https://img.example.com/i-1-top.jpg',
      pdfFiles: [{ name: 'full', url: 'https://pdf.example.com/i-1.pdf' }],
    });
  });

  test('draft issues and issues of disabled pages are null', async () => {
    expect((await data(`{ issue(id: "i-draft") { id } }`)).issue).toBeNull();
    expect((await data(`{ issue(id: "i-off") { id } }`)).issue).toBeNull();
  });
});

describe('article and articles', () => {
  test('article by id and by slug', async () => {
    expect((await data(`{ article(id: "a-mid") { id title slug } }`)).article).toEqual({
      id: 'a-mid',
      title: 'Mid',
      slug: 'slug-a-mid',
    });
    expect((await data(`{ article(slug: "slug-a-old") { id title } }`)).article).toEqual({ id: 'a-old', title: 'Old' });
    expect((await data(`{ article(id: "a-draft") { id } }`)).article).toBeNull();
  });

  test('article needs exactly one of id and slug', async () => {
    expect(await errorCode(`{ article { id } }`)).toBe('BAD_USER_INPUT');
    expect(await errorCode(`{ article(id: "a-mid", slug: "slug-a-mid") { id } }`)).toBe('BAD_USER_INPUT');
  });

  test('articles: published only, newest first, paged by cursor', async () => {
    const all = await data(
      `{ articles(first: 2) { totalCount edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
    );
    expect(all.articles.totalCount).toBe(3);
    expect(all.articles.edges.map((e: any) => e.node.id)).toEqual(['a-new', 'a-mid']);
    expect(all.articles.pageInfo.hasNextPage).toBe(true);
    const rest = await data(
      `query($after: String) { articles(first: 2, after: $after) { edges { node { id } } pageInfo { hasNextPage } } }`,
      {
        after: all.articles.pageInfo.endCursor,
      },
    );
    expect(rest.articles.edges.map((e: any) => e.node.id)).toEqual(['a-old']);
    expect(rest.articles.pageInfo.hasNextPage).toBe(false);
  });

  test('articles filter by category, author, keyword and premium', async () => {
    const ids = async (filter: string) =>
      (await data(`{ articles(first: 10, filter: ${filter}) { totalCount edges { node { id } } } }`)).articles;
    expect(await ids('{ categoryId: "c-1" }')).toEqual({
      totalCount: 2,
      edges: [{ node: { id: 'a-new' } }, { node: { id: 'a-old' } }],
    });
    expect((await ids('{ authorId: "au-1" }')).edges.map((e: any) => e.node.id)).toEqual(['a-mid', 'a-old']);
    expect((await ids('{ keywordId: "k-1", premium: true }')).edges.map((e: any) => e.node.id)).toEqual(['a-new']);
    expect((await ids('{ premium: false }')).totalCount).toBe(2);
  });
});

describe('taxonomy and channel', () => {
  test('contentCategory by id and slug; inactive ones are null', async () => {
    expect((await data(`{ contentCategory(id: "c-1") { id name slug status } }`)).contentCategory).toEqual({
      id: 'c-1',
      name: 'News',
      slug: 'cat-c-1',
      status: 'ACTIVE',
    });
    expect((await data(`{ contentCategory(slug: "cat-c-2") { id } }`)).contentCategory).toEqual({ id: 'c-2' });
    expect((await data(`{ contentCategory(id: "c-off") { id } }`)).contentCategory).toBeNull();
  });

  test('author and keyword', async () => {
    expect((await data(`{ author(id: "au-1") { id name email } }`)).author).toEqual({
      id: 'au-1',
      name: 'Ana Novak',
      email: 'au-1@example.com',
    });
    expect((await data(`{ author(id: "au-404") { id } }`)).author).toBeNull();
    expect((await data(`{ keyword(id: "k-1") { id name } }`)).keyword).toEqual({ id: 'k-1', name: 'Elections' });
    expect((await data(`{ keyword(slug: "kw-k-1") { id } }`)).keyword).toEqual({ id: 'k-1' });
  });

  test('channel by numeric id; a non-numeric id is BAD_USER_INPUT', async () => {
    expect((await data(`{ channel(id: "12") { id name objectType } }`)).channel).toEqual({
      id: '12',
      name: 'Channel 12',
      objectType: 'site',
    });
    expect((await data(`{ channel(id: "13") { id } }`)).channel).toBeNull();
    expect(await errorCode(`{ channel(id: "abc") { id } }`)).toBe('BAD_USER_INPUT');
  });
});
