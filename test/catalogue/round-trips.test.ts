// The round-trip bound (docs/api.md) for the catalogue: store commands grow with the depth of a
// query, never with the number of categories, products or items. Counted with command monitoring.
import { MongoClient, type CommandStartedEvent, type Db } from 'mongodb';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startService, type RunningService } from '../../src/server.js';
import type { ProductCategoryDoc, ProductDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';
import { Store } from '../../src/store/store.js';
import { testMongoUri, uniqueDbName } from '../helpers/db.js';
import { categories as fixtureCategories, items as fixtureItems, products as fixtureProducts } from './fixtures.js';
import { isBackgroundCommand } from '../helpers/background.js';

const template = { category: fixtureCategories[1]!, product: fixtureProducts[0]!, item: fixtureItems[2]! };

/** A root with `children` categories of `products` products of `items` items each, every item related to two others. */
async function tree(db: Db, prefix: string, children: number, products: number, items: number): Promise<void> {
  const root: ProductCategoryDoc = {
    ...template.category,
    _id: `${prefix}root`,
    parentCategoryId: null,
    ancestorIds: [],
    sortPath: `${prefix}`,
    slug: `${prefix}root`,
  };
  const cats = Array.from({ length: children }, (_, c): ProductCategoryDoc => ({
    ...template.category,
    _id: `${prefix}c${c}`,
    parentCategoryId: root._id,
    ancestorIds: [root._id],
    sortPath: `${prefix}.${c}`,
    slug: `${prefix}c${c}`,
  }));
  const prods = cats.flatMap((cat) =>
    Array.from({ length: products }, (_, p): ProductDoc => ({
      ...template.product,
      _id: `${cat._id}p${p}`,
      categoryIds: [cat._id],
      order: p,
    })),
  );
  const its = prods.flatMap((prod) =>
    Array.from({ length: items }, (_, i): ProductItemDoc => ({
      ...template.item,
      _id: `${prod._id}i${i}`,
      productId: prod._id,
      order: i,
      relatedItems: { itemIds: [`${prod._id}i${(i + 1) % items}`, `${prod._id}i${(i + 2) % items}`] },
    })),
  );
  await db.collection<ProductCategoryDoc>('productCategories').insertMany([root, ...cats]);
  await db.collection<ProductDoc>('products').insertMany(prods);
  await db.collection<ProductItemDoc>('productItems').insertMany(its);
}

const DEEP = `query($parentId: ID!) { productCategories(parentId: $parentId, lang: "de") {
  id breadcrumbs { categoryName } totalProductsCount
  products(first: 20) { totalCount edges { node { id productItems { id productName relatedItems { items { id productName } } } } } }
} }`;

let client: MongoClient;
let service: RunningService;
const commands: CommandStartedEvent[] = [];
const dbName = uniqueDbName('crt');

beforeAll(async () => {
  client = new MongoClient(testMongoUri(), { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
  client.on('commandStarted', (event) => {
    if (!isBackgroundCommand(event)) commands.push(event);
  });
  await client.connect();
  const db = client.db(dbName);
  const store = await Store.onDb(client, db);
  await tree(db, 'big-', 12, 8, 4);
  await tree(db, 'small-', 1, 1, 1);
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    MONGODB_DB: dbName,
  });
  service = await startService({ config, log: createLogger('silent'), store });
});

afterAll(async () => {
  await service.stop();
  await client
    .db(dbName)
    .dropDatabase()
    .catch(() => undefined);
  await client.close();
});

async function sent(run: () => Promise<unknown>): Promise<string[]> {
  commands.length = 0;
  await run();
  return commands
    .filter((c) => c.databaseName === dbName)
    .map((c) => `${c.commandName}:${String(c.command[c.commandName])}`);
}

async function graphql(parentId: string): Promise<any> {
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: DEEP, variables: { parentId } }),
  });
  const body = (await res.json()) as { data?: any; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data;
}

test('GraphQL: 12 categories x 8 products x 4 items cost the store commands of 1 x 1 x 1', async () => {
  let big: any;
  const bigSent = await sent(async () => (big = await graphql('big-root')));
  const smallSent = await sent(() => graphql('small-root'));
  expect(big.productCategories).toHaveLength(12);
  expect(big.productCategories[0].products.edges).toHaveLength(8);
  expect(big.productCategories[0].products.edges[0].node.productItems).toHaveLength(4);
  expect(big.productCategories[0].products.edges[0].node.productItems[0].relatedItems.items).toHaveLength(2);
  expect(bigSent.sort()).toEqual(smallSent.sort());
  // categories, ancestors, counts, product pages, items, product names, related items
  expect(bigSent.length).toBeLessThanOrEqual(7);
});

test('REST: the whole tree with products and items costs the commands of a one-product tree', async () => {
  const rest = (parentId: string) =>
    fetch(`${service.url}/cms/product/categories?parentId=${parentId}`).then((r) => r.json());
  let big: any;
  const bigSent = await sent(async () => (big = await rest('big-root')));
  const smallSent = await sent(() => rest('small-root'));
  expect(big).toHaveLength(12);
  expect(big[11].products).toHaveLength(8);
  expect(bigSent.sort()).toEqual(smallSent.sort());
});
