// Use cases: one product or one product item by id, localised; null when there is none.
import type { Context } from '../../context.js';
import type { ProductItem } from '../../schema/catalogue/product-item.type.js';
import type { Product } from '../../schema/catalogue/product.type.js';
import { productById, productItemById } from '../../store/catalogue/catalogue.loaders.js';
import { toProduct, toProductItem } from '../../store/catalogue/catalogue.mapper.js';
import { checkId, checkLang } from './catalogue.input.js';

export async function getProduct(ctx: Context, id: string, lang?: string | null): Promise<Product | null> {
  const doc = await ctx.loaders.get(productById).load(checkId(id, 'id'));
  return doc ? toProduct(doc, checkLang(lang)) : null;
}

export async function getProductItem(ctx: Context, id: string, lang?: string | null): Promise<ProductItem | null> {
  const doc = await ctx.loaders.get(productItemById).load(checkId(id, 'id'));
  return doc ? toProductItem(doc, checkLang(lang)) : null;
}
