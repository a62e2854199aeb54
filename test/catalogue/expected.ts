// What the API must answer for a stored document, written out field by field from the stored values
// (independently of the service's mapper): money as decimals of 2-digit currencies, texts localised.
import type { ProductCategoryDoc, ProductDoc, ProductItemDoc } from '../../src/store/catalogue/catalogue.docs.js';

const dec = (minor: number | null) => (minor === null ? null : minor / 100);
const pick = (
  base: string | null,
  t: Record<string, Record<string, string | undefined>>,
  lang: string | undefined,
  key: string,
) => {
  const v = lang ? t[lang]?.[key] : undefined;
  return v ? v : base;
};

/** Every translation carries every key the legacy clients read; a missing text is null. */
const withKeys = (t: Record<string, Record<string, string | undefined>>, keys: string[]) =>
  Object.fromEntries(
    Object.entries(t).map(([lang, v]) => [lang, Object.fromEntries(keys.map((k) => [k, v[k] ?? null]))]),
  );

export function restItem(doc: ProductItemDoc, productName: string, lang?: string) {
  return {
    id: doc._id,
    name: pick(doc.name, doc.translations, lang, 'name'),
    subtitle: pick(doc.subtitle, doc.translations, lang, 'subtitle'),
    description: doc.description,
    productId: doc.productId,
    productName,
    price: dec(doc.price),
    currency: doc.currency,
    available: doc.available,
    order: doc.order,
    shippable: doc.shippable,
    weight: doc.weight,
    installments: doc.installments,
    oncePerUser: doc.oncePerUser,
    isUpgrade: doc.isUpgrade,
    upgradeType: doc.upgradeType,
    upgradeFrom: doc.upgradeFrom,
    upgradeExcludeItems: doc.upgradeExcludeItems,
    upgradePriceWeb: dec(doc.upgradePriceWeb),
    upgradePriceMobile: dec(doc.upgradePriceMobile),
    settings: { ...doc.settings, recurrentPrice: dec(doc.settings.recurrentPrice) },
    sku: doc.sku,
    prices: { web: dec(doc.prices.web), mobile: dec(doc.prices.mobile), compareAt: dec(doc.prices.compareAt) },
    stockEnabled: doc.stockEnabled,
    stockAvailable: doc.stockAvailable,
    packageQuantity: doc.packageQuantity,
    relatedItems: { itemIds: doc.relatedItems.itemIds },
    images: doc.images,
    files: doc.files,
    productDetails: { id: doc.productId },
    translations: withKeys(doc.translations, ['name', 'subtitle']),
    actionDataOnPurchase: doc.actionDataOnPurchase,
    actionDataOnRenewalPurchase: doc.actionDataOnRenewalPurchase,
  };
}

export function restProduct(doc: ProductDoc, items: ProductItemDoc[], lang?: string) {
  return {
    id: doc._id,
    name: doc.name,
    subtitle: doc.subtitle,
    teaser: doc.teaser,
    description: pick(doc.description, doc.translatedTexts, lang, 'description'),
    text: doc.text,
    brand: doc.brand,
    url: doc.url,
    learnMoreLink: doc.learnMoreLink,
    settings: doc.settings,
    translatedTexts: withKeys(doc.translatedTexts, ['description', 'label1', 'label2', 'label3']),
    available: doc.available,
    categoryIds: doc.categoryIds,
    productItems: items.map((i) => restItem(i, doc.name, lang)),
  };
}

export function restCategoryFields(
  doc: ProductCategoryDoc,
  ancestors: ProductCategoryDoc[],
  totalProductsCount: number,
  lang?: string,
) {
  const crumb = (c: ProductCategoryDoc) => ({
    categoryId: c._id,
    categoryName: pick(c.name, c.translations, lang, 'name'),
    categorySlug: c.slug,
  });
  return {
    id: doc._id,
    name: pick(doc.name, doc.translations, lang, 'name'),
    description: pick(doc.description, doc.translations, lang, 'description'),
    parentCategoryId: doc.parentCategoryId,
    url: doc.url,
    available: doc.available,
    featured: doc.featured,
    imageUrl: doc.imageUrl,
    coverPhotoUrl: doc.coverPhotoUrl,
    logoUrl: doc.logoUrl,
    slug: doc.slug,
    settings: doc.settings,
    totalProductsCount,
    breadcrumbs: [...ancestors, doc].map(crumb),
    translations: withKeys(doc.translations, ['name', 'description']),
  };
}

/** The GraphQL form of an expected REST object: translations as lists with their language, enums upper case. */
export function asGraphQL(rest: any): any {
  if (Array.isArray(rest)) return rest.map(asGraphQL);
  if (rest === null || typeof rest !== 'object') return rest;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'translations' || key === 'translatedTexts') {
      out[key] = Object.entries(value as Record<string, object>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([language, t]) => ({ language, ...t }));
    } else if (key === 'recurrentSchedule' || (key === 'type' && typeof value === 'string')) {
      out[key] = value === null ? null : (value as string).toUpperCase();
    } else if (key === 'products' && Array.isArray(value)) {
      out[key] = { totalCount: value.length, edges: value.map((p) => ({ node: asGraphQL(p) })) };
    } else {
      out[key] = asGraphQL(value);
    }
  }
  return out;
}
