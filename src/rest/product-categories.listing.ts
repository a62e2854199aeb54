// The answer of GET /cms/product/categories (docs/api.md) as JSON bytes. With products (the default)
// the whole catalogue can be tens of thousands of products and items, tens of megabytes of JSON: the
// products and items are read as raw BSON and written straight out as JSON bytes (./product-categories.bytes.ts, over ./bson-json.ts), each
// product once however many categories list it, instead of deserializing, mapping, copying into the REST
// shape and stringifying every field (docs/decisions.md, "The category list written from raw BSON"). The bytes are those of
// `JSON.stringify` over the mapper's objects (product-categories.present.ts, catalogue.mapper.ts); a document
// the byte writer does not vouch for sends the whole answer through those objects instead.
//
// Store reads: the categories, their ancestors (breadcrumbs), the listed products and their items; the
// product counts come from the products read, not from a count of their own.
import { deserialize, Long } from 'bson';
import type { Document } from 'mongodb';
import type { Context } from '../context.js';
import { breadcrumbsOf, totalProductsCountOf } from '../operations/catalogue/catalogue.relations.js';
import { listProductCategories } from '../operations/catalogue/list-product-categories.js';
import type { Breadcrumb, ProductCategory } from '../schema/catalogue/product-category.type.js';
import type { ProductDoc, ProductItemDoc } from '../store/catalogue/catalogue.docs.js';
import { productOrder } from '../store/catalogue/catalogue.loaders.js';
import { toProduct, toProductItem } from '../store/catalogue/catalogue.mapper.js';
import { productItemProjection, productProjection } from '../store/catalogue/catalogue.projections.js';
import { cursorBatch, Unusual } from './bson-elements.js';
import { writeAnswer } from './product-categories.bytes.js';
import { itemsByProduct, listProducts } from './product-categories.raw.js';
import { restCategory, restProduct } from './product-categories.present.js';

export interface CategoryListQuery {
  parentId?: string;
  featured?: boolean;
  available: boolean;
  lang: string | null;
  includeProducts: boolean;
}

/** Only available products are listed under a category and counted (as the catalogue loaders do). */
const listed = { available: true } as const;
/** Products and items of a whole catalogue in as few replies as the engine's message size allows. */
const BATCH = 100_000;

/** The answer's JSON bytes. */
export async function productCategoriesJson(ctx: Context, query: CategoryListQuery): Promise<Buffer> {
  const categories = await listProductCategories(ctx, {
    parentId: query.parentId,
    featured: query.featured,
    available: query.available,
    lang: query.lang,
  });
  if (!query.includeProducts) {
    const fields = await Promise.all(
      categories.map(async (c) =>
        restCategory(c, {
          breadcrumbs: await breadcrumbsOf(ctx, c),
          totalProductsCount: await totalProductsCountOf(ctx, c),
        }),
      ),
    );
    return Buffer.from(JSON.stringify(fields));
  }
  const [breadcrumbs, products] = await Promise.all([
    Promise.all(categories.map((c) => breadcrumbsOf(ctx, c))),
    readProducts(ctx, categories),
  ]);
  const lang = categories[0]?.lang ?? null;
  const listing = unlessUnusual(ctx, () => listProducts(categories, products));
  const productIds = listing
    ? listing.productIds
    : [...new Set(products.map((bytes) => (deserialize(bytes) as ProductDoc)._id))];
  const rawItems = await readRawItems(ctx, productIds);
  const bytes =
    listing &&
    unlessUnusual(ctx, () => writeAnswer(categories, breadcrumbs, listing, itemsByProduct(productIds, rawItems), lang));
  return bytes ?? Buffer.from(JSON.stringify(mappedAnswer(categories, breadcrumbs, products, rawItems, lang)));
}

/** `write()`, or undefined when a document needs the mapper (the same store reads serve both). */
function unlessUnusual<T>(ctx: Context, write: () => T): T | undefined {
  try {
    return write();
  } catch (error) {
    if (!(error instanceof Unusual)) throw error;
    ctx.log.debug({ reason: error.message }, 'category list written through the mapper');
    return undefined;
  }
}

function readProducts(ctx: Context, categories: ProductCategory[]): Promise<Buffer[]> {
  if (!categories.length) return Promise.resolve([]);
  return rawFind(ctx, 'products', {
    filter: { ...listed, categoryIds: { $in: categories.map((c) => c.id) } },
    projection: productProjection,
    sort: Object.fromEntries(productOrder),
  });
}

function readRawItems(ctx: Context, productIds: string[]): Promise<Buffer[]> {
  if (!productIds.length) return Promise.resolve([]);
  return rawFind(ctx, 'productItems', {
    filter: { productId: { $in: productIds } },
    projection: productItemProjection,
  });
}

/**
 * Every document a `find` returns, each as its own BSON bytes: the `find` and `getMore` commands run with the
 * driver's `raw` option, which hands back the reply's cursor as one buffer, and the batch is cut into documents
 * here. (A raw cursor's `toArray` parses each document of the reply into an object of offsets first: for the
 * whole catalogue's 58,000 documents that was a fifth of the answer's CPU.)
 */
async function rawFind(
  ctx: Context,
  collection: string,
  find: { filter: Document; projection: Document; sort?: Document },
): Promise<Buffer[]> {
  const docs: Buffer[] = [];
  let reply = (await ctx.store.db.command({ find: collection, ...find, batchSize: BATCH }, { raw: true })) as {
    cursor: Buffer;
  };
  for (;;) {
    const id = cursorBatch(reply.cursor, docs);
    if (id === 0n) return docs;
    reply = (await ctx.store.db.command(
      { getMore: Long.fromBigInt(id), collection, batchSize: BATCH },
      { raw: true },
    )) as { cursor: Buffer };
  }
}

// ---- The same answer through the mapper's objects (for documents the byte writer does not vouch for) --

function mappedAnswer(
  categories: ProductCategory[],
  breadcrumbs: Breadcrumb[][],
  products: Buffer[],
  rawItems: Buffer[],
  lang: string | null,
) {
  const docs = products.map((bytes) => deserialize(bytes) as ProductDoc);
  const itemDocs = new Map<string, ProductItemDoc[]>(docs.map((d) => [d._id, []]));
  for (const bytes of rawItems) {
    const item = deserialize(bytes) as ProductItemDoc;
    itemDocs.get(item.productId)?.push(item);
  }
  const itemOrder = (a: ProductItemDoc, b: ProductItemDoc) =>
    a.order - b.order || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
  const rendered = docs.map((d) =>
    restProduct(
      toProduct(d, lang),
      (itemDocs.get(d._id) ?? []).sort(itemOrder).map((i) => toProductItem(i, lang)),
    ),
  );
  const has = (d: ProductDoc, id: string) =>
    Array.isArray(d.categoryIds) ? d.categoryIds.includes(id) : d.categoryIds === id;
  return categories.map((category, c) => {
    const listed = docs.flatMap((d, p) => (has(d, category.id) ? [rendered[p]!] : []));
    return restCategory(category, {
      breadcrumbs: breadcrumbs[c]!,
      totalProductsCount: listed.length,
      products: listed,
    });
  });
}
