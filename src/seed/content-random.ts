// Cheap deterministic randomness for bulk generation: every document draws from its own stream seeded
// by (run seed, kind, index), so a document is the same whatever batch, order or scale produced it.

/** FNV-1a over the parts, as an unsigned 32-bit seed. */
export function hash32(...parts: Array<string | number>): number {
  let h = 2166136261;
  for (const part of parts) {
    const s = String(part);
    for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
    h = Math.imul(h ^ 0x1f, 16777619);
  }
  return h >>> 0;
}

/** mulberry32: tiny, fast, good enough for test data. */
export class Rand {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** `n` distinct items (fewer when there are not that many), in draw order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const chosen = new Set<number>();
    const want = Math.min(n, items.length);
    while (chosen.size < want) chosen.add(Math.floor(this.next() * items.length));
    return [...chosen].map((i) => items[i]!);
  }

  /** Skewed towards small values (views, comments): most articles are read little, a few a lot. */
  skewed(max: number): number {
    const x = this.next();
    return Math.floor(x * x * x * max);
  }
}

export const randFor = (seed: number, kind: string, index: number): Rand => new Rand(hash32(seed, kind, index));

export const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export const slugify = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48) || 'item';
