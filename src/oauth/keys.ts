// The authorization server's keys: a private signing JWKS (ES256 for access tokens, RS256 for ID tokens,
// the OIDC default) and cookie keys. From the environment when set (fixed); otherwise generated on first
// start and kept in `settings`, so every process on the same store signs and verifies with the same keys.
//
// Rotation (`npm run oauth:keys -- rotate`) adds a new key pair that is published at once but signs only
// from its `activateAt` (a few poll periods later: every process has it in its JWKS by then), and gives
// the keys it replaces a `retireAt` one longest token lifetime after that; until then they stay published
// so tokens they signed still verify. Every process re-reads the keys on a poll (KeyWatcher) and rebuilds
// its provider when what it publishes or signs with changes.
import { createHash, createPublicKey, randomBytes, type JsonWebKey } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { isDuplicateKey } from '../store/errors.js';
import type { Store } from '../store/store.js';
import { SIGNING_ALGS as ALGS, takePrivateKey, type SigningAlg } from './key-pairs.js';
import { startPoll, type Poll } from './poll.js';

export interface OAuthKeys {
  /** Private JWKs of the published keys, the one each algorithm signs with first. */
  jwks: { keys: JWK[] };
  /** The same keys without private parts: what the bearer check verifies with, and what /jwks shows. */
  publicJwks: { keys: JWK[] };
  /** The key each algorithm signs with now (an OAUTH_JWKS from the environment may lack one). */
  activeKids: Partial<Record<SigningAlg, string>>;
  /** Changes whenever the published keys or the signing keys change. */
  version: string;
  cookieKeys: string[];
  /** HMAC key for one-time codes, derived from the first cookie key. */
  otpKey: Buffer;
  /** HMAC key for device tokens (sign-in-limits.ts), derived from the first cookie key. */
  deviceKey: Buffer;
}

export interface KeySchedule {
  /** Signs from then on (until a newer key of its algorithm activates). Absent: since the start. */
  activateAt?: Date;
  /** Unpublished from then on. */
  retireAt?: Date;
}

interface StoredKeys {
  jwks: { keys: JWK[] };
  cookieKeys: string[];
  /** Per kid; a key without an entry has signed since it was generated and is not retiring. */
  schedule?: Record<string, KeySchedule>;
}

export const KEYS_SETTING = 'oauth.keys';
/** ID tokens live an hour: with ACCESS_TOKEN_TTL, what a replaced signing key must stay published for. */
export const ID_TOKEN_TTL_SECONDS = 3_600;
async function signingKey(alg: SigningAlg): Promise<JWK> {
  const privateKey = await takePrivateKey(alg);
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  return { ...jwk, alg, use: 'sig', kid: await calculateJwkThumbprint(jwk) };
}

export async function generateKeys(): Promise<StoredKeys> {
  return {
    jwks: { keys: await Promise.all(ALGS.map(signingKey)) },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}

function toPublicJwk(jwk: JWK): JWK {
  const pub = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  return { ...(pub.export({ format: 'jwk' }) as JWK), kid: jwk.kid, alg: jwk.alg, use: jwk.use ?? 'sig' };
}

export type KeyState = 'pending' | 'active' | 'previous' | 'retired';

/** Where a key stands at `now`: not signing yet, signing, still published after a newer one took over, gone. */
export function keyStates(
  stored: StoredKeys,
  now = new Date(),
): Array<{ jwk: JWK; state: KeyState; schedule: KeySchedule }> {
  const at = (d: Date | undefined, fallback: number) => (d ? new Date(d).getTime() : fallback);
  const entries = stored.jwks.keys.map((jwk) => ({ jwk, schedule: stored.schedule?.[jwk.kid!] ?? {} }));
  const active = new Map<string, string>();
  for (const alg of ALGS) {
    const candidates = entries
      .filter(
        (e) =>
          e.jwk.alg === alg &&
          at(e.schedule.activateAt, 0) <= now.getTime() &&
          at(e.schedule.retireAt, Infinity) > now.getTime(),
      )
      .sort((a, b) => at(b.schedule.activateAt, 0) - at(a.schedule.activateAt, 0));
    if (candidates[0]) active.set(alg, candidates[0].jwk.kid!);
  }
  return entries.map((e) => {
    const state: KeyState =
      at(e.schedule.retireAt, Infinity) <= now.getTime()
        ? 'retired'
        : active.get(e.jwk.alg!) === e.jwk.kid
          ? 'active'
          : at(e.schedule.activateAt, 0) > now.getTime()
            ? 'pending'
            : 'previous';
    return { ...e, state };
  });
}

/** The keys as the service uses them at `now`. */
function keysAt(stored: StoredKeys, now = new Date()): OAuthKeys {
  const states = keyStates(stored, now).filter((s) => s.state !== 'retired');
  // The signing key of each algorithm first: the provider signs ID tokens with the first key that fits.
  const rank = (s: KeyState) => (s === 'active' ? 0 : 1);
  const published = states.sort((a, b) => rank(a.state) - rank(b.state)).map((s) => s.jwk);
  const activeKids: Partial<Record<SigningAlg, string>> = {};
  for (const s of states) if (s.state === 'active') activeKids[s.jwk.alg as SigningAlg] = s.jwk.kid!;
  return {
    jwks: { keys: published },
    publicJwks: { keys: published.map(toPublicJwk) },
    activeKids,
    version: `${published.map((k) => k.kid).join(',')}|${ALGS.map((a) => activeKids[a] ?? '').join(',')}`,
    cookieKeys: stored.cookieKeys,
    otpKey: createHash('sha256').update(`otp:${stored.cookieKeys[0]}`).digest(),
    deviceKey: createHash('sha256').update(`device:${stored.cookieKeys[0]}`).digest(),
  };
}

/** True when the keys come from the environment (fixed: no rotation through the store). */
export const keysFromEnvironment = (config: Config): boolean => Boolean(config.oauth.jwks && config.oauth.cookieKeys);

/** Loads the keys: environment first, then the store; generates and stores them when neither has any. */
export async function loadKeys(config: Config, store: Store, log: Logger): Promise<OAuthKeys> {
  if (keysFromEnvironment(config)) {
    return keysAt({ jwks: JSON.parse(config.oauth.jwks!) as StoredKeys['jwks'], cookieKeys: config.oauth.cookieKeys! });
  }
  if (config.isProduction)
    log.warn('OAUTH_JWKS / OAUTH_COOKIE_KEYS are not set: using signing and cookie keys kept in the store');
  return keysAt(await storedKeys(store, log));
}

/** The stored keys, generated on first use (a second process racing the first uses the winner's). */
export async function storedKeys(store: Store, log?: Logger): Promise<StoredKeys> {
  return (await storedKeysDoc(store, log)).value;
}

async function storedKeysDoc(store: Store, log?: Logger): Promise<{ value: StoredKeys; updatedAt: Date }> {
  const settings = store.collection('settings');
  const existing = await settings.findOne({ _id: KEYS_SETTING });
  if (existing) return { value: existing.value as StoredKeys, updatedAt: existing.updatedAt };
  const fresh = { value: await generateKeys(), updatedAt: new Date() };
  try {
    await settings.insertOne({ _id: KEYS_SETTING, ...fresh });
    log?.info(
      { kids: fresh.value.jwks.keys.map((k) => k.kid) },
      'oauth: generated signing and cookie keys (kept in the store)',
    );
    return fresh;
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const winner = await settings.findOne({ _id: KEYS_SETTING });
    return { value: winner!.value as StoredKeys, updatedAt: winner!.updatedAt };
  }
}

/** Replaces the stored keys unless someone changed them since they were read (`updatedAt`); false then. */
async function replaceStored(store: Store, seen: { updatedAt: Date }, next: StoredKeys): Promise<boolean> {
  const updatedAt = new Date(Math.max(Date.now(), seen.updatedAt.getTime() + 1));
  const res = await store
    .collection('settings')
    .replaceOne({ _id: KEYS_SETTING, updatedAt: seen.updatedAt }, { value: next, updatedAt });
  return res.modifiedCount === 1;
}

export interface RotationTimes {
  /** Seconds until the new keys sign: a few of the services' poll periods, so every process publishes them first. */
  activateInSeconds: number;
  /** Seconds the replaced keys stay published after that: the longest lifetime of a token they signed. */
  retireAfterSeconds: number;
}

/** Adds a new ES256 and RS256 key; the keys they replace retire one token lifetime after they activate. */
export async function rotateKeys(
  store: Store,
  times: RotationTimes,
  now = new Date(),
): Promise<Array<{ kid: string; alg: string; activateAt: Date }>> {
  const fresh = await Promise.all(ALGS.map(signingKey));
  const activateAt = new Date(now.getTime() + times.activateInSeconds * 1000);
  const retireAt = new Date(activateAt.getTime() + times.retireAfterSeconds * 1000);
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await storedKeysDoc(store);
    const seen = doc.value;
    const schedule: Record<string, KeySchedule> = { ...seen.schedule };
    for (const { jwk, state } of keyStates(seen, now)) {
      if (state === 'active' || state === 'previous')
        schedule[jwk.kid!] = { ...schedule[jwk.kid!], retireAt: minDate(schedule[jwk.kid!]?.retireAt, retireAt) };
    }
    for (const jwk of fresh) schedule[jwk.kid!] = { activateAt };
    // A key still pending from an earlier rotation is replaced by this one: it never signed.
    const keep = keyStates(seen, now).filter((s) => s.state !== 'pending' && s.state !== 'retired');
    for (const s of keyStates(seen, now))
      if (s.state === 'pending' || s.state === 'retired') delete schedule[s.jwk.kid!];
    const next: StoredKeys = { ...seen, jwks: { keys: [...keep.map((s) => s.jwk), ...fresh] }, schedule };
    if (await replaceStored(store, doc, next)) return fresh.map((k) => ({ kid: k.kid!, alg: k.alg!, activateAt }));
  }
  throw new Error('oauth keys: the stored keys kept changing while rotating; try again');
}

/** Removes the keys whose retirement time has passed from the store; returns their kids. */
export async function pruneRetiredKeys(store: Store, now = new Date()): Promise<string[]> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await storedKeysDoc(store);
    const seen = doc.value;
    const retired = keyStates(seen, now)
      .filter((s) => s.state === 'retired')
      .map((s) => s.jwk.kid!);
    if (retired.length === 0) return [];
    const schedule = { ...seen.schedule };
    for (const kid of retired) delete schedule[kid];
    const next: StoredKeys = {
      ...seen,
      jwks: { keys: seen.jwks.keys.filter((k) => !retired.includes(k.kid!)) },
      schedule,
    };
    if (await replaceStored(store, doc, next)) return retired;
  }
  throw new Error('oauth keys: the stored keys kept changing while pruning; try again');
}

const minDate = (a: Date | undefined, b: Date): Date => (a && new Date(a).getTime() < b.getTime() ? new Date(a) : b);

/**
 * Re-reads the stored keys every `periodMs` and reports when what this process should publish or sign
 * with has changed (a new key, an activation time passed, a retirement). Keys from the environment are
 * fixed and never watched.
 */
export class KeyWatcher {
  private poll: Poll | undefined;

  constructor(
    private readonly store: Store,
    private readonly periodMs: number,
    private readonly log: Logger,
  ) {}

  start(current: OAuthKeys, onChange: (keys: OAuthKeys) => Promise<void>): void {
    let version = current.version;
    this.poll = startPoll(
      this.periodMs,
      async () => {
        const keys = keysAt(await storedKeys(this.store));
        if (keys.version === version) return;
        await onChange(keys);
        version = keys.version;
        this.log.info(
          { signing: keys.activeKids, published: keys.jwks.keys.map((k) => k.kid) },
          'oauth: signing keys changed',
        );
      },
      { log: this.log, message: 'oauth: could not reload the signing keys; retrying' },
    );
  }

  stop(): void {
    this.poll?.stop();
  }
}
