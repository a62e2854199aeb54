// The cart operations' access rule (docs/api.md): a bearer token with the `cart` scope.
import type { Context, Viewer } from '../../context.js';
import { requireScope } from '../../oauth/scopes.js';

export const CART_SCOPE = 'cart';

/** 401 with WWW-Authenticate without a viewer, 403 insufficient_scope without the `cart` scope. */
export function requireCartScope(ctx: Context): Viewer {
  return requireScope(ctx, CART_SCOPE);
}
