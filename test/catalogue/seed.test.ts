// The catalogue seeder: a three-level tree with breadcrumbs and translations, products with several
// items (subscriptions granting `subscription`), coupons, and priced carts for the shared customers.
import { createLogger } from '../../src/logger.js';
import { priceMatrixFor, pricingInputFor } from '../../src/operations/cart/cart-pricing.js';
import { catalogueSeeder } from '../../src/seed/catalogue.seed.js';
import { seeders } from '../../src/seed/index.js';
import { seededFaker, type SeedRun } from '../../src/seed/seeder.js';
import type {
  CartDoc,
  CouponDoc,
  ProductCategoryDoc,
  ProductDoc,
  ProductItemDoc,
} from '../../src/store/catalogue/catalogue.docs.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from '../helpers/db.js';
import { startTestService, type TestService } from '../helpers/service.js';

const CUSTOMERS = { ids: ['cus_demo', 'cus_a', 'cus_b', 'cus_c'], demoCustomerId: 'cus_demo' };

/** A fixed moment of seeding: same seed, same moment, same data. */
const NOW = Date.UTC(2026, 0, 1);

function seedRun(svc: TestService, shared: Map<string, unknown>): SeedRun {
  return {
    store: svc.store,
    scale: 'tiny',
    seed: 7,
    now: NOW,
    log: createLogger('silent'),
    progress: { advance: () => undefined },
    faker: seededFaker(7, 'catalogue'),
    shared,
  };
}

let svc: TestService;
let counts: Record<string, number>;
beforeAll(async () => {
  svc = await startTestService({
    beforeStart: async (store) => {
      counts = await catalogueSeeder.run({ ...seedRun({ store } as TestService, new Map([['customers', CUSTOMERS]])) });
    },
  });
});
afterAll(() => svc.close());

const all = async <T>(name: string) => (await svc.db.collection(name).find().toArray()) as unknown as T[];

test('a category tree three levels deep, whose ancestors exist, with translations and a fallback to exercise', async () => {
  const categories = await all<ProductCategoryDoc>('productCategories');
  expect(counts.productCategories).toBe(categories.length);
  const byId = new Map(categories.map((c) => [c._id, c]));
  expect(new Set(categories.map((c) => c.ancestorIds.length))).toEqual(new Set([0, 1, 2]));
  for (const c of categories) {
    expect(c.parentCategoryId).toBe(c.ancestorIds.at(-1) ?? null);
    c.ancestorIds.forEach((a, i) => expect(byId.get(a)!.ancestorIds).toEqual(c.ancestorIds.slice(0, i)));
    expect(c.translations.de?.name).toBeTruthy();
  }
  expect(categories.some((c) => !c.translations.fr)).toBe(true);
  expect(categories.some((c) => c.featured)).toBe(true);
});

test('products with several items; recurrent items grant the subscription entitlement', async () => {
  const products = await all<ProductDoc>('products');
  const items = await all<ProductItemDoc>('productItems');
  for (const p of products) expect(items.filter((i) => i.productId === p._id).length).toBeGreaterThanOrEqual(2);
  const recurrent = items.filter((i) => i.settings.recurrent);
  expect(recurrent.length).toBeGreaterThan(0);
  for (const item of recurrent) {
    expect(item.settings.recurrentSchedule).toMatch(/^(monthly|yearly)$/);
    expect(item.actionDataOnPurchase.map((a) => a.group)).toEqual(['subscription']);
    expect(item.actionDataOnRenewalPurchase.map((a) => a.group)).toEqual(['subscription']);
  }
  expect(items.filter((i) => !i.settings.recurrent).every((i) => i.actionDataOnPurchase.length === 0)).toBe(true);
});

test('carts for the shared customers, the demo customer first with coupons, priced by the pricing module', async () => {
  const carts = await all<CartDoc>('carts');
  const items = await all<ProductItemDoc>('productItems');
  const coupons = await all<CouponDoc>('coupons');
  expect(carts).toHaveLength(CUSTOMERS.ids.length);
  expect(new Set(carts.map((c) => c.customerId))).toEqual(new Set(CUSTOMERS.ids));
  expect(carts.find((c) => c.customerId === 'cus_demo')!.coupons.length).toBeGreaterThan(0);
  for (const cart of carts) {
    const fresh = priceMatrixFor(
      pricingInputFor(
        cart,
        new Map(items.map((i) => [i._id, i])),
        new Map(coupons.map((c) => [c._id, c])),
        cart.priceMatrix.computedAt,
      ),
    );
    expect(cart.priceMatrix).toEqual(fresh);
    expect(cart.version).toBe(1);
  }
  expect(new Set(coupons.map((c) => c.kind))).toEqual(new Set(['percent', 'fixed', 'free_shipping']));
});

test('the seeded catalogue is served: leaves carry three breadcrumbs from the root down', async () => {
  const res = await fetch(`${svc.url}/cms/product/categories?lang=de&includeProducts=false`);
  expect(res.status).toBe(200);
  const body = (await res.json()) as Array<{
    id: string;
    parentCategoryId: string | null;
    breadcrumbs: Array<{ categoryId: string }>;
  }>;
  const leaf = body.find((c) => c.breadcrumbs.length === 3)!;
  expect(leaf.breadcrumbs.at(-1)!.categoryId).toBe(leaf.id);
  expect(leaf.breadcrumbs[1]!.categoryId).toBe(leaf.parentCategoryId);
});

test('same seed, same data; without shared customers no carts are seeded', async () => {
  const other = await openTestDb('seed');
  try {
    const store = await Store.onDb(other.client, other.db);
    await catalogueSeeder.run(seedRun({ store } as TestService, new Map()));
    const strip = (docs: unknown[]) => JSON.parse(JSON.stringify(docs));
    for (const name of ['productCategories', 'products', 'productItems', 'coupons']) {
      const mine = await svc.db.collection(name).find().sort({ _id: 1 }).toArray();
      const theirs = await other.db.collection(name).find().sort({ _id: 1 }).toArray();
      expect(strip(theirs)).toEqual(strip(mine));
    }
    expect(await other.db.collection('carts').countDocuments()).toBe(0);
  } finally {
    await other.close();
  }
});

test('the catalogue seeder runs after the customers seeder, whose ids its carts need', () => {
  const names = seeders.map((s) => s.name);
  expect(names).toContain('catalogue');
  expect(names.indexOf('catalogue')).toBeGreaterThan(names.indexOf('customers'));
  expect(names.indexOf('customers')).toBeGreaterThanOrEqual(0);
});
