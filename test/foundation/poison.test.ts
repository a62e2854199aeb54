// One request never harms another: poison requests (forged cursors carrying operators and broken regexes,
// hostile variables, oversized and malformed bodies) sent beside innocent concurrent ones; every innocent
// one is answered in full, every poison one is a 4xx of its own.
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { startTestService, type TestService } from '../helpers/service.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    beforeStart: (store) => f.insert(store.db, contentGraph({ prefix: 'g-', issues: 4, articlesPerIssue: 5 }).fixture),
  });
});
afterAll(() => svc.close());

const INNOCENT = `{ pages(first: 5) { edges { node { id issues(first: 3) { edges { node { id title } } } } } }
  articles(first: 10) { totalCount edges { node { id title authors { id name } } } } }`;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const poisons: Array<{ name: string; body: string }> = [
  {
    name: 'broken regex in a cursor',
    body: JSON.stringify({
      query: 'query($a: String) { articles(first: 5, after: $a) { totalCount } }',
      variables: { a: b64([0, [{ $regex: '(' }, 'x']]) },
    }),
  },
  {
    name: '$where in a cursor',
    body: JSON.stringify({
      query: 'query($a: String) { pages(first: 5, after: $a) { totalCount } }',
      variables: { a: b64([0, [{ $where: 'while(true){}' }, 'x']]) },
    }),
  },
  {
    name: 'unknown operator in a nested cursor',
    body: JSON.stringify({
      query: '{ page(id: "g-page") { issues(first: 2, after: "' + b64({ $foo: 1 }) + '") { totalCount } } }',
    }),
  },
  {
    name: 'object for an ID',
    body: JSON.stringify({ query: 'query($id: ID!) { page(id: $id) { id } }', variables: { id: { $regex: '(' } } }),
  },
  { name: 'unknown operation name', body: JSON.stringify({ query: '{ __typename }', operationName: 'Nope' }) },
  { name: 'malformed JSON', body: '{"query": "{ pages(first: 1) { totalCount } }", ' },
];

async function innocent(): Promise<{ status: number; ok: boolean }> {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: INNOCENT }),
  });
  const body = (await res.json()) as {
    data?: { pages: { edges: unknown[] }; articles: { totalCount: number } };
    errors?: unknown;
  };
  return {
    status: res.status,
    ok:
      res.status === 200 &&
      !body.errors &&
      body.data!.pages.edges.length === 1 &&
      body.data!.articles.totalCount === 20,
  };
}

/** The poison's answer: a 4xx, or (a refused nested argument under a nullable parent) a 200 carrying the code. */
async function poison(body: string): Promise<{ status: number; code: unknown }> {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const answer = (await res.json()) as { errors?: Array<{ extensions?: { code?: unknown } }> };
  return { status: res.status, code: answer.errors?.[0]?.extensions?.code };
}

test.each(poisons)('$name beside 20 innocent concurrent requests: 0 innocent failures', async ({ body }) => {
  for (let round = 0; round < 3; round++) {
    const innocents = Array.from({ length: 20 }, () => innocent());
    const poisoned = poison(body);
    const answers = await Promise.all(innocents);
    expect(answers.filter((a) => !a.ok)).toEqual([]);
    const { status, code } = await poisoned;
    expect(status).toBeLessThan(500);
    expect(['BAD_USER_INPUT', 'BAD_REQUEST', 'OPERATION_RESOLUTION_FAILURE']).toContain(code);
  }
});

test('a store command that fails beside 20 innocent requests fails alone', async () => {
  // The store error of one request (here: a command the engine must refuse) on the service's own connection pool.
  const failing = svc.store.db
    .collection('articles')
    .find({ title: { $regex: '(' } })
    .toArray()
    .then(
      () => 'answered',
      () => 'refused',
    );
  const answers = await Promise.all(Array.from({ length: 20 }, () => innocent()));
  expect(await failing).toBe('refused');
  expect(answers.filter((a) => !a.ok)).toEqual([]);
  // And the service is still healthy afterwards.
  expect((await innocent()).ok).toBe(true);
});
