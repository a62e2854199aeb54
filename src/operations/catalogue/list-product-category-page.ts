// Use case: one page of the product category list (docs/api.md, GET /cms/product/categories) and the number of
// categories matching over all pages; then, for the categories its caller holds no ready representation of, each
// one's breadcrumbs, the count of its products and, when asked, its first products with their items. Every read
// goes through the loaders GraphQL's category fields use, so the store is asked once per level for the whole page,
// whatever its size.
import type { Context } from '../../context.js';
import type { Breadcrumb, ProductCategory } from '../../schema/catalogue/product-category.type.js';
import type { ProductItem } from '../../schema/catalogue/product-item.type.js';
import type { Product } from '../../schema/catalogue/product.type.js';
import { checkProductsLimit, type CategoryFilter, type CategoryPage } from './catalogue.input.js';
import { breadcrumbsOf, firstProductsOf, itemsOf, totalProductsCountOf } from './catalogue.relations.js';
import { countProductCategories, listProductCategories } from './list-product-categories.js';

interface ListedProduct {
  product: Product;
  items: ProductItem[];
}

export interface ListedCategory {
  category: ProductCategory;
  breadcrumbs: Breadcrumb[];
  /** Every available product of the category, however many are embedded. */
  totalProductsCount: number;
  products?: ListedProduct[];
}

/** The page's categories in listing order and how many match over all pages; nothing they point at. */
export async function productCategoryPage(
  ctx: Context,
  input: CategoryFilter & CategoryPage,
): Promise<{ total: number; categories: ProductCategory[] }> {
  const [categories, total] = await Promise.all([
    listProductCategories(ctx, input, { page: input.page, limit: input.limit }),
    countProductCategories(ctx, input),
  ]);
  return { total, categories };
}

/**
 * What each of `categories` shows beside its own fields: breadcrumbs, the count of its products and, unless
 * `productsLimit` is null, its first products with their items. The store is asked once per level for all of
 * them, however many.
 */
export async function listedCategories(
  ctx: Context,
  categories: readonly ProductCategory[],
  productsLimit: number | null,
): Promise<ListedCategory[]> {
  const bound = productsLimit === null ? null : checkProductsLimit(productsLimit);
  return Promise.all(
    categories.map(async (category): Promise<ListedCategory> => {
      const [breadcrumbs, totalProductsCount, products] = await Promise.all([
        breadcrumbsOf(ctx, category),
        totalProductsCountOf(ctx, category),
        bound === null ? undefined : productsWithItems(ctx, category, bound),
      ]);
      return { category, breadcrumbs, totalProductsCount, ...(products ? { products } : {}) };
    }),
  );
}

async function productsWithItems(ctx: Context, category: ProductCategory, first: number): Promise<ListedProduct[]> {
  const products = await firstProductsOf(ctx, category, first);
  return Promise.all(products.map(async (product) => ({ product, items: await itemsOf(ctx, product) })));
}
