// Third-party sign-in through the password grant (CONTRACT.md §4.4): `username` names the provider and
// `password` is `{"token","source","name"}` whose token is the provider's signed ID token. The token is
// verified with jose against that provider's configured issuer, audience(s) and JWKS; the customer is
// found by the provider's subject, else linked by a verified e-mail, else created.
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Config, ThirdPartyProvider } from '../config.js';
import type { Logger } from '../logger.js';
import type { CustomerDoc, CustomerIdentityDoc } from '../store/customers/customer.doc.js';
import { normalizeEmail } from '../store/customers/customer.doc.js';
import { findCustomerByEmail, findCustomerByIdentity, insertCustomer, linkIdentity } from '../store/customers/customers.store.js';
import type { Store } from '../store/store.js';

export const THIRD_PARTY_PROVIDERS: readonly ThirdPartyProvider[] = ['google', 'facebook', 'apple'];

export const isThirdParty = (username: string): username is ThirdPartyProvider =>
  (THIRD_PARTY_PROVIDERS as readonly string[]).includes(username);

export interface ThirdPartyCredential {
  token: string;
  source?: string;
  name?: string;
}

/** The `password` field's JSON, or null when it is not that shape. */
export function parseThirdPartyPassword(password: string): ThirdPartyCredential | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(password);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { token, source, name } = parsed as Record<string, unknown>;
  if (typeof token !== 'string' || token.length === 0 || token.length > 16_384) return null;
  return {
    token,
    ...(typeof source === 'string' ? { source } : {}),
    ...(typeof name === 'string' && name.trim() ? { name: name.trim().slice(0, 200) } : {}),
  };
}

interface VerifiedIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export class ThirdPartySignIn {
  private readonly keySets = new Map<ThirdPartyProvider, ReturnType<typeof createRemoteJWKSet>>();

  constructor(
    private readonly store: Store,
    private readonly providers: Config['oauth']['thirdParty'],
    private readonly log: Logger,
  ) {}

  /** Verifies the ID token; null when it is not valid for that provider (or the provider is not configured). */
  async verify(provider: ThirdPartyProvider, token: string): Promise<VerifiedIdentity | null> {
    const settings = this.providers[provider];
    if (!settings) return null;
    let keySet = this.keySets.get(provider);
    if (!keySet) {
      keySet = createRemoteJWKSet(new URL(settings.jwksUri), { timeoutDuration: 5_000 });
      this.keySets.set(provider, keySet);
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keySet, { issuer: settings.issuer, audience: settings.audiences, algorithms: ['RS256', 'ES256'] }));
    } catch (err) {
      // A bad token is the caller's problem; an unreachable JWKS is ours, and worth a log line.
      if (!(err instanceof joseErrors.JOSEError) || err instanceof joseErrors.JWKSTimeout) {
        this.log.warn({ err, provider }, 'third-party sign-in: could not verify the ID token');
      }
      return null;
    }
    if (typeof payload.sub !== 'string' || !payload.sub) return null;
    const email = typeof payload.email === 'string' ? normalizeEmail(payload.email) : null;
    // Apple sends "true" as a string; Facebook sends no such claim (its e-mails count as unverified).
    const emailVerified = payload.email_verified === true || payload.email_verified === 'true';
    return { subject: payload.sub, email, emailVerified: email !== null && emailVerified, name: typeof payload.name === 'string' ? payload.name : null };
  }

  /** The customer for a verified identity: by subject, else by verified e-mail (and linked), else new. */
  async customerFor(provider: ThirdPartyProvider, identity: VerifiedIdentity, displayName?: string): Promise<CustomerDoc> {
    const link: CustomerIdentityDoc = { provider, subject: identity.subject, email: identity.email, linkedAt: new Date() };
    for (let attempt = 0; attempt < 3; attempt++) {
      const known = await findCustomerByIdentity(this.store, provider, identity.subject);
      if (known) return known;
      if (identity.email && identity.emailVerified) {
        const sameEmail = await findCustomerByEmail(this.store, identity.email);
        if (sameEmail && (await linkIdentity(this.store, sameEmail._id, link))) return { ...sameEmail, identities: [...(sameEmail.identities ?? []), link] };
        if (sameEmail) continue; // someone linked this identity concurrently: look again
      }
      const created = await insertCustomer(this.store, {
        ...(identity.emailVerified && identity.email ? { email: identity.email, emailVerified: true } : {}),
        name: identity.name ?? displayName ?? null,
        identities: [link],
      });
      if (created) return created;
      // Lost a race on the e-mail or the identity: the next round finds the winner.
    }
    throw new Error('third-party sign-in: could not settle the customer for an identity');
  }
}
