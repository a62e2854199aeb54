// DELETE /cms/customer/coupon/remove and the deprecated alias /customer/coupon/remove_coupon
// (docs/api.md). Request fields are the shim's own schema (couponRemoveSource for the body and for
// the query, merged and checked by couponRemoveRequest); the alias is the same operation, deprecated,
// and sends Deprecation and a successor Link on every answer.
import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { COUPON_REMOVE_LEGACY_PATH, COUPON_REMOVE_PATH } from '../../rest/coupon-remove.route.js';
import { couponRemoveSource } from '../../rest/coupon-remove.schema.js';
import { cart } from '../components/catalogue.js';
import type { HeaderName } from '../components/headers.js';
import {
  badRequest,
  bodyProblems,
  jsonResponse,
  JSON_TYPE,
  problemResponse,
  serverProblems,
  unauthorized,
} from '../responses.js';
import { CART_SCOPE } from '../../operations/cart/require-cart-scope.js';
import { bearerWithScope } from '../security.js';
import { named } from '../zod.js';
import { toOpenApiPath } from './params.js';

const REQUEST_RULES =
  'Fields come in the JSON body, or as query parameters for clients behind proxies that drop DELETE bodies; a field given both ways must have the same value. Together they must name `cartId` and at least one of `couponId` / `couponCode`.';

function responses(extra: Partial<Record<string, HeaderName>>): Record<number, ResponseConfig> {
  return {
    200: jsonResponse('Coupon removed from cart: the updated cart, priced without the coupon', cart, {
      headers: { ...extra, 'Cache-Control': 'NoStore' },
    }),
    400: badRequest(
      'Bad Request: a malformed body or query, fields that disagree, no coupon named (`BAD_REQUEST`), or a coupon that is not applied to the cart (`COUPON_NOT_IN_CART`)',
      ['BAD_REQUEST', 'COUPON_NOT_IN_CART'],
      extra,
    ),
    401: unauthorized('No bearer token, or one that is not valid', extra),
    403: problemResponse(403, {
      description: 'A valid token without the `cart` scope',
      codes: ['FORBIDDEN'],
      headers: { ...extra, 'WWW-Authenticate': 'WwwAuthenticate' },
      details: { FORBIDDEN: 'This operation needs the "cart" scope' },
    }),
    404: problemResponse(404, {
      description: "No such cart among the caller's carts (someone else's cart answers the same)",
      codes: ['CART_NOT_FOUND'],
      headers: extra,
      details: { CART_NOT_FOUND: 'No cart with this id belongs to you' },
    }),
    ...bodyProblems(extra),
    ...serverProblems(extra),
  };
}

export function registerCouponRemoval(registry: OpenAPIRegistry): void {
  const fields = named(couponRemoveSource, 'CouponRemovalFields');
  const operation = (path: string, legacy: boolean) =>
    registry.registerPath({
      method: 'delete',
      path: toOpenApiPath(path),
      operationId: legacy ? 'removeCouponFromCartLegacy' : 'removeCouponFromCart',
      tags: ['Cart'],
      summary: legacy ? 'Remove a coupon from a cart (deprecated alias)' : 'Remove a coupon from a cart',
      description: legacy
        ? `Deprecated: use \`DELETE ${COUPON_REMOVE_PATH}\`, which behaves identically. Every answer carries \`Deprecation: true\` and \`Link: <${COUPON_REMOVE_PATH}>; rel="successor-version"\`.\n\n${REQUEST_RULES}`
        : `Removes the coupon and reprices the cart in one atomic store operation (no lost update under concurrent requests). Needs a token with the \`cart\` scope for a cart of the token's subject.\n\n${REQUEST_RULES}`,
      deprecated: legacy,
      security: bearerWithScope(CART_SCOPE),
      request: {
        query: couponRemoveSource,
        body: {
          description: REQUEST_RULES,
          required: false,
          content: {
            [JSON_TYPE]: {
              schema: fields,
              examples: {
                byCode: { summary: 'By coupon code', value: { cartId: 'cart-123', couponCode: 'SUMMER10' } },
                byId: { summary: 'By coupon id', value: { cartId: 'cart-123', couponId: 'cp-summer' } },
              },
            },
          },
        },
      },
      responses: responses(legacy ? { Deprecation: 'Deprecation', Link: 'SuccessorLink' } : {}),
    });
  operation(COUPON_REMOVE_PATH, false);
  operation(COUPON_REMOVE_LEGACY_PATH, true);
}
