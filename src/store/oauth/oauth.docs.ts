// Stored shapes of the authorization server's data: provider models (`oauth_models`), registered clients
// (`clients`), one-time codes (`otp_codes`) and failed-login counters (`login_failures`), with their indexes.
import type { IndexDef } from '../index-def.js';
import type { RateLimitDoc } from '../rate-limit.doc.js';

/** One oidc-provider model instance (Session, Grant, AuthorizationCode, RefreshToken, Interaction, ...). */
export interface OAuthModelDoc {
  /** `${model}:${id}`: ids are only unique within a model. */
  _id: string;
  model: string;
  /** The provider's payload as JSON text: its keys are the provider's (client ids with dots, `x5t#S256`). */
  payload: string;
  /** Copied out of the payload for revokeByGrantId / findByUid / findByUserCode. */
  grantId?: string;
  uid?: string;
  userCode?: string;
  /** Drives the TTL index; absent for models stored without an expiry. */
  expiresAt?: Date;
  /** Set by the first consume. */
  consumedAt?: Date;
  /** Refresh tokens: the rotation that replaced this one (set once, atomically: a chain never forks). */
  successorId?: string;
}

/**
 * A revoked grant or access token (by `jti`), kept until every access token it could concern has
 * expired. Every gateway process polls this collection into an in-memory set (src/oauth/revocations.ts).
 */
export interface RevocationDoc {
  /** `grant:<grantId>` or `token:<jti>`. */
  _id: string;
  kind: 'grant' | 'token';
  value: string;
  /** When it was revoked (the writer's clock); the poll reads by it with an overlap. */
  at: Date;
  /** TTL: `at` plus the longest access-token lifetime. */
  expiresAt: Date;
}

export type ClientKind = 'public' | 'confidential';

export interface ClientDoc {
  /** The client_id. */
  _id: string;
  name: string;
  kind: ClientKind;
  /** SHA-256 (hex) of the generated secret; the secret itself is shown once, at creation. */
  secretHash?: string;
  redirectUris: string[];
  grantTypes: string[];
  scopes: string[];
  /** First-party clients may be registered for the password and otp grants. */
  firstParty: boolean;
  createdAt: Date;
}

export interface OtpCodeDoc {
  /** Random: an address may have several live codes, and a new request never replaces one. */
  _id: string;
  /** The normalised e-mail. */
  email: string;
  clientId: string;
  /** HMAC-SHA256 of the code keyed with the server's OTP key and a per-code salt. */
  codeHash: string;
  salt: string;
  /** Attempts per client (a hash of its IP): other people's guesses do not use up the owner's. */
  attempts: Record<string, number>;
  expiresAt: Date;
  createdAt: Date;
}

declare module '../collections.js' {
  interface CollectionTypes {
    oauth_models: OAuthModelDoc;
    clients: ClientDoc;
    otp_codes: OtpCodeDoc;
    login_failures: RateLimitDoc;
    oauth_revocations: RevocationDoc;
  }
}

export const oauthIndexes: IndexDef[] = [
  { collection: 'oauth_models', key: { expiresAt: 1 }, options: { name: 'oauth_models_ttl', expireAfterSeconds: 0 } },
  { collection: 'oauth_models', key: { grantId: 1 }, options: { name: 'oauth_models_grant', sparse: true } },
  { collection: 'oauth_models', key: { uid: 1 }, options: { name: 'oauth_models_uid', sparse: true } },
  { collection: 'oauth_models', key: { userCode: 1 }, options: { name: 'oauth_models_user_code', sparse: true } },
  { collection: 'otp_codes', key: { expiresAt: 1 }, options: { name: 'otp_codes_ttl', expireAfterSeconds: 0 } },
  { collection: 'otp_codes', key: { email: 1, createdAt: -1 }, options: { name: 'otp_codes_email' } },
  { collection: 'oauth_revocations', key: { at: 1 }, options: { name: 'oauth_revocations_at' } },
  {
    collection: 'oauth_revocations',
    key: { expiresAt: 1 },
    options: { name: 'oauth_revocations_ttl', expireAfterSeconds: 0 },
  },
  { collection: 'login_failures', key: { key: 1 }, options: { name: 'login_failures_key', unique: true } },
  { collection: 'login_failures', key: { expire: -1 }, options: { name: 'login_failures_ttl', expireAfterSeconds: 0 } },
];
