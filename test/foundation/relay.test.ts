// Relay against the running service, as a Relay frontend uses it: relay-compiler validates documents against
// schema.graphql and compiles them (a @refetchable fragment with a @connection, so Relay writes its own
// pagination query through `node(id:)`), and relay-runtime sends them, normalizes the answers into its store
// by `id`, and merges a second page into the connection the way usePaginationFragment's loadNext does.
import { fetchQuery, getSelector, type Environment, type GraphQLTaggedNode, type OperationType } from 'relay-runtime';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { compileRelay, relayEnvironment, type Compiled } from '../helpers/relay.js';
import { startTestService, type TestService } from '../helpers/service.js';

/** The documents a Relay component of the front page would hold (module name `FrontPage`). */
const DOCUMENTS = `
import { graphql } from 'relay-runtime';
graphql\`query FrontPageQuery($id: ID!) { page(id: $id) { id name ...FrontPage_page } }\`;
graphql\`fragment FrontPage_page on Page
  @refetchable(queryName: "FrontPagePaginationQuery")
  @argumentDefinitions(count: { type: "Int", defaultValue: 2 }, cursor: { type: "String" }) {
  issues(first: $count, after: $cursor) @connection(key: "FrontPage_issues") {
    totalCount
    edges { node { id title issueNumber contents { category { id name } articles { id title } } } }
  }
}\`;
graphql\`query FrontPageNodeQuery($id: ID!) { node(id: $id) { __typename id ... on Issue { title page { id name } } ... on Article { title } } }\`;
`;

let svc: TestService;
let compiled: Compiled;
let artifacts: Record<string, GraphQLTaggedNode>;
let env: Environment;
let requests: Array<{ name: string; variables: Record<string, unknown> }>;

beforeAll(async () => {
  svc = await startTestService({
    beforeStart: async (store) => {
      await f.insert(store.db, contentGraph({ prefix: 'r-', issues: 5, articlesPerIssue: 2 }).fixture);
    },
  });
  compiled = await compileRelay('FrontPage', DOCUMENTS);
  artifacts = compiled.artifacts;
  requests = [];
  env = relayEnvironment(`${svc.url}/graphql`, ({ name, variables, status }) => {
    requests.push({ name, variables });
    expect(status).toBe(200);
  });
}, 60_000);

afterAll(async () => {
  await svc?.close();
  compiled?.remove();
});

async function direct(query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return ((await res.json()) as { data: unknown }).data;
}

type PageData = { page: { id: string; name: string } & Record<string, unknown> };
type Issues = {
  issues: {
    totalCount: number;
    edges: Array<{ cursor: string; node: { id: string; issueNumber: number; contents: unknown[] } }>;
    pageInfo: { endCursor: string; hasNextPage: boolean };
  };
};

test('the compiler accepts the schema and the documents, and writes the pagination query over node(id:)', () => {
  expect(Object.keys(artifacts).sort()).toEqual([
    'FrontPageNodeQuery',
    'FrontPagePaginationQuery',
    'FrontPageQuery',
    'FrontPage_page',
  ]);
  const text = (artifacts.FrontPagePaginationQuery as unknown as { params: { text: string } }).params.text;
  expect(text).toMatch(/node\(id: \$id\)/);
  expect(text).toMatch(/pageInfo \{\s+endCursor\s+hasNextPage/);
});

test('a page and its first issues, normalized and read through the fragment; loadNext merges the next page', async () => {
  const data = (await fetchQuery<OperationType>(env, artifacts.FrontPageQuery!, {
    id: 'r-page',
  }).toPromise()) as PageData;
  expect(data.page).toMatchObject({ id: 'r-page' });
  const read = (): Issues =>
    env.lookup(getSelector(artifacts.FrontPage_page as never, data.page) as never).data as unknown as Issues;

  const first = read();
  expect(first.issues.edges).toHaveLength(2);
  expect(first.issues.totalCount).toBe(5);
  expect(first.issues.pageInfo.hasNextPage).toBe(true);

  // What loadNext(2) sends: Relay's own refetch query with the connection's end cursor.
  await fetchQuery<OperationType>(env, artifacts.FrontPagePaginationQuery!, {
    id: 'r-page',
    count: 2,
    cursor: first.issues.pageInfo.endCursor,
  }).toPromise();
  const merged = read();
  expect(requests.map((r) => r.name)).toEqual(['FrontPageQuery', 'FrontPagePaginationQuery']);

  // The same four issues, in the same order, as one request for four.
  const four = await direct(
    'query($id: ID!) { page(id: $id) { issues(first: 4) { edges { node { id } } pageInfo { hasNextPage } } } }',
    { id: 'r-page' },
  );
  expect(merged.issues.edges.map((e) => e.node.id)).toEqual(
    four.page.issues.edges.map((e: { node: { id: string } }) => e.node.id),
  );
  expect(merged.issues.pageInfo.hasNextPage).toBe(true);
  expect(merged.issues.edges.every((e) => e.node.contents.length > 0)).toBe(true);

  // And the last page: one issue, no next page.
  await fetchQuery<OperationType>(env, artifacts.FrontPagePaginationQuery!, {
    id: 'r-page',
    count: 2,
    cursor: merged.issues.pageInfo.endCursor,
  }).toPromise();
  const all = read();
  expect(all.issues.edges).toHaveLength(5);
  expect(new Set(all.issues.edges.map((e) => e.node.id)).size).toBe(5);
  expect(all.issues.pageInfo.hasNextPage).toBe(false);
});

test('node(id:) refetches any record by the id Relay keys its store with', async () => {
  const issue = (await fetchQuery<OperationType>(env, artifacts.FrontPageNodeQuery!, {
    id: 'r-issue-1',
  }).toPromise()) as { node: Record<string, any> };
  expect(issue.node).toMatchObject({ __typename: 'Issue', id: 'r-issue-1', page: { id: 'r-page' } });
  const article = (await fetchQuery<OperationType>(env, artifacts.FrontPageNodeQuery!, {
    id: 'r-a-1-1',
  }).toPromise()) as { node: Record<string, any> };
  expect(article.node).toMatchObject({ __typename: 'Article', id: 'r-a-1-1' });
  // The store holds one record per id: the page read through the issue is the page record fetched first.
  const snapshot = env.getStore().getSource().get('r-page');
  expect(snapshot).toMatchObject({ __id: 'r-page', __typename: 'Page', id: 'r-page' });
  const missing = (await fetchQuery<OperationType>(env, artifacts.FrontPageNodeQuery!, {
    id: 'r-nothing',
  }).toPromise()) as { node: unknown };
  expect(missing.node).toBeNull();
});
