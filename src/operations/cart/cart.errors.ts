// Expected failures of the cart operations, with their stable codes (docs/api.md).
import { AppError, notFound } from '../../errors.js';

/** Absent and someone else's carts answer the same: a cart is never revealed to another customer. */
export const cartNotFound = (): AppError =>
  notFound('CART_NOT_FOUND', 'Cart not found', 'No cart with this id belongs to you');

export const couponNotInCart = (): AppError =>
  new AppError({
    status: 400,
    code: 'COUPON_NOT_IN_CART',
    title: 'Bad Request',
    detail: 'That coupon is not applied to this cart',
    errors: [{ field: 'coupon', message: 'Not applied to this cart' }],
  });

/** Every retry lost the race to another writer; the client may simply repeat the request. */
export const cartBusy = (): AppError =>
  new AppError({
    status: 503,
    code: 'STORE_UNAVAILABLE',
    title: 'Service Unavailable',
    detail: 'The cart kept changing while we updated it; try again',
    headers: { 'Retry-After': '1' },
  });
