// Password hashing: argon2id through @node-rs/argon2 (prebuilt, no install scripts). Verifying against
// a missing hash still runs one argon2 verification, so unknown accounts cost the same time as known ones.
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Config } from '../config.js';

export class PasswordHasher {
  private dummy?: Promise<string>;

  constructor(private readonly cost: Config['oauth']['argon2']) {}

  /** An argon2id PHC string (argon2id is the package's default algorithm). */
  hash(password: string): Promise<string> {
    return hash(password, { memoryCost: this.cost.memoryCost, timeCost: this.cost.timeCost, parallelism: 1 });
  }

  /** True when `password` matches `hashed`; an absent or malformed hash is a (equally slow) mismatch. */
  async verify(hashed: string | undefined, password: string): Promise<boolean> {
    if (!hashed) {
      this.dummy ??= this.hash(randomBytes(16).toString('hex'));
      await verify(await this.dummy, password).catch(() => false);
      return false;
    }
    try {
      return await verify(hashed, password);
    } catch {
      return false;
    }
  }
}
