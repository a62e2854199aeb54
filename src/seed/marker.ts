// What start-up needs to know of the seed without loading it (the generators and their data are large):
// whether the store was seeded, and the demo's first page and query to point a newcomer at.
import type { Store } from '../store/store.js';

/** The settings document the seed writes once it has run. */
export const SEED_MARKER = 'seed';

/** Whether the seed has run on this store (any scale). */
export async function isSeeded(store: Store): Promise<boolean> {
  return (await store.collection('settings').findOne({ _id: SEED_MARKER }, { projection: { _id: 1 } })) !== null;
}

/** The demo page and a first query to try, logged by `npm start` after seeding. */
/** The first page the content seed writes (`id('page', 0)` in content-sizes.ts, whose import would load the generators). */
export const DEMO_PAGE_ID = 'page-1';
export const FIRST_QUERY =
  `{ page(id: "${DEMO_PAGE_ID}") { name issues(first: 3) { totalCount edges { node { title date ` +
  `contents { category { name } articles { title authors { name } accessAllowed preview } } } } } } }`;
