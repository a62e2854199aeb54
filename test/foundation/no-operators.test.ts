// No client value reaches the store as an object or an operator: every input — REST path, query and body
// fields, GraphQL arguments and variables, cursors — is sent objects, arrays and `$`-operators carrying a
// marker, and every command the service's driver sends is searched for it. Each answer is a 4xx.
import { bearer, insertCatalogue, testAuthenticator } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { startMonitoredService, type MonitoredService } from '../helpers/monitored.js';

const MARK = 'MARK7f3a';
let svc: MonitoredService;

beforeAll(async () => {
  svc = await startMonitoredService({
    prefix: 'noop',
    authenticate: testAuthenticator,
    beforeStart: async (store, db) => {
      await insertCatalogue(store);
      await f.insert(db, contentGraph({ prefix: 'g-', issues: 2, articlesPerIssue: 2 }).fixture);
    },
  });
}, 60_000);
afterAll(() => svc.close());

const hostile = [
  { $ne: MARK },
  { $gt: MARK },
  { $regex: MARK },
  { $where: MARK },
  [MARK, MARK],
  { nested: { $in: [MARK] } },
];
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function send(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<number> {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await res.arrayBuffer();
  return res.status;
}

async function gql(
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; codes: unknown[] }> {
  const res = await fetch(`${svc.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { errors?: Array<{ extensions?: { code?: unknown } }> };
  return { status: res.status, codes: (body.errors ?? []).map((e) => e.extensions?.code) };
}

const q = (o: Record<string, string>) => new URLSearchParams(o).toString();

test('hostile REST input is refused with a 4xx before it reaches the store', async () => {
  const statuses: Array<[string, number]> = [];
  const record = async (label: string, status: Promise<number>) => statuses.push([label, await status]);
  await record('issues: page[$gt]', send('GET', `/cms/page/g-page/issues?${q({ 'page[$gt]': MARK })}`));
  await record('issues: limit repeated', send('GET', `/cms/page/g-page/issues?limit=${MARK}&limit=2`));
  await record(
    'issues: path operator',
    send('GET', `/cms/page/${encodeURIComponent(JSON.stringify({ $ne: MARK }))}/issues`),
  );
  await record('categories: parentId[$ne]', send('GET', `/cms/product/categories?${q({ 'parentId[$ne]': MARK })}`));
  await record('categories: parentId twice', send('GET', `/cms/product/categories?parentId=${MARK}&parentId=${MARK}`));
  await record('categories: lang[$regex]', send('GET', `/cms/product/categories?${q({ 'lang[$regex]': MARK })}`));
  for (const value of hostile) {
    await record(
      'coupon: cartId',
      send('DELETE', '/cms/customer/coupon/remove', { cartId: value, couponId: 'cp-ten' }, bearer('alice-cart')),
    );
    await record(
      'coupon: couponCode',
      send('DELETE', '/cms/customer/coupon/remove', { cartId: 'cart-alice', couponCode: value }, bearer('alice-cart')),
    );
    await record(
      'coupon: couponId',
      send('DELETE', '/customer/coupon/remove_coupon', { cartId: 'cart-alice', couponId: value }, bearer('alice-cart')),
    );
    await record('activate: email', send('POST', '/cms/channel/7/activate_subscription', { email: value, key: 'k' }));
    await record(
      'activate: key',
      send('POST', '/cms/channel/7/activate_subscription', { email: 'a@example.com', key: value }),
    );
  }
  await record(
    'coupon: query cartId[$ne]',
    send(
      'DELETE',
      `/cms/customer/coupon/remove?${q({ 'cartId[$ne]': MARK, couponId: 'cp-ten' })}`,
      undefined,
      bearer('alice-cart'),
    ),
  );
  await record(
    'coupon: $-key in body',
    send(
      'DELETE',
      '/cms/customer/coupon/remove',
      { cartId: 'cart-alice', couponId: 'cp-ten', $where: MARK },
      bearer('alice-cart'),
    ),
  );
  await record('otp: username object', send('POST', '/oauth2/otp', { client_id: 'demo', username: { $ne: MARK } }));
  await record(
    'token: username object',
    send('POST', '/oauth2/access_token', {
      grant_type: 'password',
      client_id: 'demo',
      username: { $ne: MARK },
      password: 'x',
    }),
  );
  for (const [label, status] of statuses)
    expect({ label, status: status >= 400 && status < 500 }).toEqual({ label, status: true });
});

test('hostile GraphQL variables and arguments are refused before they reach the store', async () => {
  const answers: Array<[string, { status: number; codes: unknown[] }]> = [];
  for (const value of hostile) {
    answers.push(['page(id)', await gql('query($id: ID!) { page(id: $id) { id } }', { id: value })]);
    answers.push(['article(slug)', await gql('query($s: String) { article(slug: $s) { id } }', { s: value })]);
    answers.push([
      'articles(filter)',
      await gql('query($f: ArticlesFilter) { articles(first: 1, filter: $f) { totalCount } }', {
        f: { authorId: value },
      }),
    ]);
    answers.push([
      'articles(after)',
      await gql('query($a: String) { articles(first: 1, after: $a) { totalCount } }', { a: value }),
    ]);
    answers.push([
      'productCategories(parentId)',
      await gql('query($p: ID) { productCategories(parentId: $p) { id } }', { p: value }),
    ]);
    answers.push([
      'cart(id)',
      await gql('query($id: ID!) { cart(id: $id) { id } }', { id: value }, bearer('alice-cart')),
    ]);
    answers.push([
      'removeCouponFromCart(input)',
      await gql(
        'mutation($i: RemoveCouponFromCartInput!) { removeCouponFromCart(input: $i) { id } }',
        { i: { cartId: 'cart-alice', couponCode: value } },
        bearer('alice-cart'),
      ),
    ]);
    answers.push([
      'subscribeToNewsletter',
      await gql('mutation($e: String!) { subscribeToNewsletter(channelId: "7", email: $e) { accepted } }', {
        e: value,
      }),
    ]);
    answers.push([
      'cursor payload',
      await gql('query($a: String) { pages(first: 1, after: $a) { totalCount } }', { a: b64([0, [value, MARK]]) }),
    ]);
    answers.push([
      'nested cursor payload',
      await gql('query($a: String) { page(id: "g-page") { issues(first: 1, after: $a) { totalCount } } }', {
        a: b64([0, [value, 1, MARK]]),
      }),
    ]);
  }
  answers.push(['inline object literal', await gql(`{ page(id: { $ne: "${MARK}" }) { id } }`, {})]);
  answers.push(['inline $-string id', await gql(`{ page(id: "$ne") { id } }`, {})]);
  for (const [label, answer] of answers) {
    expect({
      label,
      status: answer.status < 500,
      refused: answer.codes.length > 0,
      internal: answer.codes.includes('INTERNAL_SERVER_ERROR'),
    }).toEqual({
      label,
      status: true,
      refused: true,
      internal: false,
    });
  }
});

test('no command the service sent to the store carries the marker', () => {
  expect(svc.commands.length).toBeGreaterThan(0);
  const carrying = svc.commands.filter((c) => JSON.stringify(c.command).includes(MARK));
  expect(carrying.map((c) => `${c.commandName} ${JSON.stringify(c.command).slice(0, 200)}`)).toEqual([]);
});
