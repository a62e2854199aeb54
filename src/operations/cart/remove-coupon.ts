// Use case: remove one coupon from the caller's cart and reprice it (docs/api.md). Removal and the
// recomputed matrix are one findOneAndUpdate guarded by the version the cart was read at; on a conflict
// the whole read-decide-price step runs again on the newer cart, so concurrent removals all take effect
// and each answer is exactly the cart state its own write produced.
import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import type { Cart } from '../../schema/catalogue/cart.type.js';
import type { CartDoc } from '../../store/catalogue/catalogue.docs.js';
import { toCart } from '../../store/catalogue/catalogue.mapper.js';
import { cartProjection } from '../../store/catalogue/catalogue.projections.js';
import { memberKey } from '../../store/member-ids.js';
import { checkId, checkLang } from '../catalogue/catalogue.input.js';
import { cartBusy, cartNotFound, couponNotInCart } from './cart.errors.js';
import { repriceCart } from './cart-pricing.js';
import { requireCartScope } from './require-cart-scope.js';

export interface RemoveCouponInput {
  cartId: string;
  couponId?: string | null;
  couponCode?: string | null;
}

const MAX_ATTEMPTS = 8;

/** Coupon codes are matched case-insensitively: they are stored upper case. */
const normaliseCouponCode = (code: string): string => code.toUpperCase();

function checkInput(input: RemoveCouponInput): { cartId: string; couponId?: string; couponCode?: string } {
  const cartId = checkId(input.cartId, 'cartId');
  // The coupon's own id, or its graph-wide id in this cart (`CartCoupon.id`).
  const couponId =
    input.couponId == null ? undefined : checkId(memberKey(input.couponId, 'CartCoupon', cartId), 'couponId');
  const couponCode =
    input.couponCode == null ? undefined : normaliseCouponCode(checkId(input.couponCode, 'couponCode'));
  if (couponId === undefined && couponCode === undefined) {
    throw badRequest('Give couponId or couponCode', [
      { field: 'couponId', message: 'couponId or couponCode is required' },
    ]);
  }
  return { cartId, couponId, couponCode };
}

export async function removeCouponFromCart(
  ctx: Context,
  input: RemoveCouponInput,
  lang?: string | null,
): Promise<Cart> {
  const viewer = requireCartScope(ctx);
  const { cartId, couponId, couponCode } = checkInput(input);
  const language = checkLang(lang);
  const carts = ctx.store.collection('carts');
  const mine = { _id: cartId, customerId: viewer.customerId };

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const cart = await carts.findOne(mine, { projection: cartProjection });
    if (!cart) throw cartNotFound();
    // Both identifiers given: they must name the same applied coupon.
    const index = cart.coupons.findIndex(
      (c) => (couponId === undefined || c.couponId === couponId) && (couponCode === undefined || c.code === couponCode),
    );
    if (index < 0) throw couponNotInCart();
    const coupons = cart.coupons.filter((_, i) => i !== index);
    const priceMatrix = await repriceCart(ctx, { currency: cart.currency, items: cart.items, coupons });
    const written: CartDoc | null = await carts.findOneAndUpdate(
      { ...mine, version: cart.version },
      { $set: { coupons, priceMatrix, updatedAt: ctx.now }, $inc: { version: 1 } },
      { returnDocument: 'after', projection: cartProjection },
    );
    if (written) return toCart(written, language);
    ctx.log.debug({ cartId, attempt }, 'cart changed underneath a coupon removal; retrying');
  }
  throw cartBusy();
}
