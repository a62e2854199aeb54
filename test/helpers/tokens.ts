// Real access tokens for tests: a customer (with optional entitlements), a first-party confidential client
// allowed the password and otp grants, and a token from POST /oauth2/access_token (password grant).
//   const { accessToken } = await tokenFor(svc, { scopes: ['openid', 'cart'], entitlements: [{ group: 'subscription' }] });
//   await fetch(url, { headers: { authorization: `Bearer ${accessToken}` } });
import { randomBytes } from 'node:crypto';
import { createClient, SUPPORTED_SCOPES } from '../../src/oauth/clients.js';
import { PasswordHasher } from '../../src/oauth/passwords.js';
import { normalizeEmail } from '../../src/store/customers/customer.doc.js';
import { findCustomerByEmail, insertCustomer } from '../../src/store/customers/customers.store.js';
import { findClient } from '../../src/store/oauth/clients.store.js';
import type { TestService } from './service.js';

export const TEST_CLIENT_ID = 'test-first-party';
export const TEST_CLIENT_SECRET = 'test-first-party-secret-0123456789abcdef';

export interface TokenRequest {
  /** Defaults to a fresh unique address. */
  email?: string;
  /** Defaults to a random password. */
  password?: string;
  /** Scopes to ask for; default `openid offline_access cart`. */
  scopes?: string[];
  /** Set on the customer (replacing earlier ones when the customer exists). */
  entitlements?: Array<{ group: string; validUntil?: Date | null }>;
}

export interface IssuedTokens {
  accessToken: string;
  /** Present when `offline_access` was asked for. */
  refreshToken?: string;
  idToken?: string;
  scope: string;
  expiresIn: number;
  customerId: string;
  email: string;
  password: string;
  clientId: string;
  clientSecret: string;
}

/** The first-party test client (password, otp, refresh_token; every scope), created once per database. */
export async function ensureTestClient(svc: TestService): Promise<{ clientId: string; clientSecret: string }> {
  if (!(await findClient(svc.store, TEST_CLIENT_ID))) {
    await createClient(svc.store, {
      clientId: TEST_CLIENT_ID,
      name: 'Test first-party app',
      kind: 'confidential',
      grantTypes: ['password', 'otp', 'refresh_token'],
      scopes: [...SUPPORTED_SCOPES],
      secret: TEST_CLIENT_SECRET,
    }).catch(async (err: unknown) => {
      // A parallel call created it first.
      if (!(await findClient(svc.store, TEST_CLIENT_ID))) throw err;
    });
  }
  return { clientId: TEST_CLIENT_ID, clientSecret: TEST_CLIENT_SECRET };
}

/** A customer with a password (and entitlements); an existing one with that e-mail gets them replaced. */
export async function ensureCustomer(
  svc: TestService,
  opts: { email?: string; password?: string; entitlements?: TokenRequest['entitlements']; name?: string } = {},
): Promise<{ customerId: string; email: string; password: string }> {
  const email = normalizeEmail(opts.email ?? `customer-${randomBytes(6).toString('hex')}@example.test`);
  const password = opts.password ?? `pw-${randomBytes(9).toString('base64url')}`;
  const passwordHash = await new PasswordHasher(svc.config.oauth.argon2).hash(password);
  const entitlements = (opts.entitlements ?? []).map((e) => ({ group: e.group, validUntil: e.validUntil ?? null }));
  const existing = await findCustomerByEmail(svc.store, email);
  if (existing) {
    await svc.store
      .collection('customers')
      .updateOne({ _id: existing._id }, { $set: { passwordHash, entitlements, updatedAt: new Date() } });
    return { customerId: existing._id, email, password };
  }
  const created = await insertCustomer(svc.store, {
    email,
    emailVerified: true,
    name: opts.name ?? 'Test Customer',
    passwordHash,
    entitlements,
  });
  if (!created) return ensureCustomer(svc, { ...opts, email, password });
  return { customerId: created._id, email, password };
}

/** A real token for a (new or given) customer through the password grant. */
export async function tokenFor(svc: TestService, req: TokenRequest = {}): Promise<IssuedTokens> {
  const { clientId, clientSecret } = await ensureTestClient(svc);
  const customer = await ensureCustomer(svc, req);
  const scopes = req.scopes ?? ['openid', 'offline_access', 'cart'];
  const res = await fetch(`${svc.url}/oauth2/access_token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'password',
      username: customer.email,
      password: customer.password,
      scope: scopes.join(' '),
    }),
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`tokenFor: token endpoint answered ${res.status} ${JSON.stringify(body)}`);
  return {
    accessToken: String(body.access_token),
    ...(typeof body.refresh_token === 'string' ? { refreshToken: body.refresh_token } : {}),
    ...(typeof body.id_token === 'string' ? { idToken: body.id_token } : {}),
    scope: String(body.scope ?? ''),
    expiresIn: Number(body.expires_in),
    customerId: customer.customerId,
    email: customer.email,
    password: customer.password,
    clientId,
    clientSecret,
  };
}

/** `Authorization` header for a token. */
export const bearer = (accessToken: string): Record<string, string> => ({ authorization: `Bearer ${accessToken}` });
