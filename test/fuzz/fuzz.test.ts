// Seeded, schema-driven fuzzing of /graphql: random valid operations from the introspected schema and hostile
// variants of them. Whatever a client sends: never a 5xx, never INTERNAL_SERVER_ERROR, never a stack trace or a
// file path, always a JSON body; the service is healthy afterwards.
// FUZZ_REQUESTS (default 1000, sized for CI) and FUZZ_SEED (default 12) set the run; FUZZ_REPORT=1 prints figures.
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { insertCatalogue, testAuthenticator } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Fuzzer, type FuzzRequest } from './generator.js';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? 12);
const CONCURRENCY = 8;
const LEAK = /\bat [\w.<>]+ \(|\bat .+:\d+:\d+|node_modules|\/work\/|\/src\/|\.ts:\d+|\.js:\d+|stacktrace/i;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    authenticate: testAuthenticator,
    // The per-IP newsletter and login limits would answer 429 to most of the run: still fine, but less varied.
    beforeStart: async (store) => {
      await insertCatalogue(store);
      await f.insert(store.db, contentGraph({ prefix: 'g-', issues: 3, articlesPerIssue: 3 }).fixture);
      await f.insert(store.db, {
        pages: [f.page('p-off', { enabled: false })],
        articles: [f.article('a-draft', { status: 'draft' })],
      });
    },
  });
}, 60_000);
afterAll(() => svc.close());

interface Outcome {
  request: FuzzRequest;
  status: number;
  text: string;
  cacheControl: string;
}

/** A request that asks for a preview in any way, well or badly. */
const asksForPreview = (request: FuzzRequest): boolean =>
  'preview' in request.headers || 'preview-token' in request.headers || request.path.includes('previewToken=');

async function send(request: FuzzRequest): Promise<Outcome> {
  const res = await fetch(`${svc.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  return { request, status: res.status, text: await res.text(), cacheControl: res.headers.get('cache-control') ?? '' };
}

/** What is wrong with an answer, if anything. */
function problemsOf(outcome: Outcome): string[] {
  const problems: string[] = [];
  if (outcome.status >= 500) problems.push(`status ${outcome.status}`);
  if (outcome.request.kind.endsWith('(over the limit)') && (outcome.status < 400 || outcome.status >= 500))
    problems.push(`status ${outcome.status}, not a client error`);
  let body: { errors?: Array<{ extensions?: { code?: unknown } }> } | undefined;
  try {
    body = JSON.parse(outcome.text) as typeof body;
  } catch {
    problems.push('body is not JSON');
  }
  if (body?.errors?.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')) problems.push('INTERNAL_SERVER_ERROR');
  if (LEAK.test(outcome.text)) problems.push('stack trace or file path in the body');
  if (asksForPreview(outcome.request) && /public/.test(outcome.cacheControl))
    problems.push(`a preview request answered ${outcome.cacheControl}`);
  return problems;
}

test(`${REQUESTS} seeded requests (seed ${SEED}): no server fault, no leak, JSON every time`, async () => {
  const introspection = (await (
    await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    })
  ).json()) as { data: IntrospectionQuery };
  const schema = buildClientSchema(introspection.data);
  const ids = [
    'g-page',
    'g-issue-1',
    'g-a-1-1',
    'g-a-2-3',
    'g-cat-a',
    'g-au-1',
    'g-kw-1',
    'g-vid-1',
    'g-lb-1',
    'g-poll-1',
    'g-quiz-1',
    '7',
    'p-off',
    'a-draft',
    'prod-weekly',
    'item-print',
    'cat-print',
    'cart-alice',
    'nothing',
  ];
  const slugs = ['slug-cat-print', 'slug-cat-weekly', 'slug-cat-hidden', 'cat-g-cat-a', 'nothing'];
  const fuzzer = new Fuzzer(schema, SEED, ids, slugs);
  const failures: Array<{ kind: string; status: number; problems: string[]; request: string; answer: string }> = [];
  const byKind = new Map<string, number>();
  const byStatus = new Map<number, number>();
  for (let sent = 0; sent < REQUESTS; sent += CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONCURRENCY, REQUESTS - sent) }, () => fuzzer.next());
    const outcomes = await Promise.all(batch.map(send));
    for (const outcome of outcomes) {
      byKind.set(outcome.request.kind, (byKind.get(outcome.request.kind) ?? 0) + 1);
      byStatus.set(outcome.status, (byStatus.get(outcome.status) ?? 0) + 1);
      for (const cursor of outcome.text.match(/"(?:cursor|endCursor)":"([^"]+)"/g) ?? []) {
        if (fuzzer.cursors.length < 200) fuzzer.cursors.push(cursor.split('":"')[1]!.slice(0, -1));
      }
      const problems = problemsOf(outcome);
      if (problems.length) {
        failures.push({
          kind: outcome.request.kind,
          status: outcome.status,
          problems,
          request: (outcome.request.body ?? outcome.request.path).slice(0, 200),
          answer: outcome.text.slice(0, 200),
        });
      }
    }
  }
  if (process.env.FUZZ_REPORT) {
    console.log(
      JSON.stringify(
        {
          requests: REQUESTS,
          seed: SEED,
          failures: failures.length,
          byStatus: Object.fromEntries(byStatus),
          byKind: Object.fromEntries(byKind),
        },
        null,
        1,
      ),
    );
  }
  const summary = new Map<string, number>();
  for (const failure of failures)
    summary.set(
      `${failure.kind}: ${failure.status} ${failure.problems.join(', ')}`,
      (summary.get(`${failure.kind}: ${failure.status} ${failure.problems.join(', ')}`) ?? 0) + 1,
    );
  expect({ summary: Object.fromEntries(summary), first: failures.slice(0, 3) }).toEqual({ summary: {}, first: [] });
  // Every hostile kind was tried.
  expect(byKind.size).toBeGreaterThanOrEqual(REQUESTS >= 500 ? 16 : 1);

  const health = await fetch(`${svc.url}/readyz`);
  expect(health.status).toBe(200);
  const after = await svc.gql<{ pages: { totalCount: number } }>('{ pages(first: 1) { totalCount } }');
  expect(after.body.data?.pages.totalCount).toBe(1);
}, 600_000);
