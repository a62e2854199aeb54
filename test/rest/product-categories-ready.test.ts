// GET /cms/product/categories assembled from each category's ready representation (src/cache/ready-parts.ts):
// with the response cache off, an answer made from kept parts is byte for byte the answer of a process that
// keeps none, and a change made straight in the store to anything a category shows (itself, an ancestor, a
// product, an item, a product leaving) reaches the next answers of two gateway processes on the same store.
import { ensureBuilt } from '../helpers/built.js';
import type { Child } from '../helpers/child.js';
import { spawnGateway } from '../helpers/gateway.js';
import { startMonitoredService } from '../helpers/monitored.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { insertCatalogue } from '../catalogue/fixtures.js';

/** How long a change may take to reach another process's answers (its change stream). */
const DEADLINE_MS = 2_000;

let svc: TestService;
let withParts: Child;
let withPartsUrl: string;
let withoutParts: Child;
let withoutPartsUrl: string;
/** A gateway as deployed: the response cache on, over the ready parts (one stream evicts both). */
let cached: Child;
let cachedUrl: string;

beforeAll(async () => {
  await ensureBuilt();
  svc = await startTestService({ beforeStart: insertCatalogue });
  const name = svc.db.databaseName;
  [
    { child: withParts, url: withPartsUrl },
    { child: withoutParts, url: withoutPartsUrl },
    { child: cached, url: cachedUrl },
  ] = await Promise.all([
    spawnGateway(name, { RESPONSE_CACHE_MB: '0' }),
    spawnGateway(name, { RESPONSE_CACHE_MB: '0', READY_PARTS_MB: '0' }),
    spawnGateway(name, {}),
  ]);
}, 120_000);
afterAll(async () => {
  for (const child of [withParts, withoutParts, cached]) {
    child?.proc.kill('SIGTERM');
    await child?.exited;
  }
  await svc?.close();
});

const QUERIES = [
  '',
  '?lang=de',
  '?includeProducts=false',
  '?productsLimit=1',
  '?page=2&limit=2',
  '?parentId=cat-magazines&lang=fr',
  '?available=false',
];

async function bytes(base: string, query: string): Promise<string> {
  const res = await fetch(`${base}/cms/product/categories${query}`, { headers: { 'accept-encoding': 'identity' } });
  expect(res.status).toBe(200);
  return res.text();
}

test('an answer assembled from kept parts is the bytes of one that keeps none, for every query', async () => {
  for (const query of QUERIES) {
    const reference = await bytes(withoutPartsUrl, query);
    expect(JSON.parse(reference)).not.toEqual([]);
    // The first answer of each process keeps the parts, the second is assembled from them.
    for (const base of [svc.url, withPartsUrl, svc.url, withPartsUrl]) expect(await bytes(base, query)).toBe(reference);
  }
  // Pages overlapping the ones above are assembled from the same parts.
  for (const query of ['?limit=1', '?page=3&limit=1', '?limit=3&lang=de'])
    expect(await bytes(svc.url, query)).toBe(await bytes(withoutPartsUrl, query));
});

interface Listed {
  id: string;
  name: string;
  totalProductsCount: number;
  breadcrumbs: Array<{ categoryId: string; categoryName: string }>;
  products?: Array<{
    id: string;
    name: string;
    productItems: Array<{ id: string; price: number; productName: string }>;
  }>;
}

const listed = async (base: string, id: string, query = ''): Promise<Listed | undefined> =>
  (JSON.parse(await bytes(base, query)) as Listed[]).find((c) => c.id === id);

/** Asks until `ask` says `expected` or the deadline passes; returns the last answer. */
async function untilSeen<T>(ask: () => Promise<T>, expected: T): Promise<T> {
  const end = Date.now() + DEADLINE_MS;
  let seen = await ask();
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await ask();
  }
  return seen;
}

/** Both processes keeping parts, asked twice each so the second answer comes from what the first kept. */
async function warm(query = ''): Promise<void> {
  for (const base of [svc.url, withPartsUrl, svc.url, withPartsUrl]) await bytes(base, query);
}

/** Every process answers `expected` for `ask`, and the one keeping no parts agrees with the others. */
async function expectEverywhere<T>(ask: (base: string) => Promise<T>, expected: T): Promise<void> {
  for (const base of [svc.url, withPartsUrl]) expect(await untilSeen(() => ask(base), expected)).toEqual(expected);
  expect(await ask(withoutPartsUrl)).toEqual(expected);
}

test('a product renamed in the store shows in its categories and its items on both processes', async () => {
  await warm();
  const weekly = await listed(svc.url, 'cat-weekly');
  expect(weekly?.products?.[0]?.name).not.toBe('Renamed weekly');

  await svc.db.collection('products').updateOne({ _id: 'prod-weekly' as never }, { $set: { name: 'Renamed weekly' } });
  const names = async (base: string) => {
    const product = (await listed(base, 'cat-weekly'))?.products?.find((p) => p.id === 'prod-weekly');
    return [product?.name, ...(product?.productItems.map((i) => i.productName) ?? [])];
  };
  await expectEverywhere(names, ['Renamed weekly', 'Renamed weekly', 'Renamed weekly', 'Renamed weekly']);
});

test("an item's new price shows in the next answers", async () => {
  await warm('?lang=de');
  await svc.db.collection('productItems').updateOne({ _id: 'item-year' as never }, { $set: { price: 12345 } });
  const price = async (base: string) =>
    (await listed(base, 'cat-digital', '?lang=de'))?.products?.[0]?.productItems.find((i) => i.id === 'item-year')
      ?.price;
  await expectEverywhere(price, 123.45);
});

test("an ancestor renamed in the store shows in its descendants' breadcrumbs", async () => {
  await warm();
  await svc.db.collection('productCategories').updateOne({ _id: 'cat-print' as never }, { $set: { name: 'Paper' } });
  const crumbs = async (base: string) => (await listed(base, 'cat-weekly'))?.breadcrumbs.map((b) => b.categoryName);
  await expectEverywhere(crumbs, ['Paper', 'Magazines', 'Weekly']);
});

test('a product deleted from the store leaves its category and its count', async () => {
  await warm('?includeProducts=false');
  await warm('?productsLimit=1');
  const before = await listed(svc.url, 'cat-weekly', '?includeProducts=false');
  expect(before?.totalProductsCount).toBe(2);

  // Not among the first product shown with productsLimit=1, but counted.
  await svc.db.collection('products').deleteOne({ _id: 'prod-weekly-extra' as never });
  const count = async (base: string) =>
    (await listed(base, 'cat-weekly', '?includeProducts=false'))?.totalProductsCount;
  await expectEverywhere(count, 1);
  const bounded = async (base: string) => {
    const weekly = await listed(base, 'cat-weekly', '?productsLimit=1');
    return [weekly?.totalProductsCount, weekly?.products?.map((p) => p.id)];
  };
  await expectEverywhere(bounded, [1, ['prod-weekly']]);
});

test('a page whose categories are all kept reads only the categories and their count', async () => {
  const monitored = await startMonitoredService({ prefix: 'rready', beforeStart: insertCatalogue });
  try {
    const sent = async (query: string) => {
      monitored.commands.length = 0;
      const res = await fetch(`${monitored.url}/cms/product/categories${query}`);
      expect(res.status).toBe(200);
      const body = await res.text();
      return { body, commands: monitored.commands.map((c) => `${c.commandName}:${String(c.command[c.commandName])}`) };
    };
    const first = await sent('?lang=de');
    expect(first.commands).toEqual(expect.arrayContaining(['aggregate:products', 'find:productItems']));
    const again = await sent('?lang=de');
    expect(again.body).toBe(first.body);
    expect(again.commands.sort()).toEqual(['aggregate:productCategories', 'find:productCategories']);
    // Another language is another representation: read and shaped again.
    expect((await sent('?lang=fr')).commands).toEqual(expect.arrayContaining(['aggregate:products']));
  } finally {
    await monitored.close();
  }
});

test('after the changes, kept parts and fresh answers are still the same bytes', async () => {
  for (const query of QUERIES) {
    const reference = await bytes(withoutPartsUrl, query);
    for (const base of [svc.url, withPartsUrl]) expect(await bytes(base, query)).toBe(reference);
  }
});

test('with the response cache on, no answer made from a part a change made wrong is kept', async () => {
  // The cache keeps answers for minutes, evicted by its change stream: were the parts evicted by another stream,
  // an answer assembled after the cache's eviction from a part not yet evicted would stay wrong until it expires.
  // Readers ask without pause while each change arrives, so that some ask between the two evictions.
  const nameOf = async () => (await listed(cachedUrl, 'cat-weekly'))?.name;
  for (let round = 1; round <= 10; round++) {
    const name = `Weekly, round ${round}`;
    const until = Date.now() + 600;
    const readers = Array.from({ length: 3 }, async () => {
      while (Date.now() < until) await nameOf();
    });
    await svc.db.collection('productCategories').updateOne({ _id: 'cat-weekly' as never }, { $set: { name } });
    await Promise.all(readers);
    expect(await untilSeen(nameOf, name)).toBe(name);
    // Asked again (now from the cache), it stays right.
    expect(await nameOf()).toBe(name);
  }
}, 60_000);
