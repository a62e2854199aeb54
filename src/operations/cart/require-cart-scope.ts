// The cart operations' access rule (CONTRACT.md §3): a bearer token with the `cart` scope.
// TODO(oauth): switch to requireScope from src/oauth/scopes.ts once it lands; same statuses and headers.
import type { Context, Viewer } from '../../context.js';
import { forbidden, unauthenticated } from '../../errors.js';

export const CART_SCOPE = 'cart';

/** 401 with WWW-Authenticate without a viewer, 403 insufficient_scope without the `cart` scope. */
export function requireCartScope(ctx: Context): Viewer {
  if (!ctx.viewer) throw unauthenticated('A bearer token with the cart scope is required');
  if (!ctx.viewer.scopes.has(CART_SCOPE)) throw forbidden('The token was not granted the cart scope', CART_SCOPE);
  return ctx.viewer;
}
