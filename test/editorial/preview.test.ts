// Preview over HTTP, with the response cache on: an editor asking with `Preview: true` reads drafts, scheduled and
// archived articles and issues through the usual GraphQL queries and the REST issues list; a customer without the
// role, or nobody, asking for it is refused (never given the public answer); a preview link's token reads exactly
// its one document, nothing else, and stops at once when revoked (on another gateway process too), when expired or
// when tampered with. Every preview answer is `private, no-store`, never stored, never served from the cache, and
// an anonymous reader asking the same URL afterwards never sees the draft.
import { ensureBuilt } from '../helpers/built.js';
import type { Child } from '../helpers/child.js';
import { spawnGateway } from '../helpers/gateway.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { editorToken } from '../live/fixtures.js';
import { article, category, insert, issue, page } from '../content/fixtures.js';
import { PreviewTokens } from '../../src/operations/content/preview-token.js';

const CURSOR_KEY = 'preview-test-signing-key-0123456789abcdef';
const env = {
  RESPONSE_CACHE_MB: '16',
  CACHE_MAX_AGE: '60',
  RESPONSE_CACHE_TTL_SECONDS: '600',
  CURSOR_KEYS: CURSOR_KEY,
};
const csrf = { 'apollo-require-preflight': 'true' };

let svc: TestService;
let child: Child;
let childUrl: string;
let editor: IssuedTokens;
let customer: IssuedTokens;

beforeAll(async () => {
  await ensureBuilt();
  svc = await startTestService({
    env,
    beforeStart: (store) =>
      insert(store.db, {
        pages: [page('pp')],
        contentCategories: [category('pc')],
        issues: [
          issue('pi-live', 'pp', { contents: [{ categoryId: 'pc', articleIds: ['pa-live'] }] }),
          issue('pi-draft', 'pp', {
            status: 'draft',
            issueNumber: 2,
            contents: [{ categoryId: 'pc', articleIds: ['pa-draft', 'pa-live'] }],
          }),
          issue('pi-scheduled', 'pp', {
            status: 'scheduled',
            issueNumber: 3,
            publishAt: new Date(Date.now() + 30 * 24 * 3600_000),
          }),
        ],
        articles: [
          article('pa-live', { slug: 'pa-live', categoryIds: ['pc'] }),
          article('pa-draft', { slug: 'pa-draft', status: 'draft', firstPublishedDate: null, categoryIds: ['pc'] }),
          article('pa-other', { slug: 'pa-other', status: 'draft', firstPublishedDate: null, categoryIds: ['pc'] }),
          article('pa-archived', { slug: 'pa-archived', status: 'archived', categoryIds: ['pc'] }),
        ],
      } as never),
  });
  ({ child, url: childUrl } = await spawnGateway(svc.db.databaseName, env));
  editor = await editorToken(svc);
  customer = await tokenFor(svc, { scopes: ['openid'] });
}, 120_000);
afterAll(async () => {
  child?.proc.kill('SIGTERM');
  await child?.exited;
  await svc?.close();
});

interface Answer {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
    code?: string;
  } & Record<string, unknown>;
}

const READ = `query Read($id: ID!, $slug: String!, $issue: ID!) {
  article(id: $id) { id status }
  bySlug: article(slug: $slug) { id }
  issue(id: $issue) { id status contents { articles { id } } }
  node(id: $id) { id }
  page(id: "pp") { issues(first: 10) { totalCount edges { node { id } } } }
  articles(first: 10) { totalCount edges { node { id } } }
}`;

/** The read above by GET (what the response cache keeps), for `id`/`slug` and the issue `issue`. */
const readUrl = (base: string, vars: { id: string; slug: string; issue: string }, extra = ''): string =>
  `${base}/graphql?${new URLSearchParams({ query: READ, variables: JSON.stringify(vars) })}${extra}`;

async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, { headers: { ...csrf, ...headers } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
}

async function post(query: string, variables: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...csrf, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Answer['body'] };
}

const ids = (connection: unknown): string[] =>
  (connection as { edges: Array<{ node: { id: string } }> }).edges.map((e) => e.node.id).sort();
const total = (connection: unknown): number => (connection as { totalCount: number }).totalCount;
const codes = (answer: { body: Answer['body'] }) => answer.body.errors?.map((e) => e.extensions?.code);
const restList = (base: string, query = '') => `${base}/cms/page/pp/issues${query}`;
const restIds = (body: Answer['body']) => (body.issues as Array<{ id: string }>).map((i) => i.id).sort();

const DRAFT = { id: 'pa-draft', slug: 'pa-draft', issue: 'pi-draft' };

describe('editor preview', () => {
  test('GraphQL: every status shows, in the same queries, and the answer is private and unstored', async () => {
    const anonymous = await get(readUrl(svc.url, DRAFT));
    expect(anonymous.body.data).toMatchObject({ article: null, bySlug: null, issue: null, node: null });
    expect(ids((anonymous.body.data!.page as { issues: unknown }).issues)).toEqual(['pi-live']);
    expect(anonymous.headers.get('cache-control')).toMatch(/public/);
    expect(anonymous.headers.get('vary')).toMatch(/Preview-Token/);

    for (let i = 0; i < 2; i++) {
      const seen = await get(readUrl(svc.url, DRAFT), { ...bearer(editor.accessToken), preview: 'true' });
      expect(seen.status).toBe(200);
      expect(seen.headers.get('cache-control')).toBe('private, no-store');
      expect(seen.headers.get('x-cache')).toBeNull();
      const data = seen.body.data!;
      expect(data.article).toEqual({ id: 'pa-draft', status: 'DRAFT' });
      expect(data.bySlug).toEqual({ id: 'pa-draft' });
      expect(data.node).toEqual({ id: 'pa-draft' });
      expect(data.issue).toEqual({
        id: 'pi-draft',
        status: 'DRAFT',
        contents: [{ articles: [{ id: 'pa-draft' }, { id: 'pa-live' }] }],
      });
      const issues = (data.page as { issues: unknown }).issues;
      expect(ids(issues)).toEqual(['pi-draft', 'pi-live', 'pi-scheduled']);
      expect(total(issues)).toBe(3);
      expect(ids(data.articles)).toEqual(['pa-archived', 'pa-draft', 'pa-live', 'pa-other']);
      expect(total(data.articles)).toBe(4);
    }

    // The same URL afterwards, anonymously: the public answer (from the cache or not), never the draft.
    const after = await get(readUrl(svc.url, DRAFT));
    expect(after.body).toEqual(anonymous.body);
    // And an editor without the header reads what readers read.
    const plain = await post(READ, DRAFT, bearer(editor.accessToken));
    expect(plain.body.data).toMatchObject({ article: null, issue: null });
  });

  test('search: an editor in preview finds every status; without preview, the published articles only', async () => {
    const search = '{ searchArticles(query: "article", first: 10) { totalCount edges { node { id } } } }';
    const seen = await post(search, {}, { ...bearer(editor.accessToken), preview: 'true' });
    expect(seen.headers.get('cache-control')).toBe('private, no-store');
    expect(ids(seen.body.data!.searchArticles)).toEqual(['pa-archived', 'pa-draft', 'pa-live', 'pa-other']);
    expect(total(seen.body.data!.searchArticles)).toBe(4);
    const plain = await post(search, {}, bearer(editor.accessToken));
    expect(ids(plain.body.data!.searchArticles)).toEqual(['pa-live']);
    expect(total(plain.body.data!.searchArticles)).toBe(1);
  });

  test('REST issues list: drafts and scheduled issues in place, private and without ETag, no 304', async () => {
    const anonymous = await get(restList(svc.url));
    expect(restIds(anonymous.body)).toEqual(['pi-live']);
    const etag = anonymous.headers.get('etag')!;
    expect(etag).toBeTruthy();

    const seen = await get(restList(svc.url), {
      ...bearer(editor.accessToken),
      preview: 'true',
      'if-none-match': etag,
    });
    expect(seen.status).toBe(200);
    expect(seen.headers.get('cache-control')).toBe('private, no-store');
    expect(seen.headers.get('etag')).toBeNull();
    expect(restIds(seen.body)).toEqual(['pi-draft', 'pi-live', 'pi-scheduled']);
    expect(seen.body.pagination).toMatchObject({ total: 3 });
    const draft = (seen.body.issues as Array<{ id: string; status: string; contents: Record<string, unknown> }>).find(
      (i) => i.id === 'pi-draft',
    )!;
    expect(draft.status).toBe('draft');
    expect((draft.contents.pc as { articles: Array<{ id: string }> }).articles.map((a) => a.id)).toEqual([
      'pa-draft',
      'pa-live',
    ]);

    const after = await get(restList(svc.url));
    expect(restIds(after.body)).toEqual(['pi-live']);
    expect(after.headers.get('cache-control')).toMatch(/public/);
    // Conditional requests of readers still work (the cache's own ETag, as it answers now).
    expect((await get(restList(svc.url), { 'if-none-match': after.headers.get('etag')! })).status).toBe(304);
  });

  test('refused to anyone but an editor, in the documented shapes, and never from the cache', async () => {
    // The anonymous answer of this URL is in the cache (the test above): a refused preview must not get it.
    const gqlCustomer = await get(readUrl(svc.url, DRAFT), { ...bearer(customer.accessToken), preview: 'true' });
    expect(gqlCustomer.status).toBe(403);
    expect(codes(gqlCustomer)).toEqual(['FORBIDDEN']);
    expect(gqlCustomer.headers.get('cache-control')).toBe('private, no-store');
    const gqlAnonymous = await get(readUrl(svc.url, DRAFT), { preview: 'true' });
    expect(gqlAnonymous.status).toBe(401);
    expect(codes(gqlAnonymous)).toEqual(['UNAUTHENTICATED']);
    const postCustomer = await post(READ, DRAFT, { ...bearer(customer.accessToken), preview: 'true' });
    expect(postCustomer.status).toBe(403);
    expect(codes(postCustomer)).toEqual(['FORBIDDEN']);

    const restCustomer = await get(restList(svc.url), { ...bearer(customer.accessToken), preview: 'true' });
    expect(restCustomer.status).toBe(403);
    expect(restCustomer.headers.get('content-type')).toMatch(/problem\+json/);
    expect(restCustomer.body.code).toBe('FORBIDDEN');
    const restAnonymous = await get(restList(svc.url), { preview: 'true' });
    expect(restAnonymous.status).toBe(401);
    expect(restAnonymous.body.code).toBe('UNAUTHENTICATED');

    const nonsense = await get(restList(svc.url), { ...bearer(editor.accessToken), preview: 'yes please' });
    expect(nonsense.status).toBe(400);
    expect(nonsense.body.code).toBe('BAD_REQUEST');
  });
});

const CREATE = `mutation($kind: PublishableKind!, $id: ID!, $s: Int!) {
  createPreviewLink(kind: $kind, id: $id, expiresIn: $s) {
    link { id kind documentId createdBy expiresAt revokedAt } token graphqlUrl restUrl
  }
}`;

interface Created {
  link: { id: string; kind: string; documentId: string; createdBy: string; expiresAt: string; revokedAt: null };
  token: string;
  graphqlUrl: string;
  restUrl: string | null;
}

async function createLink(kind: 'ARTICLE' | 'ISSUE', id: string, seconds = 3600): Promise<Created> {
  const made = await post(CREATE, { kind, id, s: seconds }, bearer(editor.accessToken));
  expect(made.body.errors).toBeUndefined();
  return made.body.data!.createPreviewLink as Created;
}

/** A URL the service made, pointed at `base` (its public URL is not the test's address). */
const at = (url: string, base: string): string => base + url.slice(url.indexOf('/', url.indexOf('//') + 2));

describe('preview links', () => {
  test('an article link reads that one article, by header or parameter, and nothing else', async () => {
    const made = await createLink('ARTICLE', 'pa-draft');
    expect(made.link).toMatchObject({
      kind: 'ARTICLE',
      documentId: 'pa-draft',
      createdBy: editor.customerId,
      revokedAt: null,
    });
    expect(made.restUrl).toBeNull();
    const expires = new Date(made.link.expiresAt).getTime();
    expect(Math.abs(expires - (Date.now() + 3600_000))).toBeLessThan(60_000);

    const opened = await get(at(made.graphqlUrl, svc.url));
    expect(opened.status).toBe(200);
    expect(opened.body.data).toEqual({
      article: { id: 'pa-draft', slug: 'pa-draft', title: expect.any(String), status: 'DRAFT' },
    });
    expect(opened.headers.get('cache-control')).toBe('private, no-store');

    for (const how of [{ 'preview-token': made.token }, {}]) {
      const query = 'token' in how ? '' : `&previewToken=${encodeURIComponent(made.token)}`;
      const seen = await get(readUrl(svc.url, DRAFT, query), how as Record<string, string>);
      expect(seen.status).toBe(200);
      expect(seen.headers.get('cache-control')).toBe('private, no-store');
      const data = seen.body.data!;
      expect(data.article).toEqual({ id: 'pa-draft', status: 'DRAFT' });
      expect(data.bySlug).toEqual({ id: 'pa-draft' });
      expect(data.node).toEqual({ id: 'pa-draft' });
      // The draft issue stays hidden; lists show the article in its place and nothing else beyond readers' lists.
      expect(data.issue).toBeNull();
      expect(ids((data.page as { issues: unknown }).issues)).toEqual(['pi-live']);
      expect(ids(data.articles)).toEqual(['pa-draft', 'pa-live']);
      expect(total(data.articles)).toBe(2);
    }

    // Another id with the same token: absent, as for any reader.
    const other = await get(readUrl(svc.url, { id: 'pa-other', slug: 'pa-other', issue: 'pi-draft' }), {
      'preview-token': made.token,
    });
    expect(other.body.data).toMatchObject({ article: null, bySlug: null, node: null, issue: null });
    // It grants no mutation either.
    const mutation = await post(
      'mutation { publishNow(kind: ARTICLE, id: "pa-draft") { status } }',
      {},
      {
        'preview-token': made.token,
      },
    );
    expect(codes(mutation)).toEqual(['UNAUTHENTICATED']);
    // And the anonymous reader of the same URL without the token sees no draft, cache or not.
    for (let i = 0; i < 2; i++) expect((await get(readUrl(svc.url, DRAFT))).body.data).toMatchObject({ article: null });
    expect((await svc.db.collection('articles').findOne({ _id: 'pa-draft' as never }))!.status).toBe('draft');
  });

  test('an issue link shows the issue in its page on REST and GraphQL; its draft articles stay hidden', async () => {
    const made = await createLink('ISSUE', 'pi-draft');
    expect(made.restUrl).toContain('/cms/page/pp/issues?previewToken=');
    const rest = await get(at(made.restUrl!, svc.url));
    expect(rest.status).toBe(200);
    expect(rest.headers.get('cache-control')).toBe('private, no-store');
    expect(rest.headers.get('etag')).toBeNull();
    expect(restIds(rest.body)).toEqual(['pi-draft', 'pi-live']);
    expect(rest.body.pagination).toMatchObject({ total: 2 });
    const issueBody = (rest.body.issues as Array<{ id: string; contents: Record<string, unknown> }>).find(
      (i) => i.id === 'pi-draft',
    )!;
    expect((issueBody.contents.pc as { articles: Array<{ id: string }> }).articles.map((a) => a.id)).toEqual([
      'pa-live',
    ]);
    const gql = await get(at(made.graphqlUrl, svc.url));
    expect(gql.body.data).toMatchObject({ issue: { id: 'pi-draft', status: 'DRAFT' } });
    // The scheduled issue, another id: not shown.
    const other = await get(readUrl(svc.url, { ...DRAFT, issue: 'pi-scheduled' }), { 'preview-token': made.token });
    expect(other.body.data).toMatchObject({ issue: null, article: null });

    const anonymous = await get(restList(svc.url));
    expect(restIds(anonymous.body)).toEqual(['pi-live']);
  });

  test('a revoked link is refused at once, on this process and another one', async () => {
    const made = await createLink('ARTICLE', 'pa-draft');
    const url = readUrl(svc.url, DRAFT, `&previewToken=${encodeURIComponent(made.token)}`);
    expect((await get(url)).body.data).toMatchObject({ article: { id: 'pa-draft' } });
    expect((await get(readUrl(childUrl, DRAFT), { 'preview-token': made.token })).body.data).toMatchObject({
      article: { id: 'pa-draft' },
    });

    const revoked = await post(
      'mutation($id: ID!) { revokePreviewLink(id: $id) { id revokedAt } }',
      { id: made.link.id },
      bearer(editor.accessToken),
    );
    expect(revoked.body.errors).toBeUndefined();
    expect((revoked.body.data!.revokePreviewLink as { revokedAt: string | null }).revokedAt).toBeTruthy();

    for (const [base, headers] of [
      [svc.url, {}],
      [childUrl, { 'preview-token': made.token }],
    ] as const) {
      const answer = await get(base === svc.url ? url : readUrl(childUrl, DRAFT), headers);
      expect(answer.status).toBe(403);
      expect(codes(answer)).toEqual(['PREVIEW_LINK_REVOKED']);
      expect(answer.headers.get('cache-control')).toBe('private, no-store');
    }
    const rest = await get(restList(svc.url), { 'preview-token': made.token });
    expect(rest.status).toBe(403);
    expect(rest.body.code).toBe('PREVIEW_LINK_REVOKED');
  });

  test('expired, tampered, unknown and foreign tokens are 401s with their own codes', async () => {
    const made = await createLink('ARTICLE', 'pa-draft');
    // The same link, its token signed with the service's key but already past its expiry.
    const tokens = new PreviewTokens([Buffer.from(CURSOR_KEY, 'utf8')]);
    const expired = await tokens.sign({
      linkId: made.link.id,
      collection: 'articles',
      documentId: 'pa-draft',
      expiresAt: new Date(Date.now() - 1_000),
    });
    const refusals: Array<[string, string]> = [
      [expired, 'PREVIEW_LINK_EXPIRED'],
      [`${made.token.slice(0, -2)}${made.token.endsWith('AA') ? 'BB' : 'AA'}`, 'PREVIEW_TOKEN_INVALID'],
      [
        await tokens.sign({
          linkId: 'no-such-link',
          collection: 'articles',
          documentId: 'pa-draft',
          expiresAt: new Date(Date.now() + 60_000),
        }),
        'PREVIEW_TOKEN_INVALID',
      ],
      // A link for one document, its token rewritten (and signed) for another: the store's record decides.
      [
        await tokens.sign({
          linkId: made.link.id,
          collection: 'articles',
          documentId: 'pa-other',
          expiresAt: new Date(Date.now() + 60_000),
        }),
        'PREVIEW_TOKEN_INVALID',
      ],
      [
        await new PreviewTokens([Buffer.from('another-service-signing-key-0123456789', 'utf8')]).sign({
          linkId: made.link.id,
          collection: 'articles',
          documentId: 'pa-draft',
          expiresAt: new Date(Date.now() + 60_000),
        }),
        'PREVIEW_TOKEN_INVALID',
      ],
      ['not-a-token', 'PREVIEW_TOKEN_INVALID'],
    ];
    for (const [token, code] of refusals) {
      const gql = await get(readUrl(svc.url, DRAFT), { 'preview-token': token });
      expect([gql.status, codes(gql)]).toEqual([401, [code]]);
      expect(gql.headers.get('www-authenticate')).toMatch(/^Preview-Token/);
      const rest = await get(restList(svc.url, `?previewToken=${encodeURIComponent(token)}`));
      expect([rest.status, rest.body.code]).toEqual([401, code]);
    }
    // Two different tokens in one request: 400.
    const both = await get(restList(svc.url, `?previewToken=${encodeURIComponent(made.token)}`), {
      'preview-token': expired,
    });
    expect(both.status).toBe(400);
  });

  test('only editors make and revoke links; lifetimes out of bounds and unknown documents are refused', async () => {
    const make = (headers: Record<string, string>, vars: Record<string, unknown>) => post(CREATE, vars, headers);
    const article = { kind: 'ARTICLE', id: 'pa-draft', s: 3600 };
    expect(codes(await make({}, article))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await make(bearer(customer.accessToken), article))).toEqual(['FORBIDDEN']);
    for (const s of [0, 299, 7 * 24 * 3600 + 1, -5])
      expect(codes(await make(bearer(editor.accessToken), { ...article, s }))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await make(bearer(editor.accessToken), { ...article, id: 'nope' }))).toEqual(['NOT_FOUND']);
    expect(codes(await make(bearer(editor.accessToken), { ...article, id: 'bad id!' }))).toEqual(['BAD_USER_INPUT']);
    // The bounds themselves are allowed.
    for (const s of [300, 7 * 24 * 3600])
      expect(codes(await make(bearer(editor.accessToken), { ...article, s }))).toBeUndefined();

    const revoke = (headers: Record<string, string>, id: string) =>
      post('mutation($id: ID!) { revokePreviewLink(id: $id) { id } }', { id }, headers);
    const made = await createLink('ISSUE', 'pi-scheduled');
    expect(codes(await revoke({}, made.link.id))).toEqual(['UNAUTHENTICATED']);
    expect(codes(await revoke(bearer(customer.accessToken), made.link.id))).toEqual(['FORBIDDEN']);
    expect(codes(await revoke(bearer(editor.accessToken), 'no-such-link'))).toEqual(['NOT_FOUND']);
    expect(codes(await revoke(bearer(editor.accessToken), 'bad id!'))).toEqual(['BAD_USER_INPUT']);
    // The link still works: none of the refusals touched it.
    expect((await get(at(made.graphqlUrl, svc.url))).body.data).toMatchObject({ issue: { id: 'pi-scheduled' } });
  });
});
