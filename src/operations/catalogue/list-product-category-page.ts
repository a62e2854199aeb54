// Use case: one page of the product category list (docs/api.md, GET /cms/product/categories), each category
// with its breadcrumbs, the count of its products and, when asked, its first products with their items, and
// the number of categories matching over all pages. Every read goes through the loaders GraphQL's category
// fields use, so the store is asked once per level for the whole page, whatever its size.
import type { Context } from '../../context.js';
import type { Breadcrumb, ProductCategory } from '../../schema/catalogue/product-category.type.js';
import type { ProductItem } from '../../schema/catalogue/product-item.type.js';
import type { Product } from '../../schema/catalogue/product.type.js';
import { checkProductsLimit, type CategoryFilter, type CategoryPage } from './catalogue.input.js';
import { breadcrumbsOf, firstProductsOf, itemsOf, totalProductsCountOf } from './catalogue.relations.js';
import { countProductCategories, listProductCategories } from './list-product-categories.js';

export interface CategoryPageInput extends CategoryFilter, CategoryPage {
  /** Products embedded per category; none when null. */
  productsLimit: number | null;
}

interface ListedProduct {
  product: Product;
  items: ProductItem[];
}

interface ListedCategory {
  category: ProductCategory;
  breadcrumbs: Breadcrumb[];
  /** Every available product of the category, however many are embedded. */
  totalProductsCount: number;
  products?: ListedProduct[];
}

export interface ProductCategoryPage {
  /** Categories matching the filters, over all pages. */
  total: number;
  categories: ListedCategory[];
}

export async function listProductCategoryPage(ctx: Context, input: CategoryPageInput): Promise<ProductCategoryPage> {
  const productsLimit = input.productsLimit === null ? null : checkProductsLimit(input.productsLimit);
  const [categories, total] = await Promise.all([
    listProductCategories(ctx, input, { page: input.page, limit: input.limit }),
    countProductCategories(ctx, input),
  ]);
  const listed = await Promise.all(
    categories.map(async (category): Promise<ListedCategory> => {
      const [breadcrumbs, totalProductsCount, products] = await Promise.all([
        breadcrumbsOf(ctx, category),
        totalProductsCountOf(ctx, category),
        productsLimit === null ? undefined : productsWithItems(ctx, category, productsLimit),
      ]);
      return { category, breadcrumbs, totalProductsCount, ...(products ? { products } : {}) };
    }),
  );
  return { total, categories: listed };
}

async function productsWithItems(ctx: Context, category: ProductCategory, first: number): Promise<ListedProduct[]> {
  const products = await firstProductsOf(ctx, category, first);
  return Promise.all(products.map(async (product) => ({ product, items: await itemsOf(ctx, product) })));
}
