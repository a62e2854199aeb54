// Seeded draws for tests that must reproduce a failure from its seed, on the engine tests' generator.
import { random } from '../../packages/engine/test/helpers/random.js';

export { random };

/** Draws from one seeded sequence: the base of the seeded fuzzers (the same draws for the same seed). */
export class Draws {
  protected readonly rnd: () => number;

  constructor(seed: number) {
    this.rnd = random(seed);
  }

  /** An integer in [0, n). */
  protected int(n: number): number {
    return Math.floor(this.rnd() * n);
  }

  protected pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  protected chance(p: number): boolean {
    return this.rnd() < p;
  }
}
