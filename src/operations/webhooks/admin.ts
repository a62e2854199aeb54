// Who may manage webhooks: a signed-in customer whose account carries the `admin` role, read on every call so
// that granting or revoking it (`npm run role`) takes effect at once.
import type { Context } from '../../context.js';
import { forbidden, unauthenticated } from '../../errors.js';
import { findCustomerById } from '../../store/customers/customers.store.js';
import type { Role } from '../../store/customers/roles.js';
import type { WebhookAdmin } from './endpoints.js';

const ADMIN_ROLE: Role = 'admin';

/** What the webhook use cases need, once the caller is known to be an administrator; 401 / 403 otherwise. */
export async function requireWebhookAdmin(ctx: Context): Promise<WebhookAdmin> {
  if (!ctx.viewer) throw unauthenticated('Managing webhooks needs a bearer token', 'invalid_token');
  const customer = await findCustomerById(ctx.store, ctx.viewer.customerId);
  if (!customer?.roles?.includes(ADMIN_ROLE)) throw forbidden('Only administrators may manage webhooks');
  return { store: ctx.store, config: ctx.config.webhooks, now: ctx.now };
}
