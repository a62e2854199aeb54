// How catalogue objects reach each other: breadcrumbs, a category's products (page, count), a
// product's items, an item's product name and related items. Loaders only, so GraphQL field resolvers
// and the REST assembly share them and a request's round trips grow with depth, not with objects.
import type { Context } from '../../context.js';
import type { Breadcrumb, ProductCategory } from '../../schema/catalogue/product-category.type.js';
import type { ProductItem } from '../../schema/catalogue/product-item.type.js';
import type { Product } from '../../schema/catalogue/product.type.js';
import {
  categoryById,
  itemsOfProduct,
  productById,
  productCountOfCategory,
  productItemById,
  productPageOfCategory,
} from '../../store/catalogue/catalogue.loaders.js';
import { toProduct, toProductCategory, toProductItem } from '../../store/catalogue/catalogue.mapper.js';
import { connectionOf } from '../content/connection.js';
import { connections, cursorsOf } from '../connections.js';
import { checkFirst } from '../content/input.js';

/** From the root down to the category itself, names localised like the category. */
export async function breadcrumbsOf(ctx: Context, category: ProductCategory): Promise<Breadcrumb[]> {
  const ancestors = await ctx.loaders.get(categoryById).loadMany(category.ancestorIds);
  const crumbs: Breadcrumb[] = [];
  for (const doc of ancestors) {
    if (!doc || doc instanceof Error) continue;
    const api = toProductCategory(doc, category.lang);
    crumbs.push({ categoryId: api.id, categoryName: api.name, categorySlug: api.slug });
  }
  crumbs.push({ categoryId: category.id, categoryName: category.name, categorySlug: category.slug });
  return crumbs;
}

export function totalProductsCountOf(ctx: Context, category: ProductCategory): Promise<number> {
  return ctx.loaders.get(productCountOfCategory).load(category.id);
}

export async function productPageOf(
  ctx: Context,
  category: ProductCategory,
  args: { first: number; after?: string | null },
) {
  const first = checkFirst(args.first);
  const cursors = cursorsOf(ctx, connections.categoryProducts, category.id);
  const after = cursors.decode(args.after);
  const page = await ctx.loaders.get(productPageOfCategory).load({ parentId: category.id, first, after });
  return connectionOf(
    page,
    cursors,
    (doc) => toProduct(doc, category.lang),
    () => totalProductsCountOf(ctx, category),
  );
}

/**
 * The first `first` products of the category in listing order, without a cursor: the same loader, key and
 * read as the first page of `products(first:)`.
 */
export async function firstProductsOf(ctx: Context, category: ProductCategory, first: number): Promise<Product[]> {
  const page = await ctx.loaders.get(productPageOfCategory).load({ parentId: category.id, first, after: null });
  return page.docs.map((doc) => toProduct(doc, category.lang));
}

export async function itemsOf(ctx: Context, product: Product): Promise<ProductItem[]> {
  const docs = await ctx.loaders.get(itemsOfProduct).load(product.id);
  return docs.map((d) => toProductItem(d, product.lang));
}

/** The owning product's name (products have no translated name). */
export async function productNameOf(ctx: Context, item: Pick<ProductItem, 'productId'>): Promise<string | null> {
  const product = await ctx.loaders.get(productById).load(item.productId);
  return product?.name ?? null;
}

/** Related items that still exist, in the listed order. */
export async function relatedItemsOf(
  ctx: Context,
  related: { itemIds: string[]; lang: string | null },
): Promise<ProductItem[]> {
  const docs = await ctx.loaders.get(productItemById).loadMany(related.itemIds);
  return docs.flatMap((d) => (d && !(d instanceof Error) ? [toProductItem(d, related.lang)] : []));
}
