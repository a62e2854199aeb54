// The keys connection cursors are signed with: CURSOR_KEYS from the environment when set (comma-separated; the
// first signs, all verify, so a key is rotated by putting a new one first and dropping the old one later);
// otherwise generated on first start and kept in `settings`, so every process on the same store accepts the
// cursors of every other (as the OAuth keys are, src/oauth/keys.ts).
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { isDuplicateKey } from '../store/errors.js';
import type { Store } from '../store/store.js';

const SETTING = 'cursor.keys';

interface StoredKeys {
  keys: string[];
}

const usable = (value: unknown): value is StoredKeys =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as StoredKeys).keys) &&
  (value as StoredKeys).keys.every((k) => typeof k === 'string');

export async function loadCursorKeys(config: Config, store: Store, log: Logger): Promise<Buffer[]> {
  if (config.cursorKeys?.length) return config.cursorKeys.map((k) => Buffer.from(k, 'utf8'));
  const settings = store.collection('settings');
  const existing = await settings.findOne({ _id: SETTING });
  if (existing && usable(existing.value)) return existing.value.keys.map((k) => Buffer.from(k, 'base64url'));
  const fresh: StoredKeys = { keys: [randomBytes(32).toString('base64url')] };
  try {
    await settings.insertOne({ _id: SETTING, value: fresh, updatedAt: new Date() });
    log.info('cursors: generated a signing key (kept in the store)');
  } catch (err) {
    // Another process generated it first: use theirs.
    if (!isDuplicateKey(err)) throw err;
    const winner = await settings.findOne({ _id: SETTING });
    if (winner && usable(winner.value)) return winner.value.keys.map((k) => Buffer.from(k, 'base64url'));
  }
  return fresh.keys.map((k) => Buffer.from(k, 'base64url'));
}
