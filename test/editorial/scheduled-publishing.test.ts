// Scheduled publishing on two gateway processes sharing one store: a story scheduled 2 s ahead appears in the
// anonymous, cached REST issues list and GraphQL lists of both within 1 s of its time, and the change is made and
// recorded once. Also: a cached answer's max-age never reaches past the next scheduled change, changes due while
// no process ran are all made at start (however many), and an unpublish time archives a published issue.
import { ensureBuilt } from '../helpers/built.js';
import type { Child } from '../helpers/child.js';
import { spawnGateway } from '../helpers/gateway.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { article, insert, issue, page } from '../content/fixtures.js';

const csrf = { 'apollo-require-preflight': 'true' };
const LISTS =
  'query Lists { page(id: "sp") { issues(first: 10) { totalCount edges { node { id } } } } articles(first: 10) { totalCount edges { node { id } } } }';
const SCHEDULED_IN_MS = 2_000;
const MANY_DUE = 250;
const LATE_MS = 1_000;

let svc: TestService;
let child: Child;
let childUrl: string;
let publishAt: Date;

beforeAll(async () => {
  await ensureBuilt();
  const env = { RESPONSE_CACHE_MB: '16', CACHE_MAX_AGE: '60', RESPONSE_CACHE_TTL_SECONDS: '600' };
  svc = await startTestService({
    env,
    beforeStart: async (store) => {
      const past = new Date(Date.now() - 60_000);
      await insert(store.db, {
        pages: [page('sp'), page('sp-many')],
        issues: [
          issue('sp-live', 'sp'),
          // due while no process ran, before the many below: made in the first round, before the service is ready
          issue('sp-overdue', 'sp', { status: 'scheduled', publishAt: new Date(past.getTime() - MANY_DUE * 1000) }),
          issue('sp-draft', 'sp', { status: 'draft' }),
          // more due than the clock reads in one round, a second apart
          ...Array.from({ length: MANY_DUE }, (_, i) =>
            issue(`sp-many-${i}`, 'sp-many', { status: 'scheduled', publishAt: new Date(past.getTime() - i * 1000) }),
          ),
        ],
        articles: [article('sa-live', { slug: 'sa-live' })],
      });
    },
  });
  ({ child, url: childUrl } = await spawnGateway(svc.db.databaseName, env));
}, 120_000);
afterAll(async () => {
  child?.proc.kill('SIGTERM');
  await child?.exited;
  await svc?.close();
});

const restIds = async (base: string) => {
  const res = await fetch(`${base}/cms/page/sp/issues?limit=10`);
  const body = (await res.json()) as { issues: Array<{ id: string }>; pagination: { total: number } };
  return { ids: body.issues.map((i) => i.id).sort(), total: body.pagination.total, res };
};
const graphqlLists = async (base: string) => {
  const res = await fetch(`${base}/graphql?${new URLSearchParams({ query: LISTS }).toString()}`, { headers: csrf });
  const body = (await res.json()) as {
    data: {
      page: { issues: { totalCount: number; edges: Array<{ node: { id: string } }> } };
      articles: { totalCount: number; edges: Array<{ node: { id: string } }> };
    };
  };
  return {
    issues: body.data.page.issues.edges.map((e) => e.node.id).sort(),
    issueCount: body.data.page.issues.totalCount,
    articles: body.data.articles.edges.map((e) => e.node.id).sort(),
    res,
  };
};

async function until(check: () => Promise<boolean>, deadline: number): Promise<boolean> {
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('a change due while no process ran is made at start and recorded once', async () => {
  expect((await restIds(svc.url)).ids).toEqual(['sp-live', 'sp-overdue']);
  const made = await svc.db.collection('publicationTransitions').find({ documentId: 'sp-overdue' }).toArray();
  expect(made.map((t) => ({ from: t.from, to: t.to, by: t.by }))).toEqual([
    { from: 'scheduled', to: 'published', by: null },
  ]);
});

test('every change due at start is made, however many there are: a round before ready, the rest right after', async () => {
  const total = async () => {
    const res = await fetch(`${svc.url}/cms/page/sp-many/issues?limit=1`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { pagination: { total: number } }).pagination.total;
  };
  let seen = await total();
  expect(seen).toBeGreaterThanOrEqual(99); // the first round: the 100 earliest due, sp-overdue among them
  for (const deadline = Date.now() + 20_000; seen < MANY_DUE && Date.now() < deadline; seen = await total())
    await new Promise((r) => setTimeout(r, 100));
  expect(seen).toBe(MANY_DUE);
});

test('a story scheduled 2 s ahead reaches the cached lists of both processes within 1 s, made once', async () => {
  // Both processes have answered once before: the first answer of a process is not what is measured.
  for (const base of [svc.url, childUrl]) await Promise.all([restIds(base), graphqlLists(base)]);
  publishAt = new Date(Date.now() + SCHEDULED_IN_MS);
  await svc.db.collection('issues').insertOne(issue('sp-soon', 'sp', { status: 'scheduled', publishAt }) as never);
  await svc.db
    .collection('articles')
    .insertOne(
      article('sa-soon', { slug: 'sa-soon', status: 'scheduled', publishAt, firstPublishedDate: null }) as never,
    );
  // Once a process has seen the schedule (its change stream), no answer it sends is kept past the moment the
  // list changes, by its own cache, browsers or CDNs.
  const capped = await Promise.all(
    [svc.url, childUrl].map((base) =>
      until(async () => {
        const rest = await restIds(base);
        const maxAge = Number(/max-age=(\d+)/.exec(rest.res.headers.get('cache-control') ?? '')?.[1]);
        return Date.now() + maxAge * 1000 <= publishAt.getTime() && !rest.ids.includes('sp-soon');
      }, publishAt.getTime() - 500),
    ),
  );
  expect(capped).toEqual([true, true]);
  for (const base of [svc.url, childUrl]) {
    const lists = await graphqlLists(base);
    expect(lists.issues).toEqual(['sp-live', 'sp-overdue']);
    expect(lists.articles).toEqual(['sa-live']);
  }
  const deadline = publishAt.getTime() + LATE_MS;
  const seen = await Promise.all(
    [svc.url, childUrl].map((base) =>
      until(async () => {
        const [rest, lists] = await Promise.all([restIds(base), graphqlLists(base)]);
        return (
          rest.ids.includes('sp-soon') &&
          rest.total === 3 &&
          lists.issues.includes('sp-soon') &&
          lists.issueCount === 3 &&
          lists.articles.includes('sa-soon')
        );
      }, deadline),
    ),
  );
  expect(seen).toEqual([true, true]);
  // Not before its time. Each transition is recorded just after the change it describes: read once both are.
  const recorded = () =>
    svc.db
      .collection('publicationTransitions')
      .find({ documentId: { $in: ['sp-soon', 'sa-soon'] } })
      .toArray();
  let transitions = await recorded();
  for (const by = Date.now() + 5_000; transitions.length < 2 && Date.now() < by; transitions = await recorded())
    await new Promise((r) => setTimeout(r, 50));
  expect(transitions.map((t) => `${t.documentId}:${t.from}->${t.to}@${(t.at as Date).toISOString()}`).sort()).toEqual([
    `sa-soon:scheduled->published@${publishAt.toISOString()}`,
    `sp-soon:scheduled->published@${publishAt.toISOString()}`,
  ]);
  const stored = await svc.db.collection('articles').findOne({ _id: 'sa-soon' as never });
  expect(stored?.status).toBe('published');
  expect(stored?.firstPublishedDate).toEqual(publishAt);
});

test('an unpublish time archives a published issue: it leaves the lists of both processes', async () => {
  const unpublishAt = new Date(Date.now() + SCHEDULED_IN_MS);
  await svc.db.collection('issues').updateOne({ _id: 'sp-live' as never }, { $set: { unpublishAt } });
  for (const base of [svc.url, childUrl]) expect((await restIds(base)).ids).toContain('sp-live');
  const deadline = unpublishAt.getTime() + LATE_MS;
  const gone = await Promise.all(
    [svc.url, childUrl].map((base) => until(async () => !(await restIds(base)).ids.includes('sp-live'), deadline)),
  );
  expect(gone).toEqual([true, true]);
  const stored = await svc.db.collection('issues').findOne({ _id: 'sp-live' as never });
  expect(stored?.status).toBe('archived');
  expect(await svc.db.collection('publicationTransitions').countDocuments({ documentId: 'sp-live' })).toBe(1);
});
