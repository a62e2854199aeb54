// The gateway's query executor (src/graphql/execute.ts) answers exactly as graphql-js's `execute`: the same data
// with the same keys in the same order, the same errors (messages, paths, order) and the same null propagation,
// on the real schema and store. Each operation runs through both, each with a request context of its own.
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { execute, parse, type DocumentNode, type GraphQLSchema } from 'graphql';
import { createContext } from '../../src/context.js';
import { executeQuery } from '../../src/graphql/execute.js';
import { answerBytes } from '../../src/graphql/server.js';
import { selectedFields } from '../../src/graphql/selection.js';
import { createLogger } from '../../src/logger.js';
import { createMailer } from '../../src/mail/index.js';
import { buildGatewaySchema } from '../../src/graphql/build-schema.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';

let svc: TestService;
let schema: GraphQLSchema;
const { fixture, ids } = contentGraph({ issues: 3, articlesPerIssue: 4 });
fixture.articles!.push(f.article('a-draft', { status: 'draft' }));
fixture.issues![0]!.contents[0]!.articleIds.splice(1, 0, 'a-draft', 'a-missing');

beforeAll(async () => {
  svc = await startTestService();
  await f.insert(svc.db, fixture);
  schema = await buildGatewaySchema();
});
afterAll(() => svc.close());

async function run(
  how: 'ours' | 'graphql-js',
  document: DocumentNode,
  variableValues?: Record<string, unknown>,
): Promise<string> {
  const log = createLogger('silent');
  const contextValue = createContext({
    requestId: 'executor-test',
    log,
    config: svc.config,
    store: svc.store,
    mailer: createMailer({ config: svc.config, store: svc.store, log }),
    viewer: null,
  });
  contextValue.operation.fields = selectedFields(schema, document, undefined);
  const args = { schema, document, contextValue, variableValues };
  const result = how === 'ours' ? await executeQuery(args) : await execute(args);
  return JSON.stringify(result);
}

async function same(query: string, variables?: Record<string, unknown>): Promise<unknown> {
  const document = parse(query);
  const ours = await run('ours', document, variables);
  // A second run of the same document uses the fields collected by the first (kept per document).
  const again = await run('ours', document, variables);
  const theirs = await run('graphql-js', document, variables);
  expect(ours).toBe(theirs);
  expect(again).toBe(theirs);
  return JSON.parse(ours);
}

const ARTICLE = `fragment A on Article { id title slug firstPublishedDate premium summary
  authors { id name slug } categories { id name slug } keywords { id name slug } __typename }`;

test('the nested page query, with fragments, aliases and __typename', async () => {
  const result = (await same(
    `query($id: ID!, $first: Int!) { page(id: $id) { id name issues(first: $first) { totalCount
      edges { cursor node { id title date issueNumber contents { categoryId category { id name slug } articles { ...A } } } } } } }
     ${ARTICLE}`,
    { id: ids.pageId, first: 2 },
  )) as { data: { page: { issues: { edges: unknown[] } } } };
  expect(result.data.page.issues.edges).toHaveLength(2);
});

test('@skip and @include read from variables, both ways', async () => {
  const query = `query($skip: Boolean!, $with: Boolean!) { issue(id: "${ids.issueIds[0]}") { id
    title @skip(if: $skip) contents { articles { id title @include(if: $with) ...A @skip(if: $skip) } } } } ${ARTICLE}`;
  for (const skip of [true, false]) for (const wanted of [true, false]) await same(query, { skip, with: wanted });
});

test('a response key named __proto__ is an own key of the answer', async () => {
  const result = (await same(`{ __proto__: article(id: "${ids.articleIds[0]![0]}") { id __proto__: title } }`)) as {
    data: Record<string, unknown>;
  };
  expect(Object.keys(result.data)).toEqual(['__proto__']);
});

test('errors: messages, paths, order and null propagation as graphql-js reports them', async () => {
  const result = (await same(`{
    one: article(id: "x", slug: "y") { id }
    page(id: "${ids.pageId}") { id issues(first: 100000) { totalCount } }
    list: articles(first: -1) { totalCount }
    issue(id: "${ids.issueIds[0]}") { contents { articles { id } } }
    missing: issue(id: "no-such-issue") { id }
  }`)) as { errors: unknown[] };
  expect(result.errors.length).toBeGreaterThanOrEqual(2);
});

test('variables that do not coerce, and an unknown operation name', async () => {
  const result = (await same(`query($first: Int!) { articles(first: $first) { totalCount } }`, { first: 'many' })) as {
    errors: unknown[];
  };
  expect(result.errors).toHaveLength(1);
  const document = parse(`query A { __typename } query B { __typename }`);
  const log = createLogger('silent');
  const contextValue = createContext({
    requestId: 't',
    log,
    config: svc.config,
    store: svc.store,
    mailer: createMailer({ config: svc.config, store: svc.store, log }),
    viewer: null,
  });
  const args = { schema, document, contextValue, operationName: 'C' };
  expect(JSON.stringify(await executeQuery(args))).toBe(JSON.stringify(await execute(args)));
});

test('interfaces (node), lists of them, and introspection', async () => {
  await same(
    `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Article { title authors { id } } ... on Issue { title } } }`,
    {
      ids: [ids.articleIds[0]![0], ids.issueIds[1], 'nothing-here', ids.pageId],
    },
  );
  await same(
    `{ __schema { queryType { name } } __type(name: "Article") { name kind fields { name type { name kind ofType { name } } } } }`,
  );
});

test('the HTTP answer is the executor result serialised, after which its data is let go', async () => {
  const query = `{ __proto__: article(id: "${ids.articleIds[0]![0]}") { id __proto__: title } page(id: "${ids.pageId}") { id issues(first: 2) { totalCount } } }`;
  const expected = await run('graphql-js', parse(query));
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(expected);

  // What the HTTP integration sends is the string; the result's data keeps nothing once it is made (src/graphql/server.ts).
  const result = JSON.parse(expected) as { data: Record<string, unknown> };
  expect(answerBytes(result)).toBe(expected);
  expect(Object.keys(result.data)).toEqual([]);
  expect(answerBytes({ errors: [{ message: 'm' }], data: null })).toBe('{"errors":[{"message":"m"}],"data":null}');

  // Our executor's own result: the bytes are graphql-js's, and then the objects that settled a promise (the values of
  // the asynchronous fields, whose promises were made when the request began) keep nothing (src/graphql/execute.ts).
  const log = createLogger('silent');
  const contextValue = createContext({
    requestId: 'release',
    log,
    config: svc.config,
    store: svc.store,
    mailer: createMailer({ config: svc.config, store: svc.store, log }),
    viewer: null,
  });
  const document = parse(query);
  contextValue.operation.fields = selectedFields(schema, document, undefined);
  const ours = (await executeQuery({ schema, document, contextValue })) as { data: Record<string, any> };
  const page = ours.data.page as Record<string, any>;
  const article = Object.getOwnPropertyDescriptor(ours.data, '__proto__')!.value as Record<string, unknown>;
  expect(Object.keys(article)).toEqual(['id', '__proto__']);
  expect(page.issues.totalCount).toBe(3);
  expect(answerBytes(ours)).toBe(expected);
  expect(Object.keys(ours.data)).toEqual([]);
  for (const settled of [page, article]) expect(Object.values(settled).every((v) => v === undefined)).toBe(true);
});
