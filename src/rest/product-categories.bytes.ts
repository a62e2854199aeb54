// The byte writer of GET /cms/product/categories (product-categories.listing.ts reads what it writes): the
// products and items as raw BSON, indexed by the fields it reads, and written straight out as the JSON bytes
// `JSON.stringify` gives over the mapper's objects (toProduct + restProduct, toProductItem + restItem, in their
// key order). A document whose bytes alone cannot vouch for that throws `Unusual`.
import { toDecimal, toDecimalOrNull } from '../pricing/index.js';
import type { Breadcrumb, ProductCategory } from '../schema/catalogue/product-category.type.js';
import { isAbsent, isDocument, isString, keyIs, memberOf, stringAt, Unusual, type Element } from './bson-elements.js';
import { writeDocument, writeSpread } from './bson-json.js';
import { JsonOut } from './json-out.js';
import { restCategory } from './product-categories.present.js';
import {
  K,
  localised,
  Members,
  minor,
  NAME,
  nullOrSpread,
  spreadEach,
  translations,
} from './product-categories.members.js';
import { I, P, type Listing, type RawItem } from './product-categories.raw.js';

const PRODUCTS_OPEN = Buffer.from(',"products":[');
const CLOSE_LIST_AND_OBJECT = Buffer.from(']}');

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
