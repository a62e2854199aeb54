// Use case: one product category by id or by slug (exactly one), localised; null when there is none. The
// category page's entry point: its products are paged through the same `products` connection as everywhere.
import type { Context } from '../../context.js';
import type { ProductCategory } from '../../schema/catalogue/product-category.type.js';
import { categoryById, categoryBySlug } from '../../store/catalogue/catalogue.loaders.js';
import { toProductCategory } from '../../store/catalogue/catalogue.mapper.js';
import { oneOf } from '../content/articles.js';
import { checkLang } from './catalogue.input.js';

export async function getProductCategory(
  ctx: Context,
  args: { id?: string | null; slug?: string | null; lang?: string | null },
): Promise<ProductCategory | null> {
  const key = oneOf(args);
  const lang = checkLang(args.lang);
  const doc =
    'id' in key
      ? await ctx.loaders.get(categoryById).load(key.id)
      : await ctx.loaders.get(categoryBySlug).load(key.slug);
  return doc ? toProductCategory(doc, lang) : null;
}
