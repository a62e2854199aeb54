// A small, fully specified catalogue for the catalogue and cart tests: a three-level category tree with
// translations (some languages missing, to exercise the fallback), products with several items, coupons
// of every kind, and carts of two customers. Stored matrices are priced with the real pricing module.
import type { Viewer } from '../../src/context.js';
import { unauthenticated } from '../../src/errors.js';
import type { Authenticator } from '../../src/http/authenticate.js';
import { priceMatrixFor, pricingInputFor } from '../../src/operations/cart/cart-pricing.js';
import type {
  CartDoc,
  CouponDoc,
  ProductCategoryDoc,
  ProductDoc,
  ProductItemDoc,
} from '../../src/store/catalogue/catalogue.docs.js';
import type { Store } from '../../src/store/store.js';

const NOW = new Date();
const days = (n: number) => new Date(NOW.getTime() + n * 86_400_000);

function category(
  id: string,
  parent: ProductCategoryDoc | null,
  position: number,
  extra: Partial<ProductCategoryDoc> = {},
): ProductCategoryDoc {
  return {
    _id: id,
    name: `Name of ${id}`,
    description: `Description of ${id}`,
    parentCategoryId: parent?._id ?? null,
    ancestorIds: parent ? [...parent.ancestorIds, parent._id] : [],
    sortPath: [parent?.sortPath, String(position).padStart(4, '0')].filter(Boolean).join('.'),
    url: `https://shop.example.com/c/${id}`,
    available: true,
    featured: false,
    imageUrl: `https://cdn.example.com/${id}.jpg`,
    coverPhotoUrl: `https://cdn.example.com/${id}-cover.jpg`,
    logoUrl: null,
    slug: `slug-${id}`,
    settings: [
      { name: 'Colour', key: 'colour', type: 'color' },
      { name: 'Format', key: 'format', type: 'text' },
    ],
    translations: {},
    ...extra,
  };
}

const print = category('cat-print', null, 1, {
  name: 'Print',
  description: 'Printed products',
  featured: true,
  translations: { de: { name: 'Druck', description: 'Gedruckte Produkte' }, fr: { name: 'Imprimé' } },
});
const magazines = category('cat-magazines', print, 1, {
  name: 'Magazines',
  translations: { de: { name: 'Zeitschriften', description: '' } },
});
const weekly = category('cat-weekly', magazines, 1, {
  name: 'Weekly',
  translations: { de: { name: 'Wöchentlich', description: 'Jede Woche' } },
});
const books = category('cat-books', print, 2, {
  name: 'Books',
  featured: true,
  logoUrl: 'https://cdn.example.com/books-logo.png',
});
const digital = category('cat-digital', null, 2, { name: 'Digital', translations: { de: { name: 'Digital DE' } } });
const hidden = category('cat-hidden', null, 3, { name: 'Hidden', available: false });
export const categories = [print, magazines, weekly, books, digital, hidden];

function product(id: string, categoryIds: string[], order: number, extra: Partial<ProductDoc> = {}): ProductDoc {
  return {
    _id: id,
    categoryIds,
    available: true,
    order,
    name: `Product ${id}`,
    subtitle: `Subtitle ${id}`,
    teaser: `Teaser ${id}`,
    description: `Description ${id}`,
    text: `<p>Text ${id}</p>`,
    brand: {
      id: 'brand-1',
      name: 'Daily Planet',
      logoUrl: 'https://cdn.example.com/brand.png',
      url: 'https://planet.example.com',
    },
    url: `https://shop.example.com/p/${id}`,
    learnMoreLink: `https://shop.example.com/p/${id}/more`,
    settings: {
      template: 'default',
      mainPhotoUrl: `https://cdn.example.com/${id}.jpg`,
      secondaryPhotoUrl: null,
      thumbnailUrl: `https://cdn.example.com/${id}-t.jpg`,
      sku: `SKU-${id}`,
      allowCustomPrice: false,
    },
    translatedTexts: {},
    ...extra,
  };
}

const weeklyMag = product('prod-weekly', ['cat-weekly'], 1, {
  translatedTexts: { de: { description: 'Beschreibung Wochenheft', label1: 'Etikett 1' }, fr: { label2: 'Étiquette' } },
});
const weeklyExtra = product('prod-weekly-extra', ['cat-weekly'], 2);
const weeklyGone = product('prod-weekly-gone', ['cat-weekly'], 3, { available: false });
const digitalPass = product('prod-digital', ['cat-digital', 'cat-print'], 1);
export const products = [weeklyMag, weeklyExtra, weeklyGone, digitalPass];

function item(
  id: string,
  productId: string,
  order: number,
  price: number,
  extra: Partial<ProductItemDoc> = {},
): ProductItemDoc {
  return {
    _id: id,
    productId,
    name: `Item ${id}`,
    subtitle: `Item subtitle ${id}`,
    description: `Item description ${id}`,
    price,
    currency: 'EUR',
    available: true,
    order,
    shippable: false,
    weight: null,
    installments: null,
    oncePerUser: false,
    isUpgrade: false,
    upgradeType: null,
    upgradeFrom: [],
    upgradeExcludeItems: [],
    upgradePriceWeb: null,
    upgradePriceMobile: null,
    taxRate: 700,
    settings: {
      hasImage: true,
      additionalLabel1: 'L1',
      additionalLabel2: null,
      additionalLabel3: null,
      diameter: null,
      length: 297,
      depth: 5,
      width: 210,
      recurrent: false,
      recurrentPrice: null,
      recurrentStart: null,
      recurrentSchedule: null,
    },
    sku: `SKU-${id}`,
    prices: { web: price, mobile: price + 100, compareAt: null },
    stockEnabled: false,
    stockAvailable: null,
    packageQuantity: 1,
    relatedItems: { itemIds: [] },
    images: [{ url: `https://cdn.example.com/${id}.jpg`, width: 800, height: 600, alt: `Image of ${id}` }],
    files: [],
    translations: {},
    actionDataOnPurchase: [],
    actionDataOnRenewalPurchase: [],
    ...extra,
  };
}

const printIssue = item('item-print', 'prod-weekly', 1, 499, {
  shippable: true,
  weight: 350,
  stockEnabled: true,
  stockAvailable: 120,
  packageQuantity: 2,
  prices: { web: 499, mobile: 449, compareAt: 599 },
  relatedItems: { itemIds: ['item-sub', 'item-missing', 'item-year'] },
  files: [{ url: 'https://cdn.example.com/sample.pdf', name: 'Sample', mimeType: 'application/pdf', size: 123456 }],
  translations: { de: { name: 'Einzelheft', subtitle: 'Gedruckt' }, fr: { name: 'Numéro' } },
});
const subscription = item('item-sub', 'prod-weekly', 2, 1990, {
  oncePerUser: true,
  installments: { count: 12, intervalMonths: 1 },
  settings: {
    hasImage: false,
    additionalLabel1: null,
    additionalLabel2: 'Best value',
    additionalLabel3: 'Cancel anytime',
    diameter: 30,
    length: null,
    depth: null,
    width: null,
    recurrent: true,
    recurrentPrice: 1790,
    recurrentStart: 30,
    recurrentSchedule: 'monthly',
  },
  actionDataOnPurchase: [{ function: 'grantEntitlement', param: 'P1M', group: 'subscription' }],
  actionDataOnRenewalPurchase: [{ function: 'extendEntitlement', param: 'P1M', group: 'subscription' }],
});
const upgrade = item('item-upgrade', 'prod-weekly', 3, 2990, {
  isUpgrade: true,
  upgradeType: 'plus',
  upgradeFrom: ['item-sub'],
  upgradeExcludeItems: ['item-print'],
  upgradePriceWeb: 1000,
  upgradePriceMobile: 1200,
});
const extraItem = item('item-extra', 'prod-weekly-extra', 1, 250);
const yearPass = item('item-year', 'prod-digital', 1, 9900, { taxRate: 1900 });
const monthPass = item('item-month', 'prod-digital', 2, 999, { taxRate: 1900, available: false });
export const items = [upgrade, subscription, printIssue, extraItem, yearPass, monthPass];

function coupon(id: string, code: string, extra: Partial<CouponDoc>): CouponDoc {
  return {
    _id: id,
    code,
    kind: 'percent',
    percentOff: null,
    amountOff: null,
    currency: null,
    minimumSubtotal: null,
    itemIds: [],
    validFrom: null,
    validUntil: null,
    ...extra,
  };
}

const coupons = [
  coupon('cp-ten', 'TEN', { kind: 'percent', percentOff: 1000, validFrom: days(-10), validUntil: days(10) }),
  coupon('cp-five', 'FIVE', { kind: 'fixed', amountOff: 500, currency: 'EUR' }),
  coupon('cp-ship', 'SHIP', { kind: 'free_shipping' }),
  coupon('cp-year', 'YEAR20', { kind: 'percent', percentOff: 2000, itemIds: ['item-year'] }),
  coupon('cp-old', 'OLD', { kind: 'percent', percentOff: 5000, validUntil: days(-1) }),
  coupon('cp-big', 'BIG', { kind: 'fixed', amountOff: 5000, currency: 'EUR', minimumSubtotal: 100_000 }),
];

export const ALICE = 'cust-alice';
const BOB = 'cust-bob';

function cart(id: string, customerId: string, cartItems: CartDoc['items'], codes: string[]): CartDoc {
  const applied = codes.map((code) => {
    const c = coupons.find((x) => x.code === code)!;
    return { couponId: c._id, code };
  });
  const content = { currency: 'EUR', items: cartItems, coupons: applied };
  const matrix = priceMatrixFor(
    pricingInputFor(content, new Map(items.map((i) => [i._id, i])), new Map(coupons.map((c) => [c._id, c])), NOW),
  );
  return { _id: id, customerId, ...content, version: 1, priceMatrix: matrix, createdAt: days(-2), updatedAt: days(-1) };
}

export const aliceCart = cart(
  'cart-alice',
  ALICE,
  [
    { productItemId: 'item-print', quantity: 2 },
    { productItemId: 'item-year', quantity: 1 },
  ],
  ['TEN', 'FIVE', 'SHIP', 'YEAR20', 'OLD'],
);
const aliceOldCart = {
  ...cart('cart-alice-2', ALICE, [{ productItemId: 'item-sub', quantity: 1 }], []),
  updatedAt: days(-5),
};
export const bobCart = cart('cart-bob', BOB, [{ productItemId: 'item-extra', quantity: 3 }], ['TEN']);
const carts = [aliceCart, aliceOldCart, bobCart];

export async function insertCatalogue(store: Store): Promise<void> {
  await store.collection('productCategories').insertMany(categories);
  await store.collection('products').insertMany(products);
  await store.collection('productItems').insertMany(items);
  await store.collection('coupons').insertMany(coupons);
  await store.collection('carts').insertMany(carts);
}

/** Test bearer strings -> viewers (until real tokens are used): `<customer>:<scope,scope>`. */
const TOKENS: Record<string, { customerId: string; scopes: string[] }> = {
  'alice-cart': { customerId: ALICE, scopes: ['openid', 'cart'] },
  'alice-plain': { customerId: ALICE, scopes: ['openid', 'profile'] },
  'bob-cart': { customerId: BOB, scopes: ['cart'] },
};

export const testAuthenticator: Authenticator = async (authorization) => {
  if (!authorization) return null;
  const token = /^Bearer (.+)$/.exec(authorization)?.[1];
  const entry = token ? TOKENS[token] : undefined;
  if (!entry) throw unauthenticated('The access token is invalid or expired');
  const viewer: Viewer = { customerId: entry.customerId, scopes: new Set(entry.scopes), entitlements: async () => [] };
  return viewer;
};

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
