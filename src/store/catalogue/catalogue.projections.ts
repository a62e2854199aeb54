// Read projections: exactly the fields each document type declares, checked by the compiler, so reads
// never drag along fields the API does not map.
import type { CartDoc, CouponDoc, ProductCategoryDoc, ProductDoc, ProductItemDoc } from './catalogue.docs.js';

type Projection<T> = { readonly [K in keyof Required<T>]: 1 };
const all = <T>(p: Projection<T>): Projection<T> => p;

export const categoryProjection = all<ProductCategoryDoc>({
  _id: 1,
  name: 1,
  description: 1,
  parentCategoryId: 1,
  ancestorIds: 1,
  sortPath: 1,
  url: 1,
  available: 1,
  featured: 1,
  imageUrl: 1,
  coverPhotoUrl: 1,
  logoUrl: 1,
  slug: 1,
  settings: 1,
  translations: 1,
});

export const productProjection = all<ProductDoc>({
  _id: 1,
  categoryIds: 1,
  available: 1,
  order: 1,
  name: 1,
  subtitle: 1,
  teaser: 1,
  description: 1,
  text: 1,
  brand: 1,
  url: 1,
  learnMoreLink: 1,
  settings: 1,
  translatedTexts: 1,
});

export const productItemProjection = all<ProductItemDoc>({
  _id: 1,
  productId: 1,
  name: 1,
  subtitle: 1,
  description: 1,
  price: 1,
  currency: 1,
  available: 1,
  order: 1,
  shippable: 1,
  weight: 1,
  installments: 1,
  oncePerUser: 1,
  isUpgrade: 1,
  upgradeType: 1,
  upgradeFrom: 1,
  upgradeExcludeItems: 1,
  upgradePriceWeb: 1,
  upgradePriceMobile: 1,
  taxRate: 1,
  settings: 1,
  sku: 1,
  prices: 1,
  stockEnabled: 1,
  stockAvailable: 1,
  packageQuantity: 1,
  relatedItems: 1,
  images: 1,
  files: 1,
  translations: 1,
  actionDataOnPurchase: 1,
  actionDataOnRenewalPurchase: 1,
});

export const couponProjection = all<CouponDoc>({
  _id: 1,
  code: 1,
  kind: 1,
  percentOff: 1,
  amountOff: 1,
  currency: 1,
  minimumSubtotal: 1,
  itemIds: 1,
  validFrom: 1,
  validUntil: 1,
});

export const cartProjection = all<CartDoc>({
  _id: 1,
  customerId: 1,
  currency: 1,
  items: 1,
  coupons: 1,
  version: 1,
  priceMatrix: 1,
  createdAt: 1,
  updatedAt: 1,
});
