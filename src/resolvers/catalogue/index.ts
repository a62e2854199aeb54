// The catalogue and cart resolver classes, registered together in src/resolvers/index.ts.
import { CartResolver, ViewerResolver } from './cart.resolver.js';
import { ProductCategoryResolver } from './product-category.resolver.js';
import { ProductItemFieldsResolver, ProductItemResolver, RelatedItemsResolver } from './product-item.resolver.js';
import { ProductResolver } from './product.resolver.js';

export const catalogueResolvers = [
  ProductCategoryResolver,
  ProductResolver,
  ProductItemResolver,
  ProductItemFieldsResolver,
  RelatedItemsResolver,
  CartResolver,
  ViewerResolver,
] as const;
