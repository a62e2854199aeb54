// The editors' publication mutations over HTTP: each allowed transition, who and when recorded, what readers see
// after it, and every refusal with its code (no token, a customer without the role, an unknown id, a transition
// the status does not allow, times out of order).
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { editorToken } from '../live/fixtures.js';
import { article, insert, issue, page } from '../content/fixtures.js';

const csrf = { 'content-type': 'application/json', 'apollo-require-preflight': 'true' };
const CHANGE = `fragment C on PublicationChange { id kind status previousStatus publishAt unpublishAt lastModifierUserId changedAt }`;

let svc: TestService;
let editor: IssuedTokens;
let customer: IssuedTokens;

beforeAll(async () => {
  svc = await startTestService({
    beforeStart: (store) =>
      insert(store.db, {
        pages: [page('mp')],
        issues: [issue('mi-draft', 'mp', { status: 'draft' }), issue('mi-live', 'mp')],
        articles: [article('ma-draft', { slug: 'ma-draft', status: 'draft', firstPublishedDate: null })],
      }),
  });
  editor = await editorToken(svc);
  customer = await tokenFor(svc, { scopes: ['openid'] });
}, 60_000);
afterAll(() => svc?.close());

async function gql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { ...csrf, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as {
    data?: Record<string, Record<string, unknown> | null> | null;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
}
const readerSees = async () => {
  const body = await gql(
    `{ page(id: "mp") { issues(first: 10) { totalCount edges { node { id } } } } article(id: "ma-draft") { id } }`,
  );
  const issues = body.data!.page as { issues: { totalCount: number; edges: Array<{ node: { id: string } }> } };
  return {
    issues: issues.issues.edges.map((e) => e.node.id).sort(),
    total: issues.issues.totalCount,
    article: body.data!.article,
  };
};

test('an editor publishes, archives, moves back to draft and schedules; readers follow each change', async () => {
  const auth = bearer(editor.accessToken);
  expect(await readerSees()).toEqual({ issues: ['mi-live'], total: 1, article: null });

  const published = await gql(`mutation { publishNow(kind: ISSUE, id: "mi-draft") { ...C } } ${CHANGE}`, {}, auth);
  expect(published.errors).toBeUndefined();
  expect(published.data!.publishNow).toMatchObject({
    id: 'mi-draft',
    kind: 'ISSUE',
    status: 'PUBLISHED',
    previousStatus: 'DRAFT',
    publishAt: null,
    lastModifierUserId: editor.customerId,
  });
  expect(await readerSees()).toMatchObject({ issues: ['mi-draft', 'mi-live'], total: 2 });
  const stored = await svc.db.collection('issues').findOne({ _id: 'mi-draft' as never });
  expect(stored).toMatchObject({ status: 'published', lastModifierUserId: editor.customerId });
  expect((stored!.timestamp as Date).toISOString()).toBe(published.data!.publishNow!.changedAt);

  const article = await gql(`mutation { publishNow(kind: ARTICLE, id: "ma-draft") { status } }`, {}, auth);
  expect(article.data!.publishNow).toEqual({ status: 'PUBLISHED' });
  expect((await readerSees()).article).toEqual({ id: 'ma-draft' });
  const storedArticle = await svc.db.collection('articles').findOne({ _id: 'ma-draft' as never });
  expect(storedArticle!.firstPublishedDate).toBeInstanceOf(Date);
  expect(storedArticle!.lastModifierUserId).toBe(editor.customerId);
  // Published again later, the article keeps the date it first went live.
  expect((await gql(`mutation { unpublish(kind: ARTICLE, id: "ma-draft") { status } }`, {}, auth)).data).toEqual({
    unpublish: { status: 'DRAFT' },
  });
  expect((await gql(`mutation { publishNow(kind: ARTICLE, id: "ma-draft") { status } }`, {}, auth)).data).toEqual({
    publishNow: { status: 'PUBLISHED' },
  });
  const republished = await svc.db.collection('articles').findOne({ _id: 'ma-draft' as never });
  expect(republished!.firstPublishedDate).toEqual(storedArticle!.firstPublishedDate);
  expect((republished!.lastUpdateDate as Date).getTime()).toBeGreaterThanOrEqual(
    (storedArticle!.lastUpdateDate as Date).getTime(),
  );

  expect((await gql(`mutation { archive(kind: ISSUE, id: "mi-draft") { status } }`, {}, auth)).data).toEqual({
    archive: { status: 'ARCHIVED' },
  });
  expect(await readerSees()).toMatchObject({ issues: ['mi-live'], total: 1 });
  expect((await gql(`mutation { moveToDraft(kind: ISSUE, id: "mi-draft") { status } }`, {}, auth)).data).toEqual({
    moveToDraft: { status: 'DRAFT' },
  });
  const publishAt = new Date(Date.now() + 3_600_000).toISOString();
  const unpublishAt = new Date(Date.now() + 7_200_000).toISOString();
  const scheduled = await gql(
    `mutation($p: DateTime!, $u: DateTime) { schedulePublication(kind: ISSUE, id: "mi-draft", publishAt: $p, unpublishAt: $u) { ...C } } ${CHANGE}`,
    { p: publishAt, u: unpublishAt },
    auth,
  );
  expect(scheduled.data!.schedulePublication).toMatchObject({ status: 'SCHEDULED', publishAt, unpublishAt });
  expect(await readerSees()).toMatchObject({ issues: ['mi-live'], total: 1 });
  expect((await gql(`mutation { unpublish(kind: ISSUE, id: "mi-live") { status } }`, {}, auth)).data).toEqual({
    unpublish: { status: 'DRAFT' },
  });
  expect(await readerSees()).toMatchObject({ issues: [], total: 0 });

  const history = await svc.db
    .collection('publicationTransitions')
    .find({ documentId: 'mi-draft' }, { sort: { at: 1 } })
    .toArray();
  expect(history.map((t) => `${t.from}->${t.to}:${t.by}`)).toEqual([
    `draft->published:${editor.customerId}`,
    `published->archived:${editor.customerId}`,
    `archived->draft:${editor.customerId}`,
    `draft->scheduled:${editor.customerId}`,
  ]);
});

test('refusals: no token, no role, unknown id, a transition the status does not allow, times out of order', async () => {
  const ask = async (query: string, headers: Record<string, string>, variables = {}) =>
    (await gql(query, variables, headers)).errors?.map((e) => e.extensions?.code);
  const auth = bearer(editor.accessToken);
  expect(await ask(`mutation { archive(kind: ISSUE, id: "mi-live") { id } }`, {})).toEqual(['UNAUTHENTICATED']);
  expect(await ask(`mutation { archive(kind: ISSUE, id: "mi-live") { id } }`, bearer(customer.accessToken))).toEqual([
    'FORBIDDEN',
  ]);
  expect(await ask(`mutation { archive(kind: ISSUE, id: "nope") { id } }`, auth)).toEqual(['NOT_FOUND']);
  expect(await ask(`mutation { archive(kind: ISSUE, id: "bad id!") { id } }`, auth)).toEqual(['BAD_USER_INPUT']);
  // mi-live is a DRAFT now: unpublish needs PUBLISHED, moveToDraft SCHEDULED or ARCHIVED
  expect(await ask(`mutation { unpublish(kind: ISSUE, id: "mi-live") { id } }`, auth)).toEqual(['BAD_USER_INPUT']);
  expect(await ask(`mutation { moveToDraft(kind: ISSUE, id: "mi-live") { id } }`, auth)).toEqual(['BAD_USER_INPUT']);
  const schedule = `mutation($p: DateTime!, $u: DateTime) { schedulePublication(kind: ARTICLE, id: "ma-draft", publishAt: $p, unpublishAt: $u) { id } }`;
  const later = new Date(Date.now() + 3_600_000);
  // ma-draft is PUBLISHED: scheduling it needs DRAFT, SCHEDULED or ARCHIVED
  expect(await ask(schedule, auth, { p: later.toISOString() })).toEqual(['BAD_USER_INPUT']);
  await gql(`mutation { unpublish(kind: ARTICLE, id: "ma-draft") { id } }`, {}, auth);
  expect(await ask(schedule, auth, { p: new Date(Date.now() - 1000).toISOString() })).toEqual(['BAD_USER_INPUT']);
  expect(await ask(schedule, auth, { p: later.toISOString(), u: later.toISOString() })).toEqual(['BAD_USER_INPUT']);
  expect(await ask(schedule, auth, { p: '2099-13-45T00:00:00Z' })).toEqual(['BAD_USER_INPUT']);
  expect(await ask(schedule, auth, { p: new Date(Date.UTC(2200, 0, 1)).toISOString() })).toEqual(['BAD_USER_INPUT']);
  expect((await svc.db.collection('articles').findOne({ _id: 'ma-draft' as never }))!.status).toBe('draft');
});
