// Use case: the product categories matching the list's filters (docs/api.md), in tree order, localised.
import type { Document } from 'mongodb';
import type { Context } from '../../context.js';
import type { ProductCategory } from '../../schema/catalogue/product-category.type.js';
import { categoryById } from '../../store/catalogue/catalogue.loaders.js';
import { categoryProjection } from '../../store/catalogue/catalogue.projections.js';
import { toProductCategory } from '../../store/catalogue/catalogue.mapper.js';
import { checkCategoryFilter, type CategoryFilter } from './catalogue.input.js';

/** A catalogue has tens to hundreds of categories; this bound only stops a runaway answer. */
const MAX_CATEGORIES = 1000;

export async function listProductCategories(ctx: Context, input: CategoryFilter): Promise<ProductCategory[]> {
  const filter = checkCategoryFilter(input);
  const query: Document = { available: filter.available };
  if (filter.parentId !== undefined) query.parentCategoryId = filter.parentId === 'root' ? null : filter.parentId;
  if (filter.featured !== undefined) query.featured = filter.featured;
  const docs = await ctx.store
    .collection('productCategories')
    .find(query, { projection: categoryProjection, sort: { sortPath: 1 }, limit: MAX_CATEGORIES })
    .toArray();
  // Later lookups of the same categories (breadcrumbs) come from the loader's cache.
  const byId = ctx.loaders.get(categoryById);
  for (const doc of docs) byId.prime(doc._id, doc);
  return docs.map((doc) => toProductCategory(doc, filter.lang));
}
