// Use cases: the product categories matching the list's filters (docs/api.md), in tree order, localised, whole
// or one page of them; and how many match.
import type { Collection, Document } from 'mongodb';
import type { Context } from '../../context.js';
import type { ProductCategory } from '../../schema/catalogue/product-category.type.js';
import type { ProductCategoryDoc } from '../../store/catalogue/catalogue.docs.js';
import { categoryById } from '../../store/catalogue/catalogue.loaders.js';
import { categoryProjection } from '../../store/catalogue/catalogue.projections.js';
import { toProductCategory } from '../../store/catalogue/catalogue.mapper.js';
import { findAll } from '../../store/read.js';
import { checkCategoryFilter, checkCategoryPage, type CategoryFilter, type CategoryPage } from './catalogue.input.js';

/** A catalogue has tens to hundreds of categories; this bound only stops a runaway answer. */
const MAX_CATEGORIES = 1000;

/** The store filter of a category list; each combination is served by one of the catalogue's category indexes. */
function storeFilter(filter: CategoryFilter): Document {
  const query: Document = { available: filter.available };
  if (filter.parentId !== undefined) query.parentCategoryId = filter.parentId === 'root' ? null : filter.parentId;
  if (filter.featured !== undefined) query.featured = filter.featured;
  return query;
}

/** Every matching category (at most 1,000), or only those of `page`. */
export async function listProductCategories(
  ctx: Context,
  input: CategoryFilter,
  paging?: CategoryPage,
): Promise<ProductCategory[]> {
  const filter = checkCategoryFilter(input);
  const page = paging && checkCategoryPage(paging);
  const docs = await findAll<ProductCategoryDoc>(
    ctx.store.collection('productCategories') as unknown as Collection<ProductCategoryDoc>,
    storeFilter(filter),
    {
      projection: categoryProjection,
      sort: { sortPath: 1 },
      skip: page ? (page.page - 1) * page.limit : 0,
      limit: page?.limit ?? MAX_CATEGORIES,
    },
  );
  // Later lookups of the same categories (breadcrumbs) come from the loader's cache.
  const byId = ctx.loaders.get(categoryById);
  for (const doc of docs) byId.prime(doc._id, doc);
  return docs.map((doc) => toProductCategory(doc, filter.lang));
}

/** How many categories the filters match, counted on the same index the list reads. */
export function countProductCategories(ctx: Context, input: CategoryFilter): Promise<number> {
  return ctx.store.collection('productCategories').countDocuments(storeFilter(checkCategoryFilter(input)));
}
