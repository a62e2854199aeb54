// Per-request loaders of catalogue documents: by id, the items of a product, the products of a
// category (a connection page) and its count. One query per batch, nulls for misses.
import DataLoader from 'dataloader';
import type { Collection, Document, Filter } from 'mongodb';
import type { CollectionName, DocOf } from '../collections.js';
import { childrenCountLoader, childrenPageLoader } from '../content/children.loader.js';
import type { SortSpec } from '../content/paging.js';
import { byIdLoader, type LoaderFactory } from '../loaders.js';
import { findAll } from '../read.js';
import { findByKeys } from '../shared-reads.js';
import type { Store } from '../store.js';
import type { ProductCategoryDoc, ProductItemDoc } from './catalogue.docs.js';
import {
  categoryProjection,
  couponProjection,
  productItemProjection,
  productProjection,
} from './catalogue.projections.js';

/** A batch's answer in one reply: no getMore round trips, whatever the number of parents. */
const ONE_REPLY = 10_000;

function findIn<N extends CollectionName>(
  store: Store,
  name: N,
  field: string,
  values: readonly unknown[],
  projection: Document,
  batchSize = ONE_REPLY,
) {
  const query: Filter<Document> = { [field]: { $in: [...values] } };
  // Raw, decoded once (store/read.ts): a page's items are most of a category page's bytes.
  return findAll(store.collection(name) as unknown as Collection<Document>, query, {
    projection,
    batchSize,
  }) as Promise<DocOf<N>[]>;
}

/** By id, no other condition: the reads of concurrent requests go out as one command (store/shared-reads.ts). */
const anyDocument: Document = {};
const byId = <N extends 'productCategories' | 'products' | 'productItems' | 'coupons'>(name: N, projection: Document) =>
  byIdLoader<DocOf<N>>(
    (store, ids) => findByKeys(store.collection(name), '_id', ids, anyDocument, projection) as Promise<DocOf<N>[]>,
  );

export const categoryById = byId('productCategories', categoryProjection);
export const productById = byId('products', productProjection);
export const productItemById = byId('productItems', productItemProjection);
export const couponById = byId('coupons', couponProjection);

/** A category by slug; should two share a slug, the first in tree order. */
export const categoryBySlug: LoaderFactory<string, ProductCategoryDoc | null> = (store) =>
  new DataLoader(async (slugs) => {
    const docs = await store
      .collection('productCategories')
      .find({ slug: { $in: [...slugs] } }, { projection: categoryProjection, sort: { sortPath: 1 } })
      .toArray();
    const bySlug = new Map<string, ProductCategoryDoc>();
    for (const doc of docs) if (!bySlug.has(doc.slug)) bySlug.set(doc.slug, doc);
    return slugs.map((slug) => bySlug.get(slug) ?? null);
  });

/** Products in listing order; `_id` last so positions are total. */
export const productOrder: SortSpec = [
  ['order', 1],
  ['_id', 1],
];
const itemOrder = (a: ProductItemDoc, b: ProductItemDoc) =>
  a.order - b.order || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/** Only available products are listed under a category and counted (docs/api.md). */
const listed = { available: true } as const;
const productsOfCategorySpec = {
  collection: 'products',
  parentField: 'categoryIds',
  visible: listed,
  sort: productOrder,
  projection: productProjection,
} as const;

export const productPageOfCategory = childrenPageLoader(productsOfCategorySpec);
export const productCountOfCategory = childrenCountLoader(productsOfCategorySpec);

/** The items of each product, in item order (a product's items are a bounded, plain list). */
export const itemsOfProduct: LoaderFactory<string, ProductItemDoc[]> = (store) =>
  new DataLoader<string, ProductItemDoc[]>(async (productIds) => {
    const docs = await findIn(store, 'productItems', 'productId', productIds, productItemProjection);
    const byProduct = new Map<string, ProductItemDoc[]>(productIds.map((id) => [id, []]));
    for (const doc of docs) byProduct.get(doc.productId)?.push(doc);
    return productIds.map((id) => byProduct.get(id)!.sort(itemOrder));
  });
