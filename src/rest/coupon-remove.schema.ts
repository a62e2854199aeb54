// Request of DELETE /cms/customer/coupon/remove (docs/api.md). The fields come in the JSON body,
// or as query parameters because some proxies drop DELETE bodies; strings only, no other keys.
import { z } from 'zod';
import { ID_PATTERN } from '../operations/catalogue/catalogue.input.js';

const id = (description: string) =>
  z
    .string({ message: 'Must be a string' })
    .regex(ID_PATTERN, 'Must be 1 to 64 characters of A-Z a-z 0-9 _ . : -')
    .describe(description);

const fields = {
  cartId: id("The cart to change; one of the caller's carts"),
  couponId: id('Id of the applied coupon'),
  couponCode: id('Code of the applied coupon, matched case-insensitively'),
};

/** One source (body or query): any subset of the fields, nothing else. */
export const couponRemoveSource = z.strictObject({
  cartId: fields.cartId.optional(),
  couponId: fields.couponId.optional(),
  couponCode: fields.couponCode.optional(),
});

/** The request once both sources are merged: a cart and at least one way to name the coupon. */
export const couponRemoveRequest = z
  .strictObject({
    cartId: fields.cartId,
    couponId: fields.couponId.optional(),
    couponCode: fields.couponCode.optional(),
  })
  .refine((r) => r.couponId !== undefined || r.couponCode !== undefined, {
    message: 'Give couponId or couponCode',
    path: ['couponId'],
  })
  .describe('Which coupon to remove from which cart: at least one of couponId and couponCode');

export type CouponRemoveRequest = z.output<typeof couponRemoveRequest>;
