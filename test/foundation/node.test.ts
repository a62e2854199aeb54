// Relay Global Object Identification: `node(id:)` resolves every type with an id of its own, `nodes(ids:)` in
// one store round trip per type whatever the number of ids, with each type's visibility and ownership rules.
import { bearer, insertCatalogue, testAuthenticator } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { startMonitoredService, type MonitoredService } from '../helpers/monitored.js';

let svc: MonitoredService;

beforeAll(async () => {
  svc = await startMonitoredService({
    prefix: 'node',
    authenticate: testAuthenticator,
    beforeStart: async (store, db) => {
      await insertCatalogue(store);
      await f.insert(db, contentGraph({ prefix: 'g-', issues: 2, articlesPerIssue: 2 }).fixture);
      await f.insert(db, {
        pages: [f.page('p-off', { enabled: false })],
        issues: [f.issue('i-off', 'p-off'), f.issue('i-draft', 'g-page', { status: 'draft' })],
        articles: [f.article('a-draft', { status: 'draft' })],
        contentCategories: [f.category('c-inactive', { status: 'inactive' })],
        videos: [f.video('v-processing', { status: 'processing' })],
        quizzes: [f.quiz('q-draft', { status: 'draft' })],
      });
    },
  });
}, 60_000);
afterAll(() => svc.close());

async function gql(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { data?: any; errors?: Array<{ extensions?: { code?: string } }> },
  };
}

/** One id of every Node type, and a field of that type to read through an inline fragment. */
const EVERY_TYPE: Array<[string, string, string]> = [
  ['g-page', 'Page', 'name'],
  ['g-issue-1', 'Issue', 'title'],
  ['g-a-1-1', 'Article', 'title'],
  ['g-cat-a', 'ContentCategory', 'name'],
  ['g-au-1', 'Author', 'name'],
  ['g-kw-1', 'Keyword', 'name'],
  ['g-vid-1', 'Video', 'title'],
  ['g-lb-1', 'LiveBlog', 'title'],
  ['g-poll-1', 'Poll', 'question'],
  ['g-quiz-1', 'Quiz', 'name'],
  ['7', 'Channel', 'name'],
  ['prod-weekly', 'Product', 'name'],
  ['item-print', 'ProductItem', 'name'],
  ['cat-print', 'ProductCategory', 'name'],
  ['cart-alice', 'Cart', 'priceMatrix { currency }'],
];

const NODE = `query($id: ID!) { node(id: $id) { __typename id ${EVERY_TYPE.map(([, type, field]) => `... on ${type} { ${field} }`).join(' ')} } }`;

test.each(EVERY_TYPE)('node(id: %s) is the %s with that id', async (id, type, field) => {
  const { status, body } = await gql(NODE, { id }, type === 'Cart' ? bearer('alice-cart') : {});
  expect(body.errors).toBeUndefined();
  expect(status).toBe(200);
  expect(body.data.node).toMatchObject({ __typename: type, id });
  expect(body.data.node[field.split(' ')[0]!]).toEqual(expect.anything());
});

test('what its entry point would not show is null through node too', async () => {
  for (const id of ['p-off', 'i-off', 'i-draft', 'a-draft', 'c-inactive', 'v-processing', 'q-draft', 'nothing-here']) {
    const { body } = await gql(NODE, { id });
    expect({ id, errors: body.errors, node: body.data?.node }).toEqual({ id, errors: undefined, node: null });
  }
});

test('a cart is a node only for its owner holding the cart scope', async () => {
  const cart = async (headers: Record<string, string>) =>
    (await gql(NODE, { id: 'cart-alice' }, headers)).body.data.node;
  expect(await cart({})).toBeNull();
  expect(await cart(bearer('bob-cart'))).toBeNull();
  expect(await cart(bearer('alice-plain'))).toBeNull();
  expect(await cart(bearer('alice-cart'))).toMatchObject({ __typename: 'Cart', id: 'cart-alice' });
});

test('nodes answers in the order asked, null where there is nothing, repeats included', async () => {
  const { body } = await gql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', {
    ids: ['g-a-1-2', 'nope', 'g-page', 'g-a-1-2', 'a-draft'],
  });
  expect(body.errors).toBeUndefined();
  expect(body.data.nodes).toEqual([
    { __typename: 'Article', id: 'g-a-1-2' },
    null,
    { __typename: 'Page', id: 'g-page' },
    { __typename: 'Article', id: 'g-a-1-2' },
    null,
  ]);
});

test('a malformed id or too many ids is BAD_USER_INPUT', async () => {
  expect((await gql(NODE, { id: 'no spaces!' })).body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  const many = await gql('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
    ids: Array.from({ length: 101 }, (_, i) => `x-${i}`),
  });
  // Refused while executing `nodes`: an execution error, so 200 with `data: null` (GraphQL over HTTP).
  expect({ status: many.status, data: many.body.data, code: many.body.errors?.[0]?.extensions?.code }).toEqual({
    status: 200,
    data: null,
    code: 'BAD_USER_INPUT',
  });
});

/** Store commands one nodes() query sends, by command and collection. */
async function commandsOf(ids: string[]): Promise<string[]> {
  svc.commands.length = 0;
  const { body } = await gql(
    `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`,
    { ids },
    bearer('alice-cart'),
  );
  expect(body.errors).toBeUndefined();
  expect(body.data.nodes.every((n: unknown) => n !== null)).toBe(true);
  return svc.commands.map((c) => `${c.commandName}:${String(c.command[c.commandName])}`).sort();
}

test('nodes costs one store round trip per type, whatever the number of ids', async () => {
  const oneEach = await commandsOf(EVERY_TYPE.map(([id]) => id));
  const all = await commandsOf([
    ...EVERY_TYPE.map(([id]) => id),
    'g-a-1-2',
    'g-a-2-1',
    'g-a-2-2',
    'g-issue-2',
    'g-au-2',
    'prod-digital',
    'item-year',
  ]);
  expect(all).toEqual(oneEach);
  // One find per Node type's collection, plus the pages of the issues found (an issue is visible while its page is).
  expect(new Set(all).size).toBe(all.length);
  expect(all.length).toBeLessThanOrEqual(EVERY_TYPE.length + 1);
});
