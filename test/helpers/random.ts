// A seeded pseudo-random generator for tests that must reproduce a failure from its seed.

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
