// Third-party sign-in through the password grant (docs/api.md): `username` names the provider and
// `password` is `{"token","source","name"}` whose token is the provider's signed ID token. The token is
// verified with jose against that provider's configured issuer, audience(s) and JWKS; the customer is
// found by the provider's subject, else linked by a verified e-mail, else created.
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Config, ThirdPartyProvider } from '../config.js';
import type { Logger } from '../logger.js';
import type { CustomerDoc, CustomerIdentityDoc } from '../store/customers/customer.doc.js';
import { normalizeEmail } from '../store/customers/customer.doc.js';
import {
  findCustomerByEmail,
  findCustomerByIdentity,
  insertCustomer,
  linkIdentity,
} from '../store/customers/customers.store.js';
import type { Store } from '../store/store.js';

export const THIRD_PARTY_PROVIDERS: readonly ThirdPartyProvider[] = ['google', 'facebook', 'apple'];

export const isThirdParty = (username: string): username is ThirdPartyProvider =>
  (THIRD_PARTY_PROVIDERS as readonly string[]).includes(username);

export interface ThirdPartyCredential {
  token: string;
  source?: string;
  name?: string;
  /** Proof of the existing password account the identity is to be linked to: its password ... */
  accountPassword?: string;
  /** ... or a one-time code sent to its address. */
  code?: string;
}

/**
 * Linking a provider identity to an existing password account needs one proof that the caller holds
 * that account: its password or a one-time code. `missing`: none was sent; `wrong`: it did not match
 * (counted like any failed sign-in); `throttled`: too many failures.
 */
export type LinkProof = (customer: CustomerDoc) => Promise<'ok' | 'missing' | 'wrong' | { retryAfter: number }>;

export class LinkRefused extends Error {
  constructor(readonly reason: 'missing' | 'wrong' | { retryAfter: number }) {
    super('third-party sign-in: linking to a password account needs its password or a one-time code');
  }
}

/** The `password` field's JSON, or null when it is not that shape. */
export function parseThirdPartyPassword(field: string): ThirdPartyCredential | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(field);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { token, source, name, password, code } = parsed as Record<string, unknown>;
  if (typeof token !== 'string' || token.length === 0 || token.length > 16_384) return null;
  return {
    token,
    ...(typeof source === 'string' ? { source } : {}),
    ...(typeof name === 'string' && name.trim() ? { name: name.trim().slice(0, 200) } : {}),
    ...(typeof password === 'string' && password && password.length <= 1024 ? { accountPassword: password } : {}),
    ...(typeof code === 'string' && code && code.length <= 16 ? { code } : {}),
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
      ({ payload } = await jwtVerify(token, keySet, {
        issuer: settings.issuer,
        audience: settings.audiences,
        algorithms: ['RS256', 'ES256'],
      }));
    } catch (err) {
      // A bad token is the caller's problem; an unreachable JWKS is ours, and worth a log line.
      if (!(err instanceof joseErrors.JOSEError) || err instanceof joseErrors.JWKSTimeout) {
        this.log.warn({ err, provider }, 'third-party sign-in: could not verify the ID token');
      }
      return null;
    }
    if (typeof payload.sub !== 'string' || !payload.sub) return null;
    const email = typeof payload.email === 'string' ? normalizeEmail(payload.email) : null;
    // Apple sends "true" as a string (only Apple: from anyone else a string is not a boolean); Facebook
    // sends no such claim (its e-mails count as unverified).
    const emailVerified =
      payload.email_verified === true || (provider === 'apple' && payload.email_verified === 'true');
    return {
      subject: payload.sub,
      email,
      emailVerified: email !== null && emailVerified,
      name: typeof payload.name === 'string' ? payload.name : null,
    };
  }

  /**
   * The customer for a verified identity: by subject, else by verified e-mail (and linked; an account
   * with a password only after `prove` says the caller holds it, else LinkRefused), else new.
   */
  async customerFor(
    provider: ThirdPartyProvider,
    identity: VerifiedIdentity,
    displayName: string | undefined,
    prove: LinkProof,
  ): Promise<CustomerDoc> {
    const link: CustomerIdentityDoc = {
      provider,
      subject: identity.subject,
      email: identity.email,
      linkedAt: new Date(),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      const known = await findCustomerByIdentity(this.store, provider, identity.subject);
      if (known) return known;
      if (identity.email && identity.emailVerified) {
        const sameEmail = await findCustomerByEmail(this.store, identity.email);
        if (sameEmail?.passwordHash) {
          const proof = await prove(sameEmail);
          if (proof !== 'ok') throw new LinkRefused(proof);
        }
        if (sameEmail && (await linkIdentity(this.store, sameEmail._id, link)))
          return { ...sameEmail, identities: [...(sameEmail.identities ?? []), link] };
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
