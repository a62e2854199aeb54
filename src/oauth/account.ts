// The provider's account lookup: a customer by id, and the claims it releases per scope
// (`openid` -> sub, `profile` -> name, `email` -> email, email_verified).
import type { Account } from 'oidc-provider';
import type { CustomerDoc } from '../store/customers/customer.doc.js';
import { findCustomerById } from '../store/customers/customers.store.js';
import type { Store } from '../store/store.js';

export const CLAIMS = {
  openid: ['sub'],
  profile: ['name'],
  email: ['email', 'email_verified'],
};

export function toAccount(customer: CustomerDoc): Account {
  return {
    accountId: customer._id,
    claims: () => ({
      sub: customer._id,
      name: customer.name ?? undefined,
      email: customer.email,
      email_verified: customer.email ? customer.emailVerified : undefined,
    }),
  };
}

export function accountFinder(store: Store) {
  return async (_ctx: unknown, sub: string): Promise<Account | undefined> => {
    const customer = await findCustomerById(store, sub);
    return customer ? toAccount(customer) : undefined;
  };
}
