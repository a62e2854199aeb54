// Scope checks for operations (docs/api.md): no viewer is a 401, a viewer without the scope a 403.
import type { Context, Viewer } from '../context.js';
import { forbidden, unauthenticated } from '../errors.js';

/** The viewer when it holds `scope`; throws 401 (no token) or 403 (token without the scope). */
export function requireScope(ctx: Pick<Context, 'viewer'>, scope: string): Viewer {
  if (!ctx.viewer) throw unauthenticated('This operation needs a bearer token', null);
  if (!ctx.viewer.scopes.has(scope)) throw forbidden(`This operation needs the "${scope}" scope`, scope);
  return ctx.viewer;
}
