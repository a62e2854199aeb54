// Concurrent coupon removals on one cart: every removal takes effect, the final totals equal a fresh
// computation, and each answer is consistent with the cart state its own write produced.
import type { Collection } from 'mongodb';
import { createContext } from '../../src/context.js';
import { createLogger } from '../../src/logger.js';
import type { Mailer } from '../../src/mail/mailer.js';
import { priceMatrixFor, pricingInputFor } from '../../src/operations/cart/cart-pricing.js';
import { removeCouponFromCart } from '../../src/operations/cart/remove-coupon.js';
import type { Cart } from '../../src/schema/catalogue/cart.type.js';
import type { CartDoc, CouponDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';
import type { Store } from '../../src/store/store.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { ALICE, aliceCart, bearer, insertCatalogue, testAuthenticator } from './fixtures.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ authenticate: testAuthenticator, beforeStart: insertCatalogue });
});
afterAll(() => svc.close());

const carts = () => svc.db.collection<CartDoc>('carts');
type Matrix = {
  total: number;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  coupons: Array<{ id: string; code: string; amount: number }>;
};

/** A fresh matrix (API decimals) for the cart's items with exactly `couponIds` applied, at `now`. */
async function freshFor(couponIds: string[], now: Date) {
  const items = await svc.db.collection<ProductItemDoc>('productItems').find().toArray();
  const coupons = await svc.db.collection<CouponDoc>('coupons').find().toArray();
  const applied = couponIds.map((id) => aliceCart.coupons.find((c) => c.couponId === id)!);
  const m = priceMatrixFor(
    pricingInputFor(
      { ...aliceCart, coupons: applied },
      new Map(items.map((i) => [i._id, i])),
      new Map(coupons.map((c) => [c._id, c])),
      now,
    ),
  );
  const d = (v: number) => v / 100;
  return {
    subtotal: d(m.subtotal),
    discount: d(m.discount),
    shipping: d(m.shipping),
    tax: d(m.tax),
    total: d(m.total),
    coupons: m.coupons.map((c) => ({ id: c.id, code: c.code, amount: d(c.amount) })),
  };
}

const summary = (m: Matrix) => ({
  subtotal: m.subtotal,
  discount: m.discount,
  shipping: m.shipping,
  tax: m.tax,
  total: m.total,
  coupons: m.coupons.map(({ id, code, amount }) => ({ id, code, amount })),
});

/** The stored matrix (minor units) in API decimals. */
const storedSummary = (cart: CartDoc) => {
  const m = cart.priceMatrix;
  const d = (v: number) => v / 100;
  return {
    subtotal: d(m.subtotal),
    discount: d(m.discount),
    shipping: d(m.shipping),
    tax: d(m.tax),
    total: d(m.total),
    coupons: m.coupons.map((c) => ({ id: c.id, code: c.code, amount: d(c.amount) })),
  };
};

const remove = async (couponId: string) => {
  const res = await fetch(`${svc.url}/cms/customer/coupon/remove`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', ...bearer('alice-cart') },
    body: JSON.stringify({ cartId: 'cart-alice', couponId }),
  });
  return { status: res.status, body: (await res.json()) as { priceMatrix: Matrix } };
};

test('two concurrent removals of two different coupons both take effect, and no answer is stale', async () => {
  // Repeated so that some rounds really interleave; every round must hold whatever the interleaving.
  for (let round = 0; round < 8; round++) {
    await carts().replaceOne({ _id: 'cart-alice' }, aliceCart);
    const [a, b] = await Promise.all([remove('cp-ten'), remove('cp-five')]);
    expect([a.status, b.status]).toEqual([200, 200]);

    const final = (await carts().findOne({ _id: 'cart-alice' }))!;
    expect(final.coupons.map((c) => c.couponId)).toEqual(['cp-ship', 'cp-year', 'cp-old']);
    expect(final.version).toBe(aliceCart.version + 2);
    const now = final.priceMatrix.computedAt;
    expect(storedSummary(final)).toEqual(await freshFor(['cp-ship', 'cp-year', 'cp-old'], now));

    for (const [answer, removed] of [
      [a, 'cp-ten'],
      [b, 'cp-five'],
    ] as const) {
      const listed = answer.body.priceMatrix.coupons.map((c) => c.id);
      expect(listed).not.toContain(removed);
      // Consistent with the state it wrote: exactly the fresh prices of the coupons it shows.
      expect(summary(answer.body.priceMatrix)).toEqual(await freshFor(listed, now));
    }
    // Whichever wrote second saw the other removal: its answer holds neither coupon.
    const later = [a, b].find((r) => r.body.priceMatrix.coupons.length === 3);
    expect(later).toBeDefined();
    expect(summary(later!.body.priceMatrix)).toEqual(await freshFor(['cp-ship', 'cp-year', 'cp-old'], now));
  }
});

test('all coupons removed at once: every request succeeds and the cart ends with none', async () => {
  await carts().replaceOne({ _id: 'cart-alice' }, aliceCart);
  const all = aliceCart.coupons.map((c) => c.couponId);
  const answers = await Promise.all(all.map(remove));
  expect(answers.map((r) => r.status)).toEqual(all.map(() => 200));
  const final = (await carts().findOne({ _id: 'cart-alice' }))!;
  expect(final.coupons).toEqual([]);
  expect(final.version).toBe(aliceCart.version + all.length);
  expect(final.priceMatrix.discount).toBe(0);
  expect(final.priceMatrix.coupons).toEqual([]);
  expect(answers.filter((r) => r.body.priceMatrix.coupons.length === 0)).toHaveLength(1);
});

test('a write that loses the race retries on the newer cart instead of overwriting it', async () => {
  await carts().replaceOne({ _id: 'cart-alice' }, aliceCart);
  const viewer = { customerId: ALICE, scopes: new Set(['cart']), entitlements: async () => [] };
  const context = (store: Store) =>
    createContext({
      requestId: 'test',
      log: createLogger('silent'),
      config: svc.config,
      store,
      mailer: undefined as unknown as Mailer,
      viewer,
    });

  // A store whose first conditional cart write is preceded by a competing removal of another coupon.
  let competitor: Promise<Cart> | undefined;
  let writes = 0;
  const racing = Object.create(svc.store) as Store;
  racing.collection = ((name: string) => {
    const real = svc.store.collection(name as 'carts');
    if (name !== 'carts') return real;
    return new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== 'findOneAndUpdate') return Reflect.get(target, prop, receiver);
        return async (...args: Parameters<Collection<CartDoc>['findOneAndUpdate']>) => {
          writes++;
          if (!competitor) {
            competitor = removeCouponFromCart(context(svc.store), { cartId: 'cart-alice', couponId: 'cp-five' });
            await competitor;
          }
          return (target.findOneAndUpdate as (...a: unknown[]) => unknown)(...args);
        };
      },
    });
  }) as Store['collection'];

  const mine = await removeCouponFromCart(context(racing), { cartId: 'cart-alice', couponId: 'cp-ten' });
  const theirs = await competitor!;
  expect(writes).toBe(2); // the first conditional write found a newer version and was retried
  expect(theirs.priceMatrix.coupons.map((c) => c.couponId)).toEqual(['cp-ten', 'cp-ship', 'cp-year', 'cp-old']);
  expect(mine.priceMatrix.coupons.map((c) => c.couponId)).toEqual(['cp-ship', 'cp-year', 'cp-old']);
  const final = (await carts().findOne({ _id: 'cart-alice' }))!;
  expect(final.coupons.map((c) => c.couponId)).toEqual(['cp-ship', 'cp-year', 'cp-old']);
  expect(final.version).toBe(aliceCart.version + 2);
  // The operation answers the API's cart, whose coupons carry their coupon's id as couponId (id is the graph-wide one).
  const minePriced = { ...mine.priceMatrix, coupons: mine.priceMatrix.coupons.map((c) => ({ ...c, id: c.couponId })) };
  expect(summary(minePriced as Matrix)).toEqual(
    await freshFor(['cp-ship', 'cp-year', 'cp-old'], final.priceMatrix.computedAt),
  );
});
