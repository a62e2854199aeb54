// The products and items of the category list as raw BSON, indexed by the fields the byte writer
// (product-categories.bytes.ts) reads: which products each category lists, and each product's items in order.
import type { ProductCategory } from '../schema/catalogue/product-category.type.js';
import { eachItem, FieldSet, isArray, isString, numberAt, stringAt, Unusual, type Element } from './bson-elements.js';

export interface RawItem {
  bytes: Buffer;
  fields: Element[];
  id: string;
  order: number;
}

/** The items of each product in item order (`order`, then `_id`, as the catalogue loader sorts them). */
export function itemsByProduct(productIds: string[], docs: Buffer[]): Map<string, RawItem[]> {
  const byProduct = new Map<string, RawItem[]>(productIds.map((id) => [id, []]));
  for (const bytes of docs) {
    const fields = ITEM.index(bytes);
    const productId = stringAt(bytes, fields[I.productId]!);
    const id = stringAt(bytes, fields[I._id]!);
    const order = numberAt(bytes, fields[I.order]!);
    if (productId === undefined || id === undefined || order === undefined)
      throw new Unusual('an item without a string productId or _id or a numeric order');
    byProduct.get(productId)?.push({ bytes, fields, id, order });
  }
  for (const list of byProduct.values())
    list.sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return byProduct;
}

export interface Listing {
  /** Per category (in answer order), indexes into the products read, in listing order. */
  lists: number[][];
  productIds: string[];
  products: Buffer[];
  fields: Element[][];
}

/** Which products each category lists: every product read whose `categoryIds` holds the category's id. */
export function listProducts(categories: ProductCategory[], products: Buffer[]): Listing {
  const position = new Map(categories.map((c, i) => [c.id, i]));
  const lists: number[][] = categories.map(() => []);
  const fields = products.map((bytes) => PRODUCT.index(bytes));
  const productIds: string[] = [];
  products.forEach((bytes, p) => {
    const id = stringAt(bytes, fields[p]![P._id]!);
    const categoryIds = fields[p]![P.categoryIds]!;
    if (id === undefined || !isArray(categoryIds))
      throw new Unusual('a product without a string _id or a categoryIds array');
    productIds.push(id);
    eachItem(bytes, categoryIds, (e) => {
      const at = isString(e) ? position.get(stringAt(bytes, e)!) : undefined;
      if (at === undefined) return;
      const list = lists[at]!;
      if (list[list.length - 1] !== p) list.push(p);
    });
  });
  return { lists, productIds: [...new Set(productIds)], products, fields };
}

const PRODUCT = new FieldSet([
  '_id',
  'name',
  'subtitle',
  'teaser',
  'description',
  'text',
  'brand',
  'url',
  'learnMoreLink',
  'settings',
  'available',
  'categoryIds',
  'translatedTexts',
] as const);
const ITEM = new FieldSet([
  '_id',
  'name',
  'subtitle',
  'description',
  'productId',
  'price',
  'currency',
  'available',
  'order',
  'shippable',
  'weight',
  'installments',
  'oncePerUser',
  'isUpgrade',
  'upgradeType',
  'upgradeFrom',
  'upgradeExcludeItems',
  'upgradePriceWeb',
  'upgradePriceMobile',
  'settings',
  'sku',
  'prices',
  'stockEnabled',
  'stockAvailable',
  'packageQuantity',
  'relatedItems',
  'images',
  'files',
  'translations',
  'actionDataOnPurchase',
  'actionDataOnRenewalPurchase',
] as const);
export const P = PRODUCT.slot;
export const I = ITEM.slot;
