// Coupon removal with real access tokens from the token endpoint (the OAuth bearer check in front):
// the cart scope, the cart's owner, and tokens that are missing or not ours.
import type { CartDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { aliceCart, insertCatalogue } from './fixtures.js';

let svc: TestService;
let owner: IssuedTokens;
let ownerWithoutCart: IssuedTokens;
let stranger: IssuedTokens;
let cart: CartDoc;

beforeAll(async () => {
  svc = await startTestService({ beforeStart: insertCatalogue });
  owner = await tokenFor(svc, { email: 'owner@example.test', scopes: ['openid', 'cart'] });
  ownerWithoutCart = await tokenFor(svc, { email: 'owner@example.test', scopes: ['openid', 'profile'] });
  stranger = await tokenFor(svc, { email: 'stranger@example.test', scopes: ['openid', 'cart'] });
  cart = { ...aliceCart, _id: 'cart-owner', customerId: owner.customerId };
});
afterAll(() => svc.close());

beforeEach(async () => {
  await svc.db.collection<CartDoc>('carts').replaceOne({ _id: cart._id }, cart, { upsert: true });
});

const remove = (path: string, headers: Record<string, string>, couponId = 'cp-ten') =>
  fetch(`${svc.url}${path}`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ cartId: cart._id, couponId }),
  });
const stored = () => svc.db.collection<CartDoc>('carts').findOne({ _id: cart._id });

describe.each(['/cms/customer/coupon/remove', '/customer/coupon/remove_coupon'])('%s with real tokens', (path) => {
  test('the owner with the cart scope removes the coupon', async () => {
    const res = await remove(path, bearer(owner.accessToken));
    expect(res.status).toBe(200);
    expect((await stored())!.coupons.map((c) => c.couponId)).not.toContain('cp-ten');
  });

  test('401 without a token and with a token that is not ours', async () => {
    for (const headers of [{}, bearer(`${owner.accessToken.slice(0, -4)}AAAA`), bearer('not-a-jwt')]) {
      const res = await remove(path, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    }
    expect(await stored()).toEqual(cart);
  });

  test('403 for the owner with a token lacking the cart scope', async () => {
    const res = await remove(path, bearer(ownerWithoutCart.accessToken));
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/insufficient_scope/);
    expect(await stored()).toEqual(cart);
  });

  test("404 for another customer's token, never revealing the cart", async () => {
    const res = await remove(path, bearer(stranger.accessToken));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('CART_NOT_FOUND');
    expect(await stored()).toEqual(cart);
  });
});
