// The byte writer of GET /cms/product/categories (product-categories.listing.ts reads what it writes): the
// products and items as raw BSON, indexed by the fields it reads, and written straight out as the JSON bytes
// `JSON.stringify` gives over the mapper's objects (toProduct + restProduct, toProductItem + restItem, in their
// key order). A document whose bytes alone cannot vouch for that throws `Unusual`.
import { toDecimal, toDecimalOrNull } from '../pricing/index.js';
import type { Breadcrumb, ProductCategory } from '../schema/catalogue/product-category.type.js';
import { DEFAULT_LANGUAGE } from '../store/catalogue/catalogue.mapper.js';
import {
  eachItem,
  eachMember,
  FieldSet,
  isAbsent,
  isArray,
  isDocument,
  isNonEmptyString,
  isNullish,
  isString,
  keyIs,
  memberOf,
  numberAt,
  stringAt,
  Unusual,
  type Element,
} from './bson-elements.js';
import { writeDocument, writeSpread, writeValue } from './bson-json.js';
import { JsonOut, keyBytes } from './json-out.js';
import { restCategory } from './product-categories.present.js';

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
const P = PRODUCT.slot;
const I = ITEM.slot;

/** `"key":` for every key the writer emits. */
const K = Object.fromEntries(
  [
    ...Object.keys(P),
    ...Object.keys(I),
    'id',
    'productItems',
    'label1',
    'label2',
    'label3',
    'productDetails',
    'productName',
    'itemIds',
    'web',
    'mobile',
    'compareAt',
    'recurrentPrice',
    'recurrentSchedule',
  ].map((k) => [k, keyBytes(k)]),
) as Record<string, Buffer>;
/** Stored field names looked up inside sub-documents. */
const NAME = Object.fromEntries(
  [
    'description',
    'label1',
    'label2',
    'label3',
    'name',
    'subtitle',
    'web',
    'mobile',
    'compareAt',
    'itemIds',
    'recurrentPrice',
  ].map((k) => [k, Buffer.from(k)]),
) as Record<string, Buffer>;

const PRODUCTS_OPEN = Buffer.from(',"products":[');
const CLOSE_LIST_AND_OBJECT = Buffer.from(']}');

/** Members of one JSON object, commas between them; an undefined value leaves its key out as JSON.stringify does. */
class Members {
  private first = true;
  constructor(private readonly out: JsonOut) {}

  key(key: Buffer): JsonOut {
    if (!this.first) this.out.byte(0x2c);
    this.first = false;
    this.out.bytes(key);
    return this.out;
  }

  /** A stored value as it is. */
  copy(key: Buffer, buf: Buffer, e: Element): void {
    if (!isAbsent(e)) writeValue(this.key(key), buf, e);
  }

  /** A computed value. */
  value(key: Buffer, value: unknown): void {
    if (value !== undefined) this.key(key).json(value);
  }
}

export function writeAnswer(
  categories: ProductCategory[],
  breadcrumbs: Breadcrumb[][],
  listing: Listing,
  items: Map<string, RawItem[]>,
  lang: string | null,
): Buffer {
  const out = new JsonOut(estimate(listing, items));
  const written = new Map<number, [number, number]>();
  out.byte(0x5b);
  categories.forEach((category, c) => {
    if (c) out.byte(0x2c);
    const fields = JSON.stringify(
      restCategory(category, { breadcrumbs: breadcrumbs[c]!, totalProductsCount: listing.lists[c]!.length }),
    );
    out.text(fields.slice(0, -1));
    out.bytes(PRODUCTS_OPEN);
    listing.lists[c]!.forEach((p, n) => {
      if (n) out.byte(0x2c);
      const done = written.get(p);
      if (done) return out.repeat(done[0], done[1]);
      const start = out.pos;
      writeProduct(out, listing, p, items, lang);
      written.set(p, [start, out.pos]);
    });
    out.bytes(CLOSE_LIST_AND_OBJECT);
  });
  out.byte(0x5d);
  return out.result();
}

/** JSON of these documents is about as long as their BSON (1.05 times on the seeded catalogue). */
function estimate(listing: Listing, items: Map<string, RawItem[]>): number {
  let bytes = 1 << 16;
  for (const p of listing.products) bytes += p.length;
  for (const list of items.values()) for (const item of list) bytes += item.bytes.length;
  return Math.ceil(bytes * 1.15);
}

/** toProduct + restProduct, in their key order. */
function writeProduct(
  out: JsonOut,
  listing: Listing,
  p: number,
  items: Map<string, RawItem[]>,
  lang: string | null,
): void {
  const buf = listing.products[p]!;
  const f = listing.fields[p]!;
  const m = new Members(out.opened(0x7b));
  m.copy(K.id!, buf, f[P._id]!);
  m.copy(K.name!, buf, f[P.name]!);
  m.copy(K.subtitle!, buf, f[P.subtitle]!);
  m.copy(K.teaser!, buf, f[P.teaser]!);
  localised(m, K.description!, buf, f[P.description]!, f[P.translatedTexts]!, lang, NAME.description!);
  m.copy(K.text!, buf, f[P.text]!);
  nullOrSpread(m, K.brand!, buf, f[P.brand]!);
  m.copy(K.url!, buf, f[P.url]!);
  m.copy(K.learnMoreLink!, buf, f[P.learnMoreLink]!);
  writeSpread(m.key(K.settings!), buf, f[P.settings]!);
  m.copy(K.available!, buf, f[P.available]!);
  m.copy(K.categoryIds!, buf, f[P.categoryIds]!);
  translations(m.key(K.translatedTexts!), buf, f[P.translatedTexts]!, ['description', 'label1', 'label2', 'label3']);
  const list = m.key(K.productItems!).opened(0x5b);
  (items.get(stringAt(buf, f[P._id]!)!) ?? []).forEach((item, n) => {
    if (n) list.byte(0x2c);
    writeItem(out, item, buf, f[P.name]!, lang);
  });
  out.byte(0x5d);
  out.byte(0x7d);
}

/** toProductItem + restItem, in their key order; `productName` is the product's (untranslated) name. */
function writeItem(out: JsonOut, item: RawItem, productBuf: Buffer, productName: Element, lang: string | null): void {
  const { bytes: buf, fields: f } = item;
  const currency = f[I.currency]!;
  if (!isAbsent(currency) && !isString(currency)) throw new Unusual('a currency that is not a string');
  const code = stringAt(buf, currency)!;
  const money = (e: Element) => toDecimal(minor(buf, e)!, code);
  const maybe = (e: Element) => toDecimalOrNull(minor(buf, e), code);
  const m = new Members(out.opened(0x7b));
  m.copy(K.id!, buf, f[I._id]!);
  localised(m, K.name!, buf, f[I.name]!, f[I.translations]!, lang, NAME.name!);
  localised(m, K.subtitle!, buf, f[I.subtitle]!, f[I.translations]!, lang, NAME.subtitle!);
  m.copy(K.description!, buf, f[I.description]!);
  m.copy(K.productId!, buf, f[I.productId]!);
  m.value(K.price!, money(f[I.price]!));
  m.copy(K.currency!, buf, currency);
  m.copy(K.available!, buf, f[I.available]!);
  m.copy(K.order!, buf, f[I.order]!);
  m.copy(K.shippable!, buf, f[I.shippable]!);
  m.copy(K.weight!, buf, f[I.weight]!);
  nullOrSpread(m, K.installments!, buf, f[I.installments]!);
  m.copy(K.oncePerUser!, buf, f[I.oncePerUser]!);
  m.copy(K.isUpgrade!, buf, f[I.isUpgrade]!);
  m.copy(K.upgradeType!, buf, f[I.upgradeType]!);
  m.copy(K.upgradeFrom!, buf, f[I.upgradeFrom]!);
  m.copy(K.upgradeExcludeItems!, buf, f[I.upgradeExcludeItems]!);
  m.value(K.upgradePriceWeb!, maybe(f[I.upgradePriceWeb]!));
  m.value(K.upgradePriceMobile!, maybe(f[I.upgradePriceMobile]!));
  // { ...settings, recurrentPrice: maybe(settings.recurrentPrice), recurrentSchedule: settings.recurrentSchedule }
  const settings = f[I.settings]!;
  if (!isDocument(settings)) throw new Unusual('item settings that are not a document');
  let recurrentPrice = false;
  const settingsOut = m.key(K.settings!);
  writeDocument(settingsOut, buf, settings, (k, ke, value) => {
    if (!keyIs(buf, k, ke, NAME.recurrentPrice!)) return false;
    recurrentPrice = true;
    settingsOut.json(maybe(value));
    return true;
  });
  if (!recurrentPrice) {
    // Not stored: the mapper appends it (null) after the stored members.
    settingsOut.pos--;
    if (settingsOut.buf[settingsOut.pos - 1] !== 0x7b) settingsOut.byte(0x2c);
    settingsOut.bytes(K.recurrentPrice!);
    settingsOut.text('null}');
  }
  m.copy(K.sku!, buf, f[I.sku]!);
  const prices = f[I.prices]!;
  if (!isDocument(prices)) throw new Unusual('prices that are not a document');
  const pm = new Members(m.key(K.prices!).opened(0x7b));
  pm.value(K.web!, money(memberOf(buf, prices, NAME.web!)));
  pm.value(K.mobile!, money(memberOf(buf, prices, NAME.mobile!)));
  pm.value(K.compareAt!, maybe(memberOf(buf, prices, NAME.compareAt!)));
  out.byte(0x7d);
  m.copy(K.stockEnabled!, buf, f[I.stockEnabled]!);
  m.copy(K.stockAvailable!, buf, f[I.stockAvailable]!);
  m.copy(K.packageQuantity!, buf, f[I.packageQuantity]!);
  spreadEach(m.key(K.images!), buf, f[I.images]!);
  spreadEach(m.key(K.files!), buf, f[I.files]!);
  new Members(m.key(K.productDetails!).opened(0x7b)).copy(K.id!, buf, f[I.productId]!);
  out.byte(0x7d);
  spreadEach(m.key(K.actionDataOnPurchase!), buf, f[I.actionDataOnPurchase]!);
  spreadEach(m.key(K.actionDataOnRenewalPurchase!), buf, f[I.actionDataOnRenewalPurchase]!);
  m.copy(K.productName!, productBuf, productName);
  const related = f[I.relatedItems]!;
  if (!isDocument(related)) throw new Unusual('relatedItems that are not a document');
  new Members(m.key(K.relatedItems!).opened(0x7b)).copy(K.itemIds!, buf, memberOf(buf, related, NAME.itemIds!));
  out.byte(0x7d);
  translations(m.key(K.translations!), buf, f[I.translations]!, ['name', 'subtitle']);
  out.byte(0x7d);
}

/** Amounts in minor units: a number, or undefined / null as stored; anything else is Unusual. */
function minor(buf: Buffer, e: Element): number | null | undefined {
  if (isAbsent(e)) return undefined;
  if (isNullish(e)) return null;
  const n = numberAt(buf, e);
  if (n === undefined) throw new Unusual('an amount that is not a number');
  return n;
}

/** `doc.x ? { ...doc.x } : null` */
function nullOrSpread(m: Members, key: Buffer, buf: Buffer, e: Element): void {
  if (isNullish(e)) return m.value(key, null);
  writeSpread(m.key(key), buf, e);
}

/** `doc.list.map((x) => ({ ...x }))` */
function spreadEach(out: JsonOut, buf: Buffer, e: Element): void {
  if (!isArray(e)) throw new Unusual('a list that is not an array');
  out.byte(0x5b);
  eachItem(buf, e, (x, n) => {
    if (n) out.byte(0x2c);
    writeSpread(out, buf, x);
  });
  out.byte(0x5d);
}

/** `localise(base, translations, lang, field)` of the mapper. */
function localised(
  m: Members,
  key: Buffer,
  buf: Buffer,
  base: Element,
  translationsOf: Element,
  lang: string | null,
  field: Buffer,
): void {
  if (!lang || lang === DEFAULT_LANGUAGE) return m.copy(key, buf, base);
  if (!isDocument(translationsOf)) throw new Unusual('translations that are not a document');
  const t = memberOf(buf, translationsOf, languageKey(lang));
  if (!isNullish(t)) {
    if (!isDocument(t)) throw new Unusual('a translation that is not a document');
    const value = memberOf(buf, t, field);
    if (isNonEmptyString(buf, value)) return m.copy(key, buf, value);
  }
  m.copy(key, buf, base);
}

const languageKeys = new Map<string, Buffer>();
const languageKey = (lang: string): Buffer => {
  let key = languageKeys.get(lang);
  if (!key) languageKeys.set(lang, (key = Buffer.from(lang)));
  return key;
};

/** `keyed(entries(translations).map(([language, t]) => ({ language, a: t.a ?? null, ... })))` */
function translations(out: JsonOut, buf: Buffer, e: Element, fields: string[]): void {
  if (!isDocument(e)) throw new Unusual('translations that are not a document');
  const languages: Array<[string, Element]> = [];
  eachMember(buf, e, (language, t) => languages.push([language, t]));
  languages.sort(([a], [b]) => (a < b ? -1 : 1));
  const m = new Members(out.opened(0x7b));
  for (const [language, t] of languages) {
    if (!isDocument(t)) throw new Unusual('a translation that is not a document');
    const tm = new Members(m.key(keyBytes(language)).opened(0x7b));
    for (const field of fields) {
      const value = memberOf(buf, t, NAME[field]!);
      if (isNullish(value)) tm.value(K[field]!, null);
      else tm.copy(K[field]!, buf, value);
    }
    out.byte(0x7d);
  }
  out.byte(0x7d);
}
