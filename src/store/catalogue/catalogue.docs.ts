// Stored document types of the catalogue and the cart, registered with the store by declaration merging.
// Money is always integer minor units of the document's currency; the API mappers turn it into decimals.
import type { PriceMatrix } from '../../pricing/pricing.types.js';

/** Translations keyed by ISO 639-1 language code; the untranslated fields hold the default language. */
export type Translations<T> = Record<string, T>;

export type CategorySettingType = 'color' | 'text' | 'number' | 'boolean' | 'url';

export interface ProductCategoryDoc {
  _id: string;
  name: string;
  description: string | null;
  /** null for a root category. */
  parentCategoryId: string | null;
  /** Ids of the ancestors from the root down (not including this one): breadcrumbs are built from it. */
  ancestorIds: string[];
  /** Zero-padded sibling positions from the root down ("0002.0001"): sorting on it gives tree order. */
  sortPath: string;
  url: string | null;
  available: boolean;
  featured: boolean;
  imageUrl: string | null;
  coverPhotoUrl: string | null;
  logoUrl: string | null;
  slug: string;
  settings: Array<{ name: string; key: string; type: CategorySettingType }>;
  translations: Translations<{ name?: string; description?: string }>;
}

interface BrandDoc {
  id: string;
  name: string;
  logoUrl: string | null;
  url: string | null;
}

export interface ProductDoc {
  _id: string;
  /** Categories the product is listed in (multikey index). */
  categoryIds: string[];
  /** Only available products are listed under categories and counted in totalProductsCount. */
  available: boolean;
  /** Position among the products of a category listing. */
  order: number;
  name: string;
  subtitle: string | null;
  teaser: string | null;
  description: string | null;
  text: string | null;
  brand: BrandDoc | null;
  url: string | null;
  learnMoreLink: string | null;
  settings: {
    template: string | null;
    mainPhotoUrl: string | null;
    secondaryPhotoUrl: string | null;
    thumbnailUrl: string | null;
    sku: string | null;
    allowCustomPrice: boolean;
  };
  translatedTexts: Translations<{ description?: string; label1?: string; label2?: string; label3?: string }>;
}

export type RecurrentSchedule = 'weekly' | 'monthly' | 'quarterly' | 'yearly';

interface ActionDataEntryDoc {
  function: string;
  param: string | null;
  /** A grouping such as `subscription`: a purchase grants the customer an entitlement for it. */
  group: string | null;
}

export interface ProductItemDoc {
  _id: string;
  productId: string;
  name: string;
  subtitle: string | null;
  description: string | null;
  /** Minor units of `currency`. */
  price: number;
  /** ISO 4217. */
  currency: string;
  available: boolean;
  order: number;
  shippable: boolean;
  /** Grams. */
  weight: number | null;
  installments: { count: number; intervalMonths: number } | null;
  oncePerUser: boolean;
  isUpgrade: boolean;
  upgradeType: string | null;
  /** Item ids a customer may upgrade from. */
  upgradeFrom: string[];
  upgradeExcludeItems: string[];
  upgradePriceWeb: number | null;
  upgradePriceMobile: number | null;
  /** VAT contained in the (gross) price, in basis points (1900 = 19 %). */
  taxRate: number;
  settings: {
    hasImage: boolean;
    additionalLabel1: string | null;
    additionalLabel2: string | null;
    additionalLabel3: string | null;
    /** Millimetres. */
    diameter: number | null;
    length: number | null;
    depth: number | null;
    width: number | null;
    recurrent: boolean;
    /** Minor units charged on each renewal. */
    recurrentPrice: number | null;
    /** Days after the purchase when the first renewal is charged. */
    recurrentStart: number | null;
    recurrentSchedule: RecurrentSchedule | null;
  };
  sku: string;
  /** Minor units per sales channel. */
  prices: { web: number; mobile: number; compareAt: number | null };
  stockEnabled: boolean;
  stockAvailable: number | null;
  packageQuantity: number;
  relatedItems: { itemIds: string[] };
  images: Array<{ url: string; width: number | null; height: number | null; alt: string | null }>;
  files: Array<{ url: string; name: string; mimeType: string | null; size: number | null }>;
  translations: Translations<{ name?: string; subtitle?: string }>;
  actionDataOnPurchase: ActionDataEntryDoc[];
  actionDataOnRenewalPurchase: ActionDataEntryDoc[];
}

type CouponKind = 'percent' | 'fixed' | 'free_shipping';

export interface CouponDoc {
  _id: string;
  /** Upper case; unique. */
  code: string;
  kind: CouponKind;
  /** Basis points off each eligible line (percent coupons): 1000 = 10 %. */
  percentOff: number | null;
  /** Minor units of `currency` (fixed coupons). */
  amountOff: number | null;
  currency: string | null;
  /** Minor units of the cart currency the undiscounted subtotal must reach. */
  minimumSubtotal: number | null;
  /** When non-empty, the coupon applies only to these product items. */
  itemIds: string[];
  validFrom: Date | null;
  validUntil: Date | null;
}

/** The price matrix as stored on the cart: the pricing module's answer (minor units) and when it was
 * computed, recomputed in the same write as any cart change. */
export type PriceMatrixDoc = PriceMatrix & { computedAt: Date };

export interface CartDoc {
  _id: string;
  customerId: string;
  currency: string;
  items: Array<{ productItemId: string; quantity: number }>;
  /** In the order they were applied. */
  coupons: Array<{ couponId: string; code: string }>;
  /** Bumped by every write; writes are conditional on the version they read. */
  version: number;
  priceMatrix: PriceMatrixDoc;
  createdAt: Date;
  updatedAt: Date;
}

declare module '../collections.js' {
  interface CollectionTypes {
    productCategories: ProductCategoryDoc;
    products: ProductDoc;
    productItems: ProductItemDoc;
    coupons: CouponDoc;
    carts: CartDoc;
  }
}
