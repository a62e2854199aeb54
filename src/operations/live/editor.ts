// Who may post to live blogs: a signed-in customer whose account carries the `editor` role. The role
// lives on the customer document and is read on every write, so granting or revoking it takes effect at
// once, without waiting for tokens to expire (docs/live.md).
import type { Context } from '../../context.js';
import { forbidden, unauthenticated } from '../../errors.js';
import { findCustomerById } from '../../store/customers/customers.store.js';
import type { Role } from '../../store/customers/roles.js';

export const EDITOR_ROLE: Role = 'editor';

export interface Editor {
  customerId: string;
  name: string | null;
}

/**
 * The editor behind the request; 401 without a token, 403 for a customer without the role. `action` names what
 * was asked in the refusals ("post to live blogs").
 */
export async function requireEditor(ctx: Context, action = 'post to live blogs'): Promise<Editor> {
  if (!ctx.viewer) throw unauthenticated(`Only editors may ${action}: a bearer token is needed`, 'invalid_token');
  const customer = await findCustomerById(ctx.store, ctx.viewer.customerId);
  if (!customer?.roles?.includes(EDITOR_ROLE)) throw forbidden(`Only editors may ${action}`);
  return { customerId: customer._id, name: customer.name };
}
