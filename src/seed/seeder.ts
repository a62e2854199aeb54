// The seeding contract: each domain contributes one Seeder; they run in list order (customers before carts).
import { Faker, en, de, fr, base } from '@faker-js/faker';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';

export type ScaleName = 'tiny' | 'demo' | 'medium' | 'large';

/** Article counts per scale; other collections derive their sizes from the scale inside each seeder. */
export const scales: Record<ScaleName, { articles: number }> = {
  tiny: { articles: 60 },
  demo: { articles: 1_000 },
  medium: { articles: 50_000 },
  large: { articles: 1_000_000 },
};

export interface SeedProgress {
  /** Called with the number of documents just inserted into `collection` out of `total`. */
  advance(collection: string, inserted: number, total: number): void;
}

export interface SeedRun {
  store: Store;
  scale: ScaleName;
  seed: number;
  /** The moment of seeding (ms since the epoch): dates are generated relative to it. */
  now: number;
  log: Logger;
  progress: SeedProgress;
  /** A faker seeded from (run seed, seeder name): same seed, same data, whatever else ran before. */
  faker: Faker;
  /** What earlier seeders handed on (e.g. customer ids for carts). */
  shared: Map<string, unknown>;
}

export interface Seeder {
  name: string;
  run(run: SeedRun): Promise<Record<string, number>>;
}

export function seededFaker(seed: number, name: string): Faker {
  const faker = new Faker({ locale: [en, de, fr, base] });
  let h = seed >>> 0;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  faker.seed(h);
  return faker;
}

/** Inserts `total` generated documents in batches, reporting progress. */
export async function insertInBatches<T extends { _id: string }>(
  run: SeedRun,
  collection: string,
  total: number,
  make: (index: number) => T,
  batchSize = 1000,
): Promise<number> {
  const coll = run.store.db.collection<T>(collection);
  for (let start = 0; start < total; start += batchSize) {
    const batch: T[] = [];
    for (let i = start; i < Math.min(total, start + batchSize); i++) batch.push(make(i));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await coll.insertMany(batch as any[], { ordered: false });
    run.progress.advance(collection, batch.length, total);
  }
  return total;
}
