// REST shapes of catalogue and cart objects: translations keyed by language (CONTRACT.md §1), nested
// objects assembled through the same loader-backed relations GraphQL uses, internal fields left out.
import type { Context } from '../context.js';
import { cartItemsOf } from '../operations/cart/cart.relations.js';
import { allProductsOf, breadcrumbsOf, itemsOf, productNameOf, totalProductsCountOf } from '../operations/catalogue/catalogue.relations.js';
import type { Cart } from '../schema/catalogue/cart.type.js';
import type { ProductCategory } from '../schema/catalogue/product-category.type.js';
import type { ProductItem } from '../schema/catalogue/product-item.type.js';
import type { Product } from '../schema/catalogue/product.type.js';

function keyed<T extends { language: string }>(list: T[]): Record<string, Omit<T, 'language'>> {
  return Object.fromEntries(list.map(({ language, ...rest }) => [language, rest]));
}

function restItem(item: ProductItem, productName: string | null) {
  const { lang: _lang, relatedItems, translations, ...fields } = item;
  return { ...fields, productName, relatedItems: { itemIds: relatedItems.itemIds }, translations: keyed(translations) };
}

async function restProduct(ctx: Context, product: Product) {
  const { lang: _lang, translatedTexts, ...fields } = product;
  const items = await itemsOf(ctx, product);
  return { ...fields, translatedTexts: keyed(translatedTexts), productItems: items.map((i) => restItem(i, product.name)) };
}

export async function restCategory(ctx: Context, category: ProductCategory, opts: { includeProducts: boolean }) {
  const { lang: _lang, ancestorIds: _ancestors, translations, ...fields } = category;
  const [breadcrumbs, totalProductsCount, products] = await Promise.all([
    breadcrumbsOf(ctx, category),
    totalProductsCountOf(ctx, category),
    opts.includeProducts ? allProductsOf(ctx, category) : undefined,
  ]);
  return {
    ...fields,
    totalProductsCount,
    breadcrumbs,
    translations: keyed(translations),
    ...(products ? { products: await Promise.all(products.map((p) => restProduct(ctx, p))) } : {}),
  };
}

export async function restCart(ctx: Context, cart: Cart) {
  const items = await cartItemsOf(ctx, cart);
  const names = await Promise.all(items.map((i) => productNameOf(ctx, i)));
  return {
    id: cart.id,
    items: items.map(({ quantity, ...item }, i) => ({ ...restItem(item, names[i]!), quantity })),
    priceMatrix: cart.priceMatrix,
  };
}
