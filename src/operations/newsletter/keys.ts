// Activation keys: single-purpose random values, stored only as a hash and compared in constant time.
// A fast hash is enough here: the key is 256 random bits, so there is nothing to brute-force offline.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export function newActivationKey(): string {
  return randomBytes(32).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Hash of a key nobody holds: compared against when there is no subscription, so every path costs the same. */
const DECOY_HASH = hashKey(randomBytes(32).toString('base64url'));

export function keyMatches(key: string, storedHash: string | undefined): boolean {
  const given = Buffer.from(hashKey(key), 'hex');
  const stored = Buffer.from(storedHash ?? DECOY_HASH, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored) && storedHash !== undefined;
}
