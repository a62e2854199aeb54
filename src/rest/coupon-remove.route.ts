// DELETE /cms/customer/coupon/remove and its legacy alias /customer/coupon/remove_coupon
// (docs/api.md): thin shims over removeCouponFromCart. Fields come from the body or the query string.
import type { Router, RouterMiddleware } from '@koa/router';
import type Koa from 'koa';
import { jsonBody, withContext, type AppDeps, type AppState } from '../http/app-context.js';
import { badRequest, type FieldProblem } from '../errors.js';
import { parseOr400 } from '../validation.js';
import { requireCartScope } from '../operations/cart/require-cart-scope.js';
import { removeCouponFromCart } from '../operations/cart/remove-coupon.js';
import { restCart } from './product-categories.present.js';
import { couponRemoveRequest, couponRemoveSource, type CouponRemoveRequest } from './coupon-remove.schema.js';

export const COUPON_REMOVE_PATH = '/cms/customer/coupon/remove';
export const COUPON_REMOVE_LEGACY_PATH = '/customer/coupon/remove_coupon';

/** Body and query merged; a field given both ways must agree. */
function readRequest(ctx: Koa.Context): CouponRemoveRequest {
  const rawBody: unknown = ctx.request.body ?? {};
  if (typeof rawBody !== 'object' || rawBody === null || Array.isArray(rawBody)) {
    throw badRequest('The request body must be a JSON object', [{ field: 'body', message: 'Expected an object' }]);
  }
  const body = parseOr400(couponRemoveSource, rawBody, 'body');
  const query = parseOr400(couponRemoveSource, { ...ctx.query }, 'query');
  const conflicts: FieldProblem[] = (Object.keys(couponRemoveSource.shape) as Array<keyof typeof body>)
    .filter((k) => body[k] !== undefined && query[k] !== undefined && body[k] !== query[k])
    .map((field) => ({ field, message: 'Given in the body and in the query with different values' }));
  if (conflicts.length) throw badRequest('The body and the query disagree', conflicts);
  return parseOr400(couponRemoveRequest, { ...query, ...body }, 'body');
}

const removeCoupon: RouterMiddleware<AppState> = async (ctx) => {
  const context = ctx.state.context!;
  // Who is asking comes before what they ask: no token is a 401 whatever the body holds.
  requireCartScope(context);
  const request = readRequest(ctx as unknown as Koa.Context);
  const cart = await removeCouponFromCart(context, request);
  ctx.status = 200;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = await restCart(context, cart);
};

/** RFC 9745 Deprecation and RFC 8288 successor link, on every answer of the alias (errors included). */
const deprecatedAlias: Koa.Middleware = async (ctx, next) => {
  ctx.set('Deprecation', 'true');
  ctx.set('Link', `<${COUPON_REMOVE_PATH}>; rel="successor-version"`);
  await next();
};

export function registerCouponRemoveRoutes(router: Router<AppState>, deps: AppDeps): void {
  router.delete(COUPON_REMOVE_PATH, jsonBody(), withContext(deps), removeCoupon);
  router.delete(COUPON_REMOVE_LEGACY_PATH, deprecatedAlias, jsonBody(), withContext(deps), removeCoupon);
}
