// The authorization server's keys: a private signing JWKS (ES256 for access tokens, RS256 for ID tokens,
// the OIDC default) and cookie keys. From the environment when set; otherwise generated on first start
// and kept in `settings`, so every process on the same store signs and verifies with the same keys.
import { createHash, createPublicKey, generateKeyPair, randomBytes, type JsonWebKey } from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { isDuplicateKey } from '../store/errors.js';
import type { Store } from '../store/store.js';

export interface OAuthKeys {
  /** Private JWKs, handed to the provider. */
  jwks: { keys: JWK[] };
  /** The same keys without private parts: what the bearer check verifies with. */
  publicJwks: { keys: JWK[] };
  cookieKeys: string[];
  /** HMAC key for one-time codes, derived from the first cookie key. */
  otpKey: Buffer;
  /** HMAC key for device tokens (sign-in-limits.ts), derived from the first cookie key. */
  deviceKey: Buffer;
}

interface StoredKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
}

const SETTING = 'oauth.keys';
const generate = promisify(generateKeyPair);

async function signingKey(alg: 'ES256' | 'RS256'): Promise<JWK> {
  const { privateKey } =
    alg === 'ES256' ? await generate('ec', { namedCurve: 'P-256' }) : await generate('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { ...jwk, alg, use: 'sig', kid: await calculateJwkThumbprint(jwk) };
}

async function generateKeys(): Promise<StoredKeys> {
  return {
    jwks: { keys: [await signingKey('ES256'), await signingKey('RS256')] },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

export function toPublicJwk(jwk: JWK): JWK {
  const pub = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  return { ...(pub.export({ format: 'jwk' }) as JWK), kid: jwk.kid, alg: jwk.alg, use: jwk.use ?? 'sig' };
}

function complete(stored: StoredKeys): OAuthKeys {
  return {
    jwks: stored.jwks,
    publicJwks: { keys: stored.jwks.keys.map(toPublicJwk) },
    cookieKeys: stored.cookieKeys,
    otpKey: createHash('sha256').update(`otp:${stored.cookieKeys[0]}`).digest(),
    deviceKey: createHash('sha256').update(`device:${stored.cookieKeys[0]}`).digest(),
  };
}

/** Loads the keys: environment first, then the store; generates and stores them when neither has any. */
export async function loadKeys(config: Config, store: Store, log: Logger): Promise<OAuthKeys> {
  const fromEnv = config.oauth.jwks && config.oauth.cookieKeys;
  if (fromEnv) {
    return complete({ jwks: JSON.parse(config.oauth.jwks!) as StoredKeys['jwks'], cookieKeys: config.oauth.cookieKeys! });
  }
  if (config.isProduction) log.warn('OAUTH_JWKS / OAUTH_COOKIE_KEYS are not set: using signing and cookie keys kept in the store');
  const settings = store.collection('settings');
  const existing = await settings.findOne({ _id: SETTING });
  if (existing) return complete(existing.value as StoredKeys);
  const fresh = await generateKeys();
  try {
    await settings.insertOne({ _id: SETTING, value: fresh, updatedAt: new Date() });
    log.info({ kids: fresh.jwks.keys.map((k) => k.kid) }, 'oauth: generated signing and cookie keys (kept in the store)');
    return complete(fresh);
  } catch (err) {
    // Another process generated them first: use theirs.
    if (!isDuplicateKey(err)) throw err;
    const winner = await settings.findOne({ _id: SETTING });
    return complete(winner!.value as StoredKeys);
  }
}
