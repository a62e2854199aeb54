// DELETE /cms/customer/coupon/remove and the legacy /customer/coupon/remove_coupon: body or query
// fields, every documented status, repricing from scratch, and the alias's deprecation headers.
import { priceMatrixFor, pricingInputFor } from '../../src/operations/cart/cart-pricing.js';
import type { CartDoc, CouponDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as expected from './expected.js';
import { aliceCart, bearer, bobCart, insertCatalogue, testAuthenticator } from './fixtures.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ authenticate: testAuthenticator, beforeStart: insertCatalogue });
});
afterAll(() => svc.close());

const MAIN = '/cms/customer/coupon/remove';
const ALIAS = '/customer/coupon/remove_coupon';
type Json = Record<string, any>;

async function del(
  path: string,
  opts: { body?: unknown; raw?: string; query?: string; token?: string; type?: string } = {},
) {
  const headers: Record<string, string> = { ...(opts.token ? bearer(opts.token) : {}) };
  let body: string | undefined;
  if (opts.raw !== undefined || opts.body !== undefined) {
    body = opts.raw ?? JSON.stringify(opts.body);
    headers['content-type'] = opts.type ?? 'application/json';
  }
  const res = await fetch(`${svc.url}${path}${opts.query ?? ''}`, { method: 'DELETE', headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
}

const carts = () => svc.db.collection<CartDoc>('carts');
const storedCart = (id: string) => carts().findOne({ _id: id }) as Promise<CartDoc>;
async function resetCart(cart: CartDoc): Promise<void> {
  await carts().replaceOne({ _id: cart._id }, cart);
}

/** The matrix a fresh computation gives for the stored cart, in API decimals. */
async function freshMatrix(cart: CartDoc, now: Date) {
  const items = await svc.db.collection<ProductItemDoc>('productItems').find().toArray();
  const coupons = await svc.db.collection<CouponDoc>('coupons').find().toArray();
  const m = priceMatrixFor(
    pricingInputFor(cart, new Map(items.map((i) => [i._id, i])), new Map(coupons.map((c) => [c._id, c])), now),
  );
  const d = (v: number) => v / 100;
  return {
    currency: m.currency,
    subtotal: d(m.subtotal),
    discount: d(m.discount),
    shipping: d(m.shipping),
    tax: d(m.tax),
    total: d(m.total),
    lines: m.lines.map((l) => ({ ...l, unitPrice: d(l.unitPrice), lineTotal: d(l.lineTotal) })),
    coupons: m.coupons.map((c) => ({ ...c, amount: d(c.amount) })),
  };
}

beforeEach(async () => {
  await resetCart(aliceCart);
  await resetCart(bobCart);
});

describe.each([MAIN, ALIAS])('DELETE %s', (path) => {
  test('200: removes the coupon, reprices from scratch, and answers the cart with its items', async () => {
    const before = await storedCart('cart-alice');
    const res = await del(path, { body: { cartId: 'cart-alice', couponCode: 'ten' }, token: 'alice-cart' });
    expect(res.status).toBe(200);
    const after = await storedCart('cart-alice');
    expect(after.coupons.map((c) => c.code)).toEqual(['FIVE', 'SHIP', 'YEAR20', 'OLD']);
    expect(after.version).toBe(before.version + 1);
    expect(res.body.id).toBe('cart-alice');
    expect(res.body.priceMatrix).toEqual(await freshMatrix(after, after.priceMatrix.computedAt));
    expect(res.body.priceMatrix.coupons.map((c: Json) => c.code)).not.toContain('TEN');
    // YEAR20 compounded with TEN on the year pass (20 % of 90 %); now it takes 20 % of the full line.
    expect(before.priceMatrix.coupons.find((c) => c.code === 'YEAR20')!.amount).toBe(1782);
    expect(res.body.priceMatrix.coupons.find((c: Json) => c.code === 'YEAR20').amount).toBe(19.8);
    expect(res.body.priceMatrix.total).toBeCloseTo(
      res.body.priceMatrix.subtotal - res.body.priceMatrix.discount + res.body.priceMatrix.shipping,
      2,
    );
    // Items: the product item's fields next to the quantity, from the stored documents.
    const items = await svc.db
      .collection<ProductItemDoc>('productItems')
      .find({ _id: { $in: ['item-print', 'item-year'] } })
      .toArray();
    const byId = new Map(items.map((i) => [i._id, i]));
    expect(res.body.items).toEqual([
      { ...expected.restItem(byId.get('item-print')!, 'Product prod-weekly'), quantity: 2 },
      { ...expected.restItem(byId.get('item-year')!, 'Product prod-digital'), quantity: 1 },
    ]);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  test('nothing of the removed coupon survives, even when the stored matrix was wrong', async () => {
    await carts().updateOne(
      { _id: 'cart-alice' },
      { $set: { 'priceMatrix.total': 1, 'priceMatrix.discount': 999999, 'priceMatrix.coupons': [] } },
    );
    const res = await del(path, { body: { cartId: 'cart-alice', couponId: 'cp-five' }, token: 'alice-cart' });
    expect(res.status).toBe(200);
    const after = await storedCart('cart-alice');
    expect(res.body.priceMatrix).toEqual(await freshMatrix(after, after.priceMatrix.computedAt));
    expect(res.body.priceMatrix.coupons.map((c: Json) => c.code)).toEqual(['TEN', 'SHIP', 'YEAR20', 'OLD']);
  });

  test('the fields may come as query parameters, or both ways when they agree', async () => {
    const res = await del(path, { query: '?cartId=cart-alice&couponId=cp-ship', token: 'alice-cart' });
    expect(res.status).toBe(200);
    expect(res.body.priceMatrix.shipping).toBe(4.9);
    const both = await del(path, {
      query: '?cartId=cart-alice',
      body: { cartId: 'cart-alice', couponId: 'cp-old' },
      token: 'alice-cart',
    });
    expect(both.status).toBe(200);
    expect((await storedCart('cart-alice')).coupons.map((c) => c.code)).toEqual(['TEN', 'FIVE', 'YEAR20']);
  });

  test('couponId and couponCode together must name the same applied coupon', async () => {
    const mismatch = await del(path, {
      body: { cartId: 'cart-alice', couponId: 'cp-ten', couponCode: 'FIVE' },
      token: 'alice-cart',
    });
    expect([mismatch.status, mismatch.body.code]).toEqual([400, 'COUPON_NOT_IN_CART']);
    const match = await del(path, {
      body: { cartId: 'cart-alice', couponId: 'cp-ten', couponCode: 'TEN' },
      token: 'alice-cart',
    });
    expect(match.status).toBe(200);
  });

  test('400 COUPON_NOT_IN_CART for a coupon the cart does not have; nothing changes', async () => {
    for (const body of [
      { cartId: 'cart-alice', couponId: 'cp-big' },
      { cartId: 'cart-alice', couponCode: 'NOPE' },
    ]) {
      const res = await del(path, { body, token: 'alice-cart' });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 400, title: 'Bad Request', code: 'COUPON_NOT_IN_CART' });
    }
    expect(await storedCart('cart-alice')).toEqual(aliceCart);
  });

  test.each<[string, { body?: unknown; raw?: string; query?: string; type?: string }, string | null]>([
    ['no cart id', { body: { couponId: 'cp-ten' } }, 'cartId'],
    ['no coupon', { body: { cartId: 'cart-alice' } }, 'couponId'],
    ['an operator object for the cart id', { body: { cartId: { $ne: null }, couponId: 'cp-ten' } }, 'cartId'],
    [
      'an operator object for the coupon',
      { body: { cartId: 'cart-alice', couponCode: { $regex: '.*' } } },
      'couponCode',
    ],
    ['a $-key', { body: { cartId: 'cart-alice', couponId: 'cp-ten', $where: 'true' } }, '$where'],
    ['an unknown key', { body: { cartId: 'cart-alice', couponId: 'cp-ten', coupon: 'x' } }, 'coupon'],
    ['an array where a string belongs', { body: { cartId: 'cart-alice', couponCode: ['TEN'] } }, 'couponCode'],
    ['a number where a string belongs', { body: { cartId: 'cart-alice', couponId: 7 } }, 'couponId'],
    ['null where a string belongs', { body: { cartId: 'cart-alice', couponId: null } }, 'couponId'],
    ['a malformed id', { body: { cartId: 'cart alice', couponId: 'cp-ten' } }, 'cartId'],
    ['a body that is an array', { body: [{ cartId: 'cart-alice', couponId: 'cp-ten' }] }, 'body'],
    ['broken JSON', { raw: '{"cartId": "cart-alice",' }, null],
    ['a repeated query parameter', { query: '?cartId=cart-alice&couponId=cp-ten&couponId=cp-five' }, 'couponId'],
    ['a query operator', { query: '?cartId[$ne]=x&couponId=cp-ten' }, 'cartId[$ne]'],
    [
      'body and query disagreeing',
      { query: '?couponId=cp-five', body: { cartId: 'cart-alice', couponId: 'cp-ten' } },
      'couponId',
    ],
  ])('400 for %s, nothing changed', async (_name, req, field) => {
    const res = await del(path, { ...req, token: 'alice-cart' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, title: 'Bad Request', code: 'BAD_REQUEST' });
    if (field) expect(res.body.errors.map((e: Json) => e.field)).toContain(field);
    expect(await storedCart('cart-alice')).toEqual(aliceCart);
  });

  test('415 for a body that is not JSON', async () => {
    const res = await del(path, {
      raw: 'cartId=cart-alice&couponId=cp-ten',
      type: 'application/x-www-form-urlencoded',
      token: 'alice-cart',
    });
    expect(res.status).toBe(415);
    expect(await storedCart('cart-alice')).toEqual(aliceCart);
  });

  test('401 without a token or with a bad one, with WWW-Authenticate; the body is not even read', async () => {
    for (const token of [undefined, 'forged']) {
      const res = await del(path, { body: { cartId: { $ne: null } }, token });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="api"/);
    }
    expect(await storedCart('cart-alice')).toEqual(aliceCart);
  });

  test('403 for a token without the cart scope', async () => {
    const res = await del(path, { body: { cartId: 'cart-alice', couponId: 'cp-ten' }, token: 'alice-plain' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('FORBIDDEN');
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="cart"/);
    expect(await storedCart('cart-alice')).toEqual(aliceCart);
  });

  test("404 for someone else's cart, answered exactly like a cart that does not exist", async () => {
    const others = await del(path, { body: { cartId: 'cart-bob', couponId: 'cp-ten' }, token: 'alice-cart' });
    const missing = await del(path, { body: { cartId: 'cart-nobody', couponId: 'cp-ten' }, token: 'alice-cart' });
    expect(others.status).toBe(404);
    expect(others.body).toMatchObject({ status: 404, code: 'CART_NOT_FOUND' });
    expect(others.body).toEqual(missing.body);
    expect(await storedCart('cart-bob')).toEqual(bobCart);
    // Bob himself can.
    expect((await del(path, { body: { cartId: 'cart-bob', couponId: 'cp-ten' }, token: 'bob-cart' })).status).toBe(200);
  });
});

test('only the legacy alias carries Deprecation and a successor Link, on success and on errors', async () => {
  const ok = await del(ALIAS, { body: { cartId: 'cart-alice', couponId: 'cp-ten' }, token: 'alice-cart' });
  const notFound = await del(ALIAS, { body: { cartId: 'cart-bob', couponId: 'cp-ten' }, token: 'alice-cart' });
  const unauthenticated = await del(ALIAS, { body: { cartId: 'cart-alice', couponId: 'cp-ten' } });
  for (const res of [ok, notFound, unauthenticated]) {
    expect(res.headers.get('deprecation')).toBe('true');
    expect(res.headers.get('link')).toBe('</cms/customer/coupon/remove>; rel="successor-version"');
  }
  const main = await del(MAIN, { body: { cartId: 'cart-alice', couponId: 'cp-five' }, token: 'alice-cart' });
  expect(main.status).toBe(200);
  expect(main.headers.get('deprecation')).toBeNull();
  expect(main.headers.get('link')).toBeNull();
});

test('removing a coupon twice: the second time it is no longer on the cart', async () => {
  expect((await del(MAIN, { body: { cartId: 'cart-alice', couponId: 'cp-ten' }, token: 'alice-cart' })).status).toBe(
    200,
  );
  const again = await del(MAIN, { body: { cartId: 'cart-alice', couponId: 'cp-ten' }, token: 'alice-cart' });
  expect([again.status, again.body.code]).toEqual([400, 'COUPON_NOT_IN_CART']);
});
