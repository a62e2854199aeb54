// Reads and writes of the `customers` collection, and the loader the bearer check uses for entitlements.
import { randomBytes } from 'node:crypto';
import { byIdLoader, type LoaderFactory } from '../loaders.js';
import { isDuplicateKey } from '../errors.js';
import type { Store } from '../store.js';
import {
  identityKey,
  normalizeEmail,
  type CustomerDoc,
  type CustomerIdentityDoc,
  type EntitlementDoc,
  type IdentityProvider,
} from './customer.doc.js';

const newCustomerId = (): string => `cus_${randomBytes(12).toString('base64url')}`;

export function findCustomerById(store: Store, id: string): Promise<CustomerDoc | null> {
  return store.collection('customers').findOne({ _id: id });
}

export function findCustomerByEmail(store: Store, email: string): Promise<CustomerDoc | null> {
  return store.collection('customers').findOne({ email: normalizeEmail(email) });
}

export function findCustomerByIdentity(
  store: Store,
  provider: IdentityProvider,
  subject: string,
): Promise<CustomerDoc | null> {
  return store.collection('customers').findOne({ identityKeys: identityKey(provider, subject) });
}

export interface NewCustomer {
  email?: string;
  emailVerified?: boolean;
  name?: string | null;
  passwordHash?: string;
  entitlements?: EntitlementDoc[];
  identities?: CustomerIdentityDoc[];
}

/** Inserts a customer; returns null when the e-mail (or identity) is already taken. */
export async function insertCustomer(store: Store, input: NewCustomer, now = new Date()): Promise<CustomerDoc | null> {
  const doc: CustomerDoc = {
    _id: newCustomerId(),
    ...(input.email ? { email: normalizeEmail(input.email) } : {}),
    emailVerified: input.emailVerified ?? false,
    name: input.name ?? null,
    ...(input.passwordHash ? { passwordHash: input.passwordHash } : {}),
    entitlements: input.entitlements ?? [],
    ...(input.identities?.length
      ? { identities: input.identities, identityKeys: input.identities.map((i) => identityKey(i.provider, i.subject)) }
      : {}),
    createdAt: now,
    updatedAt: now,
  };
  try {
    await store.collection('customers').insertOne(doc);
    return doc;
  } catch (err) {
    if (isDuplicateKey(err)) return null;
    throw err;
  }
}

/** Links a third-party identity to an existing customer; false when that identity belongs to someone else. */
export async function linkIdentity(store: Store, customerId: string, identity: CustomerIdentityDoc): Promise<boolean> {
  try {
    const res = await store.collection('customers').updateOne(
      { _id: customerId },
      {
        $push: { identities: identity, identityKeys: identityKey(identity.provider, identity.subject) },
        $set: { updatedAt: identity.linkedAt },
      },
    );
    return res.matchedCount === 1;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** Customers by id with only what the bearer check needs (entitlements). */
export const customerEntitlementsLoader: LoaderFactory<string, Pick<CustomerDoc, '_id' | 'entitlements'> | null> =
  byIdLoader(
    (store, ids) =>
      store
        .collection('customers')
        .find({ _id: { $in: [...ids] } }, { projection: { _id: 1, entitlements: 1 } })
        .toArray() as Promise<Array<Pick<CustomerDoc, '_id' | 'entitlements'>>>,
  );
