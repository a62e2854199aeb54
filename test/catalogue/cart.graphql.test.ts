// Carts over GraphQL: viewer { carts }, cart(id), removeCouponFromCart, and the scope and ownership rules.
import type { CartDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { startTestService, type TestService } from '../helpers/service.js';
import * as expected from './expected.js';
import { aliceCart, bearer, bobCart, insertCatalogue, testAuthenticator } from './fixtures.js';
import { ITEM, PRICE_MATRIX } from './queries.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ authenticate: testAuthenticator, beforeStart: insertCatalogue });
});
afterAll(() => svc.close());
beforeEach(async () => {
  await svc.db.collection<CartDoc>('carts').replaceOne({ _id: aliceCart._id }, aliceCart);
});

const CART = `query($id: ID!, $lang: String) { cart(id: $id, lang: $lang) { id items { ...Item productItemId quantity } ${PRICE_MATRIX} } }\n${ITEM}`;
const REMOVE = `mutation($input: RemoveCouponFromCartInput!) { removeCouponFromCart(input: $input) { id ${PRICE_MATRIX} } }`;

/** The stored matrix in API form (decimals of EUR, enum reasons). */
function expectedMatrix(cart: CartDoc) {
  const m = cart.priceMatrix;
  const d = (v: number) => v / 100;
  return {
    currency: m.currency,
    subtotal: d(m.subtotal),
    discount: d(m.discount),
    shipping: d(m.shipping),
    tax: d(m.tax),
    total: d(m.total),
    lines: m.lines.map((l) => ({
      itemId: l.itemId,
      quantity: l.quantity,
      unitPrice: d(l.unitPrice),
      lineTotal: d(l.lineTotal),
    })),
    coupons: m.coupons.map((c) => ({
      id: `CartCoupon:${cart._id}:${c.id}`,
      couponId: c.id,
      code: c.code,
      amount: d(c.amount),
      reason: c.reason ? c.reason.toUpperCase() : null,
    })),
  };
}

test('viewer is null for anonymous requests', async () => {
  const res = await svc.gql('{ viewer { customerId } }');
  expect(res.body).toEqual({ data: { viewer: null } });
});

test("viewer { carts } lists the customer's carts, most recently changed first", async () => {
  const res = await svc.gql('{ viewer { customerId carts { id } } }', undefined, bearer('alice-cart'));
  expect(res.body.data).toEqual({
    viewer: { customerId: 'cust-alice', carts: [{ id: 'cart-alice' }, { id: 'cart-alice-2' }] },
  });
});

test('viewer { carts } needs the cart scope', async () => {
  const res = await svc.gql('{ viewer { customerId carts { id } } }', undefined, bearer('alice-plain'));
  expect(res.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});

test('cart(id): items with their quantities and every item field, and the stored price matrix', async () => {
  const res = await svc.gql<any>(CART, { id: 'cart-alice' }, bearer('alice-cart'));
  expect(res.body.errors).toBeUndefined();
  const stored = (await svc.db.collection<CartDoc>('carts').findOne({ _id: 'cart-alice' }))!;
  const items = await svc.db.collection<ProductItemDoc>('productItems').find().toArray();
  const item = (id: string) => items.find((i) => i._id === id)!;
  expect(res.body.data.cart).toEqual({
    id: 'cart-alice',
    items: [
      // A cart item's id is its own in this cart; the product item's id is `productItemId`.
      {
        ...expected.asGraphQL(expected.restItem(item('item-print'), 'Product prod-weekly')),
        id: 'CartItem:cart-alice:item-print',
        productItemId: 'item-print',
        quantity: 2,
      },
      {
        ...expected.asGraphQL(expected.restItem(item('item-year'), 'Product prod-digital')),
        id: 'CartItem:cart-alice:item-year',
        productItemId: 'item-year',
        quantity: 1,
      },
    ],
    priceMatrix: expectedMatrix(stored),
  });
  // The expired coupon stays on the cart but takes nothing off, and says why.
  expect(res.body.data.cart.priceMatrix.coupons.find((c: any) => c.code === 'OLD')).toEqual({
    id: 'CartCoupon:cart-alice:cp-old',
    couponId: 'cp-old',
    code: 'OLD',
    amount: 0,
    reason: 'EXPIRED',
  });
});

test('cart items resolve their lookups and localise like product items', async () => {
  const res = await svc.gql<any>(
    '{ cart(id: "cart-alice", lang: "de") { items { name productName translation(language: "de") { name } quantity } } }',
    undefined,
    bearer('alice-cart'),
  );
  expect(res.body.data.cart.items).toEqual([
    { name: 'Einzelheft', productName: 'Product prod-weekly', translation: { name: 'Einzelheft' }, quantity: 2 },
    { name: 'Item item-year', productName: 'Product prod-digital', translation: null, quantity: 1 },
  ]);
});

test("cart(id) of someone else's cart or of no cart is null, without an error", async () => {
  for (const id of ['cart-bob', 'cart-nobody']) {
    const res = await svc.gql(CART, { id }, bearer('alice-cart'));
    expect(res.body).toEqual({ data: { cart: null } });
  }
});

test('cart(id) needs a token with the cart scope', async () => {
  expect((await svc.gql(CART, { id: 'cart-alice' })).body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  expect((await svc.gql(CART, { id: 'cart-alice' }, bearer('alice-plain'))).body.errors?.[0]?.extensions?.code).toBe(
    'FORBIDDEN',
  );
});

describe('removeCouponFromCart', () => {
  test('removes the coupon and returns the repriced cart, as stored', async () => {
    const res = await svc.gql<any>(
      REMOVE,
      { input: { cartId: 'cart-alice', couponCode: 'five' } },
      bearer('alice-cart'),
    );
    expect(res.body.errors).toBeUndefined();
    const stored = (await svc.db.collection<CartDoc>('carts').findOne({ _id: 'cart-alice' }))!;
    expect(stored.coupons.map((c) => c.code)).toEqual(['TEN', 'SHIP', 'YEAR20', 'OLD']);
    expect(res.body.data.removeCouponFromCart).toEqual({ id: 'cart-alice', priceMatrix: expectedMatrix(stored) });
  });

  test.each<[string, Record<string, unknown>, string | undefined, string]>([
    ['a coupon not on the cart', { cartId: 'cart-alice', couponId: 'cp-big' }, 'alice-cart', 'BAD_USER_INPUT'],
    ['neither coupon id nor code', { cartId: 'cart-alice' }, 'alice-cart', 'BAD_USER_INPUT'],
    ['a malformed cart id', { cartId: '{"$ne":null}', couponId: 'cp-ten' }, 'alice-cart', 'BAD_USER_INPUT'],
    ["someone else's cart", { cartId: 'cart-bob', couponId: 'cp-ten' }, 'alice-cart', 'NOT_FOUND'],
    ['a cart that does not exist', { cartId: 'cart-nobody', couponId: 'cp-ten' }, 'alice-cart', 'NOT_FOUND'],
    ['a token without the cart scope', { cartId: 'cart-alice', couponId: 'cp-ten' }, 'alice-plain', 'FORBIDDEN'],
    ['no token', { cartId: 'cart-alice', couponId: 'cp-ten' }, undefined, 'UNAUTHENTICATED'],
  ])('%s: %s, nothing changed', async (_name, input, token, code) => {
    const res = await svc.gql(REMOVE, { input }, token ? bearer(token) : undefined);
    expect(res.body.errors?.[0]?.extensions?.code).toBe(code);
    expect(await svc.db.collection<CartDoc>('carts').findOne({ _id: 'cart-alice' })).toEqual(aliceCart);
    expect(await svc.db.collection<CartDoc>('carts').findOne({ _id: 'cart-bob' })).toEqual(bobCart);
  });
});
