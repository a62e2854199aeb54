// Registered clients: creating them (CLI, demo seed), presenting a stored client to the provider, and
// checking secrets. Secrets are 256-bit random values shown once; only their SHA-256 is stored, which is
// enough for values that cannot be guessed (argon2 is for human passwords).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ClientMetadata } from 'oidc-provider';
import { insertClient } from '../store/oauth/clients.store.js';
import type { ClientDoc, ClientKind } from '../store/oauth/oauth.docs.js';
import type { Store } from '../store/store.js';

export const SUPPORTED_SCOPES = ['openid', 'offline_access', 'profile', 'email', 'cart', 'developer'] as const;
/**
 * Lets a token run any GraphQL document when only registered ones run (TRUSTED_DOCUMENTS=enforce): for the
 * clients of developer tools, named at registration, never given by default.
 */
export const DEVELOPER_SCOPE = 'developer';
/** What a client is registered with unless told otherwise: every scope but `developer`. */
export const DEFAULT_SCOPES = SUPPORTED_SCOPES.filter((s) => s !== DEVELOPER_SCOPE);
export const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token', 'password', 'otp'] as const;
/** Grants only first-party clients may hold: they hand the user's credentials to the client. */
const FIRST_PARTY_GRANTS = new Set(['password', 'otp']);

const CLIENT_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

const hashClientSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

export function secretMatches(storedHash: string | undefined, presented: string): boolean {
  if (!storedHash) return false;
  const a = Buffer.from(hashClientSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the provider sees for a stored client. The "secret" it holds is the hash (see secretMatches). */
export function toClientMetadata(doc: ClientDoc): ClientMetadata {
  return {
    client_id: doc._id,
    client_name: doc.name,
    ...(doc.kind === 'confidential'
      ? { client_secret: doc.secretHash, token_endpoint_auth_method: 'client_secret_basic' }
      : { token_endpoint_auth_method: 'none' }),
    redirect_uris: doc.redirectUris,
    // RP-initiated logout may return to any of the client's redirect URIs.
    post_logout_redirect_uris: doc.redirectUris,
    grant_types: doc.grantTypes,
    response_types: doc.grantTypes.includes('authorization_code') ? ['code'] : [],
    scope: doc.scopes.join(' '),
  };
}

export interface NewClient {
  clientId?: string;
  name: string;
  kind: ClientKind;
  redirectUris?: string[];
  grantTypes: string[];
  scopes?: string[];
  /** Fixed secret (demo data only); otherwise one is generated. */
  secret?: string;
}

export class ClientInputError extends Error {}

/** Validates and stores a client; returns it with its secret (confidential clients), shown only now. */
export async function createClient(store: Store, input: NewClient): Promise<{ client: ClientDoc; secret?: string }> {
  const clientId = input.clientId ?? `cl_${randomBytes(9).toString('base64url')}`;
  if (!CLIENT_ID.test(clientId)) throw new ClientInputError('client id: 1-64 characters of [A-Za-z0-9_.:-]');
  const unknownGrant = input.grantTypes.find((g) => !(SUPPORTED_GRANTS as readonly string[]).includes(g));
  if (unknownGrant)
    throw new ClientInputError(`unknown grant type "${unknownGrant}" (supported: ${SUPPORTED_GRANTS.join(', ')})`);
  const scopes = input.scopes ?? [...DEFAULT_SCOPES];
  const unknownScope = scopes.find((s) => !(SUPPORTED_SCOPES as readonly string[]).includes(s));
  if (unknownScope)
    throw new ClientInputError(`unknown scope "${unknownScope}" (supported: ${SUPPORTED_SCOPES.join(', ')})`);
  const redirectUris = input.redirectUris ?? [];
  if (input.grantTypes.includes('authorization_code') && redirectUris.length === 0) {
    throw new ClientInputError('the authorization_code grant needs at least one redirect URI');
  }
  for (const uri of redirectUris) if (!URL.canParse(uri)) throw new ClientInputError(`not an absolute URI: ${uri}`);
  const firstParty = input.grantTypes.some((g) => FIRST_PARTY_GRANTS.has(g));
  const secret = input.kind === 'confidential' ? (input.secret ?? randomBytes(32).toString('base64url')) : undefined;
  const client: ClientDoc = {
    _id: clientId,
    name: input.name,
    kind: input.kind,
    ...(secret ? { secretHash: hashClientSecret(secret) } : {}),
    redirectUris,
    grantTypes: input.grantTypes,
    scopes,
    firstParty,
    createdAt: new Date(),
  };
  if (!(await insertClient(store, client))) throw new ClientInputError(`client id "${clientId}" is taken`);
  return { client, ...(secret ? { secret } : {}) };
}
