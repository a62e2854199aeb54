// GET /cms/page/{id}/issues (docs/api.md): the legacy envelope, keyed contents with full v3
// articles, paging with Link, caching with ETag/304, and every documented failure as problem+json.
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Viewer } from '../../src/context.js';
import { unauthenticated } from '../../src/errors.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from './fixtures.js';
import { contentGraph } from './graph.fixture.js';

let svc: TestService;
const { fixture } = contentGraph({ issues: 5, articlesPerIssue: 2 });
fixture.pages!.push(f.page('p-off', { enabled: false }), f.page('p-empty'));
fixture.issues!.push(f.issue('i-draft', 'g-page', { status: 'draft', date: f.day(40) }));
// One premium article, to see the viewer's access in the REST shape.
Object.assign(
  fixture.articles!.find((a) => a._id === 'g-a-5-1')!,
  { premium: true, free: false, accessControlEnabled: true, previewLimit: 4 },
);

const subscriber: Viewer = {
  customerId: 'cust-1',
  scopes: new Set(['openid']),
  entitlements: async () => [{ group: 'subscription', validUntil: null }],
};

beforeAll(async () => {
  svc = await startTestService({
    authenticate: async (authorization) => {
      if (!authorization) return null;
      if (authorization === 'Bearer good') return subscriber;
      throw unauthenticated();
    },
  });
  await f.insert(svc.db, fixture);
});
afterAll(() => svc.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${svc.url}${path}`, { headers });

describe('200: Issues for page', () => {
  test('the envelope: page, issues newest first, pagination', async () => {
    const res = await get('/cms/page/g-page/issues?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = (await res.json()) as any;
    const stored = f.page('g-page');
    expect(body.page).toEqual({
      id: 'g-page',
      name: stored.name,
      previewUrl: stored.previewUrl,
      publicFacingMetadata: stored.publicFacingMetadata,
    });
    expect(body.issues.map((i: any) => i.id)).toEqual(['g-issue-5', 'g-issue-4']);
    expect(body.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
  });

  test('an issue: keyed contents with full v3 articles, keyed dynamic sections and PDF files, lower-case statuses', async () => {
    const body = (await (await get('/cms/page/g-page/issues?limit=1')).json()) as any;
    const issue = body.issues[0];
    expect(issue).toMatchObject({
      id: 'g-issue-5',
      title: 'Issue g-issue-5',
      date: f.day(5).toISOString(),
      status: 'published',
      issueNumber: 5,
      pageId: 'g-page',
      pollId: 'g-poll-1',
      channelId: '7',
      lastModifierUserId: 'editor-g-issue-5',
      pdfFiles: { full: 'https://pdf.example.com/g-issue-5.pdf' },
    });
    expect(Object.keys(issue.contents)).toEqual(['g-cat-a']);
    const content = issue.contents['g-cat-a'];
    expect(Object.keys(content)).toEqual(['category', 'articles']);
    expect(content.category).toMatchObject({
      id: 'g-cat-a',
      name: 'Category g-cat-a',
      status: 'active',
      type: { id: 'g-type-1' },
      parent: { id: 'g-cat-b' },
      articlesCount: 10,
    });
    expect(content.articles.map((a: any) => a.id)).toEqual(['g-a-5-1', 'g-a-5-2']);

    const article = content.articles[1];
    const storedArticle = fixture.articles!.find((a) => a._id === 'g-a-5-2')!;
    expect(article).toMatchObject({
      objectClassName: 'Article',
      id: 'g-a-5-2',
      title: storedArticle.title,
      slug: storedArticle.slug,
      status: 'published',
      body: storedArticle.body,
      preview: storedArticle.preview,
      accessAllowed: true,
      contentType: { id: 'g-ct-1', editor: 'blocks' },
      sponsor: { id: 'g-sp-1' },
      category: { id: 'g-cat-a', status: 'active' },
      author: { id: 'g-au-1' },
      seo: storedArticle.seo,
    });
    expect(article.keywords[0]).toMatchObject({
      id: 'g-kw-1',
      translations: {
        de: {
          language: 'de',
          name: 'Stichwort g-kw-1',
          displayName: '#de-g-kw-1',
          description: null,
          slug: 'de-g-kw-1',
        },
      },
    });
    expect(article.attachments[0]).toMatchObject({
      id: 'g-a-5-2-img',
      type: 'image',
      additionalUrls: { '640x360': 'https://cdn.example.com/g-a-5-2-img-640x360@2x.jpg' },
      video: { id: 'g-vid-1', status: 'ready' },
    });
    expect(article.elements.quizzes[0]).toMatchObject({ id: 'g-quiz-1', status: 'open' });
    expect(article.elements.liveBlogs[0].previewMessages).toHaveLength(5);
    expect(article.elements.polls[0].results).toEqual([
      { choiceId: 'yes', votes: 3, percentage: 75 },
      { choiceId: 'no', votes: 1, percentage: 25 },
    ]);

    expect(issue.dynamicSections.latest).toMatchObject({
      name: 'latest',
      displayName: 'Latest',
      limit: 3,
      direction: 'append',
      type: 'articles',
    });
    expect(issue.dynamicSections.latest.articles.map((a: any) => a.id)).toEqual(['g-a-5-2', 'g-a-5-1']);
    expect(issue.dynamicSections.latest.linkables).toBeUndefined();
    expect(issue.dynamicSections.links).toEqual({
      name: 'links',
      displayName: 'Links',
      limit: 2,
      direction: 'append-unsorted',
      type: 'linkables',
      linkables: [
        { name: 'Zeta', url: 'https://example.com/z', objectType: 'external' },
        { name: 'Alpha', url: 'https://example.com/a', objectType: 'external' },
      ],
    });
    expect(issue.repeatedArticleGroups).toEqual([
      { name: 'Editorials', articles: [expect.objectContaining({ id: 'g-a-5-1' })] },
    ]);
    expect(issue.frontPage).toMatchObject({
      categoryId: 'g-cat-a',
      category: { id: 'g-cat-a' },
      articles: [{ id: 'g-a-5-1' }],
    });
    expect(issue.authors).toEqual([
      expect.objectContaining({ id: 'g-au-1', microblogHandle: 'mb_g-au-1', source: null }),
    ]);
    expect(issue.channel.configuration).toEqual({
      linkables: { menu: [{ name: 'Home', url: 'https://example.com/', objectType: 'page' }] },
      dynamicSections: {
        top: {
          name: 'top',
          displayName: 'Top',
          limit: 5,
          direction: 'append-unsorted',
          type: 'linkables',
          linkables: [{ name: 'Sport', url: 'https://example.com/sport', objectType: 'category' }],
        },
      },
    });
  });

  test('articles carry every field of the GraphQL Article type (the full v3 representation)', async () => {
    const introspection = await svc.gql<any>(`{ __type(name: "Article") { fields { name args { name } } } }`);
    const fields = introspection.body.data.__type.fields.map((field: any) => field.name).sort();
    const body = (await (await get('/cms/page/g-page/issues?limit=1')).json()) as any;
    expect(Object.keys(body.issues[0].contents['g-cat-a'].articles[0]).sort()).toEqual(fields);
  });

  test('premium articles are cut for anonymous callers and whole with an entitled token', async () => {
    const premium = (body: any) => body.issues[0].contents['g-cat-a'].articles[0];
    const anonymous = premium(await (await get('/cms/page/g-page/issues?limit=1')).json());
    expect(anonymous).toMatchObject({ id: 'g-a-5-1', accessAllowed: false, body: null, preview: 'The ' });
    const entitled = premium(
      await (await get('/cms/page/g-page/issues?limit=1', { authorization: 'Bearer good' })).json(),
    );
    expect(entitled).toMatchObject({ id: 'g-a-5-1', accessAllowed: true, body: '<p>Body of g-a-5-1</p>' });
  });
});

describe('one rule with GraphQL', () => {
  test("the issues' contents, sections, groups, front pages and authors list what GraphQL lists, in its order", async () => {
    const graphql = await svc.gql<any>(`{
      page(id: "g-page") { issues(first: 5) { edges { node {
        id
        contents { categoryId category { id parent { id } } articles { id categories { id } authors { id } keywords { id } } }
        dynamicSections { name type articles { id } linkables { name } }
        repeatedArticleGroups { name articles { id } }
        frontPage { category { id } articles { id } }
        authors { id }
        channel { configuration { dynamicSections { name articles { id } } } }
      } } } }
    }`);
    const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);
    const article = (a: any) => ({
      id: a.id,
      categories: ids(a.categories),
      authors: ids(a.authors),
      keywords: ids(a.keywords),
    });
    const expected = graphql.body.data.page.issues.edges.map(({ node: i }: any) => ({
      id: i.id,
      contents: i.contents.map((c: any) => ({
        key: c.categoryId,
        category: c.category.id,
        parent: c.category.parent?.id ?? null,
        articles: c.articles.map(article),
      })),
      sections: i.dynamicSections.map((s: any) => [s.name, s.type === 'ARTICLES' ? ids(s.articles) : s.linkables]),
      groups: i.repeatedArticleGroups.map((g: any) => [g.name, ids(g.articles)]),
      front: i.frontPage && [i.frontPage.category?.id ?? null, ids(i.frontPage.articles)],
      authors: ids(i.authors),
      channel: i.channel?.configuration.dynamicSections.map((s: any) => [s.name, ids(s.articles)]) ?? null,
    }));
    const rest = (await (await get('/cms/page/g-page/issues?limit=5')).json()) as any;
    const shown = rest.issues.map((i: any) => ({
      id: i.id,
      contents: Object.entries(i.contents).map(([key, c]: [string, any]) => ({
        key,
        category: c.category.id,
        parent: c.category.parent?.id ?? null,
        articles: c.articles.map(article),
      })),
      sections: Object.values(i.dynamicSections).map((s: any) => [
        s.name,
        s.type === 'articles' ? ids(s.articles) : s.linkables.map((l: any) => ({ name: l.name })),
      ]),
      groups: i.repeatedArticleGroups.map((g: any) => [g.name, ids(g.articles)]),
      front: i.frontPage && [i.frontPage.category?.id ?? null, ids(i.frontPage.articles)],
      authors: ids(i.authors),
      channel: i.channel
        ? Object.values(i.channel.configuration.dynamicSections).map((s: any) => [s.name, ids(s.articles ?? [])])
        : null,
    }));
    expect(shown).toEqual(expected);
    expect(shown).toHaveLength(5);
  });
});

describe('paging and Link', () => {
  const page = async (query: string) => {
    const res = await get(`/cms/page/g-page/issues${query}`);
    const body = (await res.json()) as any;
    return { link: res.headers.get('link'), ids: body.issues.map((i: any) => i.id), pagination: body.pagination };
  };

  test('first, middle, last and past-the-end pages', async () => {
    expect(await page('?limit=2')).toEqual({
      link: '</cms/page/g-page/issues?limit=2&page=2>; rel="next"',
      ids: ['g-issue-5', 'g-issue-4'],
      pagination: { page: 1, limit: 2, total: 5, totalPages: 3 },
    });
    expect(await page('?limit=2&page=2')).toEqual({
      link: '</cms/page/g-page/issues?limit=2&page=3>; rel="next", </cms/page/g-page/issues?limit=2&page=1>; rel="prev"',
      ids: ['g-issue-3', 'g-issue-2'],
      pagination: { page: 2, limit: 2, total: 5, totalPages: 3 },
    });
    expect(await page('?page=3&limit=2')).toEqual({
      link: '</cms/page/g-page/issues?page=2&limit=2>; rel="prev"',
      ids: ['g-issue-1'],
      pagination: { page: 3, limit: 2, total: 5, totalPages: 3 },
    });
    expect(await page('?page=9&limit=2')).toEqual({
      link: '</cms/page/g-page/issues?page=3&limit=2>; rel="prev"',
      ids: [],
      pagination: { page: 9, limit: 2, total: 5, totalPages: 3 },
    });
  });

  test('defaults: page 1 of 20; a page without issues', async () => {
    expect(await page('')).toEqual({
      link: null,
      ids: ['g-issue-5', 'g-issue-4', 'g-issue-3', 'g-issue-2', 'g-issue-1'],
      pagination: { page: 1, limit: 20, total: 5, totalPages: 1 },
    });
    const empty = (await (await get('/cms/page/p-empty/issues')).json()) as any;
    expect(empty.issues).toEqual([]);
    expect(empty.pagination).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0 });
  });
});

describe('caching', () => {
  test('public for anonymous callers, a strong ETag, and 304 on a matching If-None-Match', async () => {
    const res = await get('/cms/page/g-page/issues?limit=2');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const again = await get('/cms/page/g-page/issues?limit=2', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const changed = await get('/cms/page/g-page/issues?limit=2', { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    expect((await get('/cms/page/g-page/issues?limit=3')).headers.get('etag')).not.toBe(etag);
  });

  test('private when a token was presented', async () => {
    const res = await get('/cms/page/g-page/issues?limit=2', { authorization: 'Bearer good' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
  });
});

describe('failures are problem+json', () => {
  const problem = async (path: string, headers: Record<string, string> = {}) => {
    const res = await get(path, headers);
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
  };

  test('404 Page not found', async () => {
    expect(await problem('/cms/page/nope/issues')).toEqual({
      status: 404,
      type: expect.stringMatching(/^application\/problem\+json/),
      body: {
        type: 'urn:gateway:problem:page-not-found',
        title: 'Page not found',
        status: 404,
        code: 'PAGE_NOT_FOUND',
        detail: 'There is no page nope',
      },
    });
  });

  test('403 Page not enabled', async () => {
    const res = await problem('/cms/page/p-off/issues');
    expect(res.status).toBe(403);
    expect(res.type).toEqual(expect.stringMatching(/^application\/problem\+json/));
    expect(res.body).toMatchObject({ title: 'Page not enabled', status: 403, code: 'PAGE_NOT_ENABLED' });
  });

  test.each([
    ['?page=0', 'page'],
    ['?page=abc', 'page'],
    ['?page=1.5', 'page'],
    ['?page=-1', 'page'],
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=', 'limit'],
    ['?page=1&page=2', 'page'],
    ['?sort=date', 'sort'],
  ])('400 for %s', async (query, field) => {
    const res = await problem(`/cms/page/g-page/issues${query}`);
    expect(res.status).toBe(400);
    expect(res.type).toEqual(expect.stringMatching(/^application\/problem\+json/));
    expect(res.body).toMatchObject({ title: 'Bad Request', status: 400, code: 'BAD_REQUEST' });
    expect(res.body.errors.map((e: any) => e.field)).toContain(field);
  });

  test('400 for a malformed page id', async () => {
    for (const id of ['bad%20id', 'x'.repeat(65), '%C3%A9t%C3%A9']) {
      const res = await problem(`/cms/page/${id}/issues`);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'BAD_REQUEST', errors: [{ field: 'id', message: expect.any(String) }] });
    }
  });

  test('401 for a token that is not valid', async () => {
    const res = await problem('/cms/page/g-page/issues', { authorization: 'Bearer forged' });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});
