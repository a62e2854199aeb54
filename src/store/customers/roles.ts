// Staff roles on customer accounts: which exist, and granting or revoking one by e-mail address. The role is
// read on every write that needs it, so a change takes effect at once, without waiting for tokens to expire.
import type { Store } from '../store.js';
import { findCustomerByEmail } from './customers.store.js';

/** Every role a customer may hold; `editor` posts to live blogs, `admin` manages webhook endpoints. */
export const ROLES = ['editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A grant or revocation that cannot be done: an unknown role or customer. */
export class RoleError extends Error {}

const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export interface RoleChange {
  customerId: string;
  email: string;
  roles: string[];
  /** False when the customer already had (grant) or lacked (revoke) the role. */
  changed: boolean;
}

export async function changeRole(
  store: Store,
  action: 'grant' | 'revoke',
  role: string,
  email: string,
  now = new Date(),
): Promise<RoleChange> {
  if (!isRole(role)) throw new RoleError(`unknown role "${role}" (known: ${ROLES.join(', ')})`);
  const customer = await findCustomerByEmail(store, email);
  if (!customer?.email) throw new RoleError(`no customer with the e-mail address ${email}`);
  const update = action === 'grant' ? { $addToSet: { roles: role } } : { $pull: { roles: role } };
  const after = await store
    .collection('customers')
    .findOneAndUpdate({ _id: customer._id }, { ...update, $set: { updatedAt: now } }, { returnDocument: 'after' });
  const roles = after?.roles ?? [];
  return {
    customerId: customer._id,
    email: customer.email,
    roles,
    changed: (customer.roles ?? []).includes(role) !== roles.includes(role),
  };
}
