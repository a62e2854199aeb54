// Runs every domain's seeder in order, and seeds the demo data into an empty store at start-up.
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';
import { contentSeeder } from './content.seed.js';
import { customersSeeder } from './customers.seed.js';
import { catalogueSeeder } from './catalogue.seed.js';
import { SEED_MARKER } from './marker.js';
import { seededFaker, type ScaleName, type SeedProgress, type Seeder } from './seeder.js';

/** Add one line per domain; order matters where a seeder uses what an earlier one shared. */
export const seeders: Seeder[] = [
  contentSeeder,
  // content first (when registered), then customers: catalogue and cart seeders use their ids.
  customersSeeder,
  catalogueSeeder,
];

export async function runSeeders(
  store: Store,
  opts: { scale: ScaleName; seed?: number; now?: number; log: Logger; progress?: SeedProgress; only?: string[] },
): Promise<Record<string, number>> {
  const seed = opts.seed ?? 20261121;
  // Same seed and same `now`, same data; left out, the data is dated from this moment.
  const now = opts.now ?? Date.now();
  const shared = new Map<string, unknown>();
  const counts: Record<string, number> = {};
  const progress = opts.progress ?? { advance: () => undefined };
  for (const seeder of seeders) {
    if (opts.only && !opts.only.includes(seeder.name)) continue;
    const result = await seeder.run({
      store,
      scale: opts.scale,
      seed,
      now,
      log: opts.log,
      progress,
      faker: seededFaker(seed, seeder.name),
      shared,
    });
    Object.assign(counts, result);
  }
  await store
    .collection('settings')
    .updateOne(
      { _id: SEED_MARKER },
      { $set: { value: { scale: opts.scale, seed, now: new Date(now), counts }, updatedAt: new Date() } },
      { upsert: true },
    );
  return counts;
}

/** Seeds `scale` when the store has never been seeded; returns the counts, or null when it was already. */
export async function seedIfEmpty(store: Store, scale: ScaleName, log: Logger): Promise<Record<string, number> | null> {
  const marker = await store.collection('settings').findOne({ _id: SEED_MARKER });
  if (marker) return null;
  return runSeeders(store, { scale, log });
}
