// The REST shims' live answers against the served OpenAPI document: for each of the operations, the
// successes and every failure a test can provoke, validated (body, content type, required headers) with
// ajv against the schema the document declares for that path, method and status.
import type { CartDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { aliceCart, insertCatalogue } from '../catalogue/fixtures.js';
import * as content from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { json, startLive, unexercised, type Live } from './live.js';

let live: Live;
let reader: IssuedTokens;
let owner: IssuedTokens;
let ownerWithoutCart: IssuedTokens;
let stranger: IssuedTokens;
const CHANNEL = '4242';

beforeAll(async () => {
  live = await startLive({ beforeStart: insertCatalogue });
  const { fixture } = contentGraph({ issues: 3, articlesPerIssue: 2 });
  fixture.pages!.push(content.page('p-off', { enabled: false }));
  // A premium article, so an entitled reader's answer carries the full-access fields too.
  Object.assign(
    fixture.articles!.find((a) => a._id === 'g-a-3-1')!,
    { premium: true, free: false, accessControlEnabled: true, previewLimit: 4 },
  );
  await content.insert(live.svc.db, fixture);
  await live.svc.db.collection('channels').insertOne({ ...content.channel(CHANNEL) } as never);
  reader = await tokenFor(live.svc, {
    email: 'reader@example.test',
    scopes: ['openid'],
    entitlements: [{ group: 'subscription' }],
  });
  owner = await tokenFor(live.svc, { email: 'owner@example.test', scopes: ['openid', 'cart'] });
  ownerWithoutCart = await tokenFor(live.svc, { email: 'owner@example.test', scopes: ['openid', 'profile'] });
  stranger = await tokenFor(live.svc, { email: 'stranger@example.test', scopes: ['openid', 'cart'] });
});
afterAll(() => live?.svc.close());

const tooLarge = () => json({ cartId: 'cart-owner', email: 'a@example.com', key: 'k', pad: 'x'.repeat(1_100_000) });

describe('GET /cms/page/{id}/issues', () => {
  const T = '/cms/page/{id}/issues';
  test("200 anonymous (with Link paging) and with an entitled reader's token; 304 on a matching ETag", async () => {
    const first = await live.call(T, '/cms/page/g-page/issues?limit=1&page=2', { expect: 200 });
    expect(first.headers.get('link')).toMatch(/rel="next".*rel="prev"/);
    await live.call(T, '/cms/page/g-page/issues', { expect: 200, headers: bearer(reader.accessToken) });
    await live.call(T, '/cms/page/g-page/issues?limit=1&page=2', {
      expect: 304,
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
  });

  test('400 for a bad query or id, 401 for a bad token, 403 page not enabled, 404 page not found', async () => {
    await live.call(T, '/cms/page/g-page/issues?limit=0', { expect: 400 });
    await live.call(T, '/cms/page/g-page/issues?per_page=5', { expect: 400 });
    await live.call(T, `/cms/page/${'x'.repeat(65)}/issues`, { expect: 400 });
    await live.call(T, '/cms/page/g-page/issues', { expect: 401, headers: bearer('not-a-token') });
    await live.call(T, '/cms/page/p-off/issues', { expect: 403 });
    await live.call(T, '/cms/page/nope/issues', { expect: 404 });
  });
});

describe('GET /cms/product/categories', () => {
  const T = '/cms/product/categories';
  test('200 with every filter combination the fixtures make interesting; 304 on a matching ETag', async () => {
    const all = await live.call(T, '/cms/product/categories', { expect: 200 });
    for (const query of [
      '?lang=de',
      '?parentId=root',
      '?includeProducts=false',
      '?available=false&featured=true',
      '?parentId=cat-print&lang=fr',
      '?limit=2&page=2&productsLimit=1',
      '?page=99',
    ]) {
      await live.call(T, `/cms/product/categories${query}`, { expect: 200 });
    }
    await live.call(T, '/cms/product/categories', { expect: 200, headers: bearer(reader.accessToken) });
    await live.call(T, '/cms/product/categories', {
      expect: 304,
      headers: { 'if-none-match': all.headers.get('etag')! },
    });
  });

  test("the viewer's Try it out, sending every parameter's example as it is, gets a 200", async () => {
    const doc = (await (await fetch(`${live.svc.url}/openapi.json`)).json()) as any;
    const parameters = doc.paths[T].get.parameters as Array<{ in: string; name: string; schema: any }>;
    const query = new URLSearchParams();
    for (const p of parameters) {
      const example = p.schema.example ?? p.schema.examples?.[0];
      if (p.in === 'query' && example !== undefined) query.set(p.name, String(example));
    }
    expect([...query.keys()].sort()).toEqual(['lang', 'limit', 'page', 'parentId', 'productsLimit']);
    const res = await live.call(T, `${T}?${query}`, { expect: 200 });
    expect((JSON.parse(res.text) as unknown[]).length).toBeGreaterThan(0);
  });

  test('400 for an unknown or invalid parameter, 401 for a bad token', async () => {
    await live.call(T, '/cms/product/categories?parent_id=root', { expect: 400 });
    await live.call(T, '/cms/product/categories?lang=deu&available=yes', { expect: 400 });
    await live.call(T, '/cms/product/categories?page=0&limit=101&productsLimit=x', { expect: 400 });
    await live.call(T, '/cms/product/categories', { expect: 401, headers: bearer('not-a-token') });
  });
});

describe.each([
  ['/cms/customer/coupon/remove', false],
  ['/customer/coupon/remove_coupon', true],
])('DELETE %s', (path, legacy) => {
  const cart: CartDoc = { ...aliceCart, _id: 'cart-owner', customerId: '' };
  beforeEach(async () => {
    await live.svc.db
      .collection<CartDoc>('carts')
      .replaceOne({ _id: cart._id }, { ...cart, customerId: owner.customerId }, { upsert: true });
  });
  const remove = (
    expect: number,
    body: unknown,
    headers: Record<string, string> = bearer(owner.accessToken),
    query = '',
  ) => live.call(path, `${path}${query}`, { method: 'DELETE', expect, ...json(body, headers) });

  test('200: the updated cart, from the body or from the query', async () => {
    const res = await remove(200, { cartId: cart._id, couponId: 'cp-ten' });
    expect(JSON.parse(res.text).priceMatrix.coupons.map((c: { id: string }) => c.id)).not.toContain('cp-ten');
    expect(res.headers.get('deprecation')).toBe(legacy ? 'true' : null);
    await live.call(path, `${path}?cartId=${cart._id}&couponCode=five`, {
      method: 'DELETE',
      expect: 200,
      headers: bearer(owner.accessToken),
    });
  });

  test('400 for a coupon not on the cart, a malformed body, or fields that disagree', async () => {
    const notInCart = await remove(400, { cartId: cart._id, couponCode: 'BIG' });
    expect(JSON.parse(notInCart.text).code).toBe('COUPON_NOT_IN_CART');
    await remove(400, { cartId: cart._id });
    await remove(400, { cartId: cart._id, couponId: 'cp-ten', $where: '1' });
    await remove(400, { cartId: cart._id, couponId: 'cp-ten' }, bearer(owner.accessToken), '?couponId=cp-five');
  });

  test("401 without a token, 403 without the cart scope, 404 for a cart that is not the caller's", async () => {
    await remove(401, { cartId: cart._id, couponId: 'cp-ten' }, {});
    await remove(403, { cartId: cart._id, couponId: 'cp-ten' }, bearer(ownerWithoutCart.accessToken));
    await remove(404, { cartId: cart._id, couponId: 'cp-ten' }, bearer(stranger.accessToken));
  });

  test('413 for a body over 1 MiB, 415 for a body that is not JSON', async () => {
    await live.call(path, path, { method: 'DELETE', expect: 413, ...tooLarge() });
    await live.call(path, path, {
      method: 'DELETE',
      expect: 415,
      headers: { 'content-type': 'text/plain', ...bearer(owner.accessToken) },
      body: 'cartId=cart-owner',
    });
  });
});

describe('POST /cms/channel/{channel_id}/activate_subscription', () => {
  const T = '/cms/channel/{channel_id}/activate_subscription';
  const activate = (expect: number, body: unknown, channel = CHANNEL, headers: Record<string, string> = {}) =>
    live.call(T, `/cms/channel/${channel}/activate_subscription`, { method: 'POST', expect, ...json(body, headers) });

  test('200 activated, 200 refused', async () => {
    const subscribe = await live.svc.gql(
      'mutation($c: ID!, $e: String!) { subscribeToNewsletter(channelId: $c, email: $e) { accepted } }',
      { c: CHANNEL, e: 'fan@example.com' },
    );
    expect(subscribe.status).toBe(200);
    const [mail] = await live.svc.db.collection('outbox').find({ to: 'fan@example.com' }).toArray();
    const key = new URL(String(mail!.text).match(/https?:\/\/\S+/)![0]).searchParams.get('key')!;
    expect(JSON.parse((await activate(200, { email: 'Fan@Example.com ', key })).text)).toEqual({ error: false });
    expect(JSON.parse((await activate(200, { email: 'fan@example.com', key: 'wrong' })).text)).toEqual({
      error: true,
      message: 'Invalid or expired activation key',
    });
  });

  test('400 bad body, e-mail or channel id; 401 for a bad token; 404 unknown channel; 413; 415; 429', async () => {
    await activate(400, { email: 'not-an-email', key: 'k' });
    await activate(400, { email: 'a@example.com', key: 'k', extra: true });
    await activate(400, { email: 'a@example.com', key: 'k' }, 'abc');
    await activate(401, { email: 'a@example.com', key: 'k' }, CHANNEL, bearer('not-a-token'));
    await activate(404, { email: 'a@example.com', key: 'k' }, '999');
    await live.call(T, `/cms/channel/${CHANNEL}/activate_subscription`, { method: 'POST', expect: 413, ...tooLarge() });
    await live.call(T, `/cms/channel/${CHANNEL}/activate_subscription`, {
      method: 'POST',
      expect: 415,
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    let last = 200;
    for (let i = 0; i < 20 && last === 200; i++) {
      const res = await fetch(`${live.svc.url}/cms/channel/${CHANNEL}/activate_subscription`, {
        method: 'POST',
        ...json({ email: 'guess@example.com', key: `k${i}` }),
      });
      last = res.status;
    }
    expect(last).toBe(429);
    await activate(429, { email: 'guess@example.com', key: 'again' });
  });
});

test('every documented REST response was produced and checked, except server failures no test can cause', () => {
  expect(unexercised(live.conformance, (key) => !key.includes(' /oauth2/'), / (500|503)$/)).toEqual([]);
});
