// The key pairs behind a new store's signing keys, made on libuv's threads. An RSA key takes 0.1 to 0.8 s of CPU
// (its prime search is random), which a start on a new store would otherwise wait for after loading the service.
// The process entry starts them when the store is known to be new, before the service's modules load, so they are
// made on the other core meanwhile; key generation then takes these instead of making its own. This module loads
// nothing of the service's: the entry imports it first.
import { generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';

export type SigningAlg = 'ES256' | 'RS256';
/** The algorithms the service signs with: ES256 for access tokens, RS256 for ID tokens (the OIDC default). */
export const SIGNING_ALGS: SigningAlg[] = ['ES256', 'RS256'];

const generate = promisify(generateKeyPair);
const early = new Map<SigningAlg, Promise<KeyObject>>();

function makePrivateKey(alg: SigningAlg): Promise<KeyObject> {
  const pair = alg === 'ES256' ? generate('ec', { namedCurve: 'P-256' }) : generate('rsa', { modulusLength: 2048 });
  return pair.then(({ privateKey }) => privateKey);
}

/** Starts making one private key per algorithm now, for the next key generation in this process to take. */
export function startKeyPairs(): void {
  for (const alg of SIGNING_ALGS) {
    const key = makePrivateKey(alg);
    key.catch(() => undefined); // a failure surfaces where the key is taken
    early.set(alg, key);
  }
}

/** A new private key for `alg`: the one started early if there is one (each is used once), else a new one. */
export function takePrivateKey(alg: SigningAlg): Promise<KeyObject> {
  const key = early.get(alg);
  early.delete(alg);
  return key ?? makePrivateKey(alg);
}
