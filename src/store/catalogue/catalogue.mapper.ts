// The one mapper from stored catalogue and cart documents to their API shapes: money to decimals,
// translations to lists, texts localised to the requested language with a fallback to the default one.
import { toDecimal, toDecimalOrNull } from '../../pricing/index.js';
import type { CategorySettingType, CouponReason, RecurrentSchedule } from '../../schema/catalogue/catalogue.enums.js';
import type { Cart, PriceMatrix } from '../../schema/catalogue/cart.type.js';
import type { ProductCategory } from '../../schema/catalogue/product-category.type.js';
import type { ProductItem } from '../../schema/catalogue/product-item.type.js';
import type { Product } from '../../schema/catalogue/product.type.js';
import { memberId } from '../member-ids.js';
import type {
  CartDoc,
  PriceMatrixDoc,
  ProductCategoryDoc,
  ProductDoc,
  ProductItemDoc,
  Translations,
} from './catalogue.docs.js';

/** The language untranslated catalogue texts are written in. */
const DEFAULT_LANGUAGE = 'en';

/** The text in `lang` when the translation has a non-empty one, else the default-language text. */
function localise<T extends object, K extends keyof T>(
  base: string | null,
  translations: Translations<T>,
  lang: string | null,
  key: K,
): string | null {
  if (!lang || lang === DEFAULT_LANGUAGE) return base;
  const value = translations[lang]?.[key];
  return typeof value === 'string' && value !== '' ? value : base;
}

const entries = <T extends object>(translations: Translations<T>) =>
  Object.entries(translations).sort(([a], [b]) => (a < b ? -1 : 1)) as Array<[string, T]>;

export function toProductCategory(doc: ProductCategoryDoc, lang: string | null): ProductCategory {
  return {
    id: doc._id,
    name: localise(doc.name, doc.translations, lang, 'name')!,
    description: localise(doc.description, doc.translations, lang, 'description'),
    parentCategoryId: doc.parentCategoryId,
    url: doc.url,
    available: doc.available,
    featured: doc.featured,
    imageUrl: doc.imageUrl,
    coverPhotoUrl: doc.coverPhotoUrl,
    logoUrl: doc.logoUrl,
    slug: doc.slug,
    settings: doc.settings.map((s) => ({ name: s.name, key: s.key, type: s.type as CategorySettingType })),
    translations: entries(doc.translations).map(([language, t]) => ({
      language,
      name: t.name ?? null,
      description: t.description ?? null,
    })),
    lang,
    ancestorIds: doc.ancestorIds,
  };
}

export function toProduct(doc: ProductDoc, lang: string | null): Product {
  return {
    id: doc._id,
    name: doc.name,
    subtitle: doc.subtitle,
    teaser: doc.teaser,
    description: localise(doc.description, doc.translatedTexts, lang, 'description'),
    text: doc.text,
    brand: doc.brand ? { ...doc.brand } : null,
    url: doc.url,
    learnMoreLink: doc.learnMoreLink,
    settings: { ...doc.settings },
    translatedTexts: entries(doc.translatedTexts).map(([language, t]) => ({
      language,
      description: t.description ?? null,
      label1: t.label1 ?? null,
      label2: t.label2 ?? null,
      label3: t.label3 ?? null,
    })),
    available: doc.available,
    categoryIds: doc.categoryIds,
    lang,
  };
}

export function toProductItem(doc: ProductItemDoc, lang: string | null): ProductItem {
  const money = (minor: number) => toDecimal(minor, doc.currency);
  const maybe = (minor: number | null) => toDecimalOrNull(minor, doc.currency);
  return {
    id: doc._id,
    name: localise(doc.name, doc.translations, lang, 'name')!,
    subtitle: localise(doc.subtitle, doc.translations, lang, 'subtitle'),
    description: doc.description,
    productId: doc.productId,
    price: money(doc.price),
    currency: doc.currency,
    available: doc.available,
    order: doc.order,
    shippable: doc.shippable,
    weight: doc.weight,
    installments: doc.installments ? { ...doc.installments } : null,
    oncePerUser: doc.oncePerUser,
    isUpgrade: doc.isUpgrade,
    upgradeType: doc.upgradeType,
    upgradeFrom: doc.upgradeFrom,
    upgradeExcludeItems: doc.upgradeExcludeItems,
    upgradePriceWeb: maybe(doc.upgradePriceWeb),
    upgradePriceMobile: maybe(doc.upgradePriceMobile),
    settings: {
      ...doc.settings,
      recurrentPrice: maybe(doc.settings.recurrentPrice),
      recurrentSchedule: doc.settings.recurrentSchedule as RecurrentSchedule | null,
    },
    sku: doc.sku,
    prices: { web: money(doc.prices.web), mobile: money(doc.prices.mobile), compareAt: maybe(doc.prices.compareAt) },
    stockEnabled: doc.stockEnabled,
    stockAvailable: doc.stockAvailable,
    packageQuantity: doc.packageQuantity,
    relatedItems: { itemIds: doc.relatedItems.itemIds, lang },
    images: doc.images.map((i) => ({ ...i })),
    files: doc.files.map((f) => ({ ...f })),
    productDetails: { id: doc.productId },
    translations: entries(doc.translations).map(([language, t]) => ({
      language,
      name: t.name ?? null,
      subtitle: t.subtitle ?? null,
    })),
    actionDataOnPurchase: doc.actionDataOnPurchase.map((a) => ({ ...a })),
    actionDataOnRenewalPurchase: doc.actionDataOnRenewalPurchase.map((a) => ({ ...a })),
    lang,
  };
}

/** The graph-wide id of a coupon as applied to one cart (src/store/member-ids.ts). */
const cartCouponId = (cartId: string, couponId: string): string => memberId('CartCoupon', cartId, couponId);

/** The graph-wide id of a product item as held in one cart. */
export const cartItemId = (cartId: string, productItemId: string): string =>
  memberId('CartItem', cartId, productItemId);

function toPriceMatrix(m: PriceMatrixDoc, cartId: string): PriceMatrix {
  const money = (minor: number) => toDecimal(minor, m.currency);
  return {
    currency: m.currency,
    subtotal: money(m.subtotal),
    discount: money(m.discount),
    shipping: money(m.shipping),
    tax: money(m.tax),
    total: money(m.total),
    lines: m.lines.map((l) => ({
      itemId: l.itemId,
      quantity: l.quantity,
      unitPrice: money(l.unitPrice),
      lineTotal: money(l.lineTotal),
    })),
    coupons: m.coupons.map((c) => ({
      id: cartCouponId(cartId, c.id),
      couponId: c.id,
      code: c.code,
      amount: money(c.amount),
      reason: c.reason as CouponReason | null,
    })),
  };
}

export function toCart(doc: CartDoc, lang: string | null): Cart {
  return {
    id: doc._id,
    priceMatrix: toPriceMatrix(doc.priceMatrix, doc._id),
    itemRefs: doc.items.map((i) => ({ ...i })),
    lang,
  };
}
