// REST shapes of catalogue and cart objects: translations keyed by language (docs/api.md), nested
// objects assembled through the same loader-backed relations GraphQL uses, internal fields left out.
import type { Context } from '../context.js';
import { cartItemsOf } from '../operations/cart/cart.relations.js';
import { productNameOf } from '../operations/catalogue/catalogue.relations.js';
import type { ListedCategory } from '../operations/catalogue/list-product-category-page.js';
import type { Cart } from '../schema/catalogue/cart.type.js';
import type { Breadcrumb, ProductCategory } from '../schema/catalogue/product-category.type.js';
import type { ProductItem } from '../schema/catalogue/product-item.type.js';
import type { Product } from '../schema/catalogue/product.type.js';

/**
 * `value` without `keys`, its other fields in their order. A plain copy: rest destructuring (`{ a, ...fields }`)
 * of these wide objects cost several times as much, and a page shapes hundreds of them.
 */
function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy: Partial<T> = {};
  for (const key in value) if (!keys.includes(key as unknown as K)) copy[key] = value[key];
  return copy as Omit<T, K>;
}

function keyed<T extends { language: string }>(list: T[]): Record<string, Omit<T, 'language'>> {
  return Object.fromEntries(list.map((entry) => [entry.language, without(entry, 'language')]));
}

function restItem(item: ProductItem, productName: string | null) {
  return Object.assign(without(item, 'lang', 'relatedItems', 'translations'), {
    productName,
    relatedItems: { itemIds: item.relatedItems.itemIds },
    translations: keyed(item.translations),
  });
}

export function restProduct(product: Product, items: ProductItem[]) {
  return Object.assign(without(product, 'lang', 'translatedTexts'), {
    translatedTexts: keyed(product.translatedTexts),
    productItems: items.map((i) => restItem(i, product.name)),
  });
}

/** A category's REST fields; `products` (last) only when the caller asked for them. */
export function restCategory(
  category: ProductCategory,
  related: { breadcrumbs: Breadcrumb[]; totalProductsCount: number; products?: unknown[] },
) {
  return Object.assign(without(category, 'lang', 'ancestorIds', 'translations'), {
    totalProductsCount: related.totalProductsCount,
    breadcrumbs: related.breadcrumbs,
    translations: keyed(category.translations),
    ...(related.products ? { products: related.products } : {}),
  });
}

/** One listed category's REST representation as JSON bytes: an element of the category list's array. */
export function restCategoryBytes({ category, breadcrumbs, totalProductsCount, products }: ListedCategory): Buffer {
  return Buffer.from(
    JSON.stringify(
      restCategory(category, {
        breadcrumbs,
        totalProductsCount,
        products: products?.map(({ product, items }) => restProduct(product, items)),
      }),
    ),
  );
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** A JSON array of elements already written as JSON: the bytes `JSON.stringify` gives for the array itself. */
export function jsonArray(elements: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [OPEN];
  elements.forEach((element, i) => parts.push(...(i > 0 ? [COMMA] : []), element));
  parts.push(CLOSE);
  return Buffer.concat(parts);
}

/** The legacy cart: items and coupons keep the ids they had (the product item's, the coupon's), not GraphQL's. */
export async function restCart(ctx: Context, cart: Cart) {
  const items = await cartItemsOf(ctx, cart);
  const names = await Promise.all(items.map((i) => productNameOf(ctx, i)));
  const { coupons, ...matrix } = cart.priceMatrix;
  return {
    id: cart.id,
    items: items.map(({ quantity, productItemId, ...item }, i) => ({
      ...restItem({ ...item, id: productItemId }, names[i]!),
      quantity,
    })),
    priceMatrix: { ...matrix, coupons: coupons.map(({ couponId, ...coupon }) => ({ ...coupon, id: couponId })) },
  };
}
