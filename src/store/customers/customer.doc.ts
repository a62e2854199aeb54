// Stored shape of customers (collection `customers`): sign-in credentials, entitlements and linked
// third-party identities. The API never sees this type; the OAuth module maps it to claims and viewers.
import type { IndexDef } from '../index-def.js';

export type IdentityProvider = 'google' | 'facebook' | 'apple';

export interface CustomerIdentityDoc {
  provider: IdentityProvider;
  /** The provider's `sub` for this person. */
  subject: string;
  email: string | null;
  linkedAt: Date;
}

export interface EntitlementDoc {
  /** An access group, e.g. `subscription` (named by a product item's "action data on purchase"). */
  group: string;
  /** Null: does not expire. */
  validUntil: Date | null;
}

export interface CustomerDoc {
  _id: string;
  /** Trimmed and lower-cased; unique. Absent for a third-party account whose e-mail was not verified. */
  email?: string;
  emailVerified: boolean;
  name: string | null;
  /** Argon2id PHC string; absent for accounts that only sign in with a code or a third party. */
  passwordHash?: string;
  entitlements: EntitlementDoc[];
  /** Absent (not empty) when none is linked. */
  identities?: CustomerIdentityDoc[];
  /**
   * `provider:subject` of each identity, the unique lookup key: a compound index over
   * `identities.provider` and `identities.subject` would pair every provider with every subject of a
   * document. Absent when none is linked, so the sparse index skips the document.
   */
  identityKeys?: string[];
  /** Staff roles, e.g. `editor` (may post to live blogs); absent for ordinary customers. */
  roles?: string[];
  createdAt: Date;
  updatedAt: Date;
}

declare module '../collections.js' {
  interface CollectionTypes {
    customers: CustomerDoc;
  }
}

export const customerIndexes: IndexDef[] = [
  {
    collection: 'customers',
    key: { email: 1 },
    options: { name: 'customers_email_unique', unique: true, sparse: true },
  },
  {
    collection: 'customers',
    key: { identityKeys: 1 },
    options: { name: 'customers_identity_keys_unique', unique: true, sparse: true },
  },
];

export const identityKey = (provider: IdentityProvider, subject: string): string => `${provider}:${subject}`;

/** The one normal form of an e-mail address used as a key. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
