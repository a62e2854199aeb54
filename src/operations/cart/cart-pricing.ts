// Prices a cart from its stored references: turns item and coupon documents into the pricing module's
// plain input and its answer into the stored matrix. The seeder uses the same conversion.
import type { Context } from '../../context.js';
import { priceCart, shippingFeeFor, type PricingInput } from '../../pricing/index.js';
import type { CartDoc, CouponDoc, PriceMatrixDoc, ProductItemDoc } from '../../store/catalogue/catalogue.docs.js';
import { couponById, productItemById } from '../../store/catalogue/catalogue.loaders.js';

type CartContent = Pick<CartDoc, 'currency' | 'items' | 'coupons'>;

/** Items that no longer exist drop out of the price; coupons whose definition is gone price at zero. */
export function pricingInputFor(
  cart: CartContent,
  items: ReadonlyMap<string, ProductItemDoc>,
  coupons: ReadonlyMap<string, CouponDoc>,
  now: Date,
): PricingInput {
  return {
    currency: cart.currency,
    now,
    shippingFee: shippingFeeFor(cart.currency),
    lines: cart.items.flatMap(({ productItemId, quantity }) => {
      const item = items.get(productItemId);
      return item
        ? [
            {
              itemId: item._id,
              quantity,
              unitPrice: item.price,
              currency: item.currency,
              shippable: item.shippable,
              taxRate: item.taxRate,
            },
          ]
        : [];
    }),
    coupons: cart.coupons.map(({ couponId, code }) => {
      const c = coupons.get(couponId);
      return {
        id: couponId,
        code,
        rule: c
          ? {
              kind: c.kind,
              percentOff: c.percentOff,
              amountOff: c.amountOff,
              currency: c.currency,
              minimumSubtotal: c.minimumSubtotal,
              itemIds: c.itemIds,
              validFrom: c.validFrom,
              validUntil: c.validUntil,
            }
          : null,
      };
    }),
  };
}

export function priceMatrixFor(input: PricingInput): PriceMatrixDoc {
  return { ...priceCart(input), computedAt: input.now };
}

/** A fresh matrix for the cart content, computed from scratch (nothing carried over from the stored one). */
export async function repriceCart(ctx: Context, cart: CartContent): Promise<PriceMatrixDoc> {
  const [itemDocs, couponDocs] = await Promise.all([
    ctx.loaders.get(productItemById).loadMany(cart.items.map((i) => i.productItemId)),
    ctx.loaders.get(couponById).loadMany(cart.coupons.map((c) => c.couponId)),
  ]);
  const present = <T extends { _id: string }>(docs: Array<T | null | Error>) =>
    new Map(docs.flatMap((d) => (d && !(d instanceof Error) ? [[d._id, d] as const] : [])));
  return priceMatrixFor(pricingInputFor(cart, present(itemDocs), present(couponDocs), ctx.now));
}
