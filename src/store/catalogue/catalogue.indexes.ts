// Every index the catalogue and cart rely on: one per lookup that is not by `_id`.
import type { IndexDef } from '../index-def.js';

export const catalogueIndexes: IndexDef[] = [
  // productCategories / GET /cms/product/categories: available (always given), then parent or featured, in tree order
  {
    collection: 'productCategories',
    key: { available: 1, parentCategoryId: 1, sortPath: 1 },
    options: { name: 'product_categories_parent' },
  },
  {
    collection: 'productCategories',
    key: { available: 1, featured: 1, sortPath: 1 },
    options: { name: 'product_categories_featured' },
  },
  { collection: 'productCategories', key: { available: 1, sortPath: 1 }, options: { name: 'product_categories_tree' } },
  // productCategory(slug:): a category page by its slug
  { collection: 'productCategories', key: { slug: 1, sortPath: 1 }, options: { name: 'product_categories_slug' } },
  // ProductCategory.products and totalProductsCount (categoryIds is an array: multikey)
  {
    collection: 'products',
    key: { categoryIds: 1, available: 1, order: 1, _id: 1 },
    options: { name: 'products_category' },
  },
  // Product.productItems
  { collection: 'productItems', key: { productId: 1, order: 1, _id: 1 }, options: { name: 'product_items_product' } },
  // Coupon codes are what customers type: one coupon per code
  { collection: 'coupons', key: { code: 1 }, options: { name: 'coupons_code', unique: true } },
  // viewer { carts }: the customer's carts, most recently changed first
  { collection: 'carts', key: { customerId: 1, updatedAt: -1, _id: 1 }, options: { name: 'carts_customer' } },
];
