// REST shapes of the catalogue and the cart (docs/api.md) as zod. The shims assemble these
// bodies without a schema (src/rest/product-categories.present.ts), so the live-response tests pin that
// what they send is exactly what is written here. Money is a decimal in the object's `currency`, rounded
// to the currency's minor digits; translations are keyed by ISO 639-1 language code. Enums come from the
// same TypeScript enums the GraphQL schema uses, with their lower-case REST values.
import { CategorySettingType, CouponReason, RecurrentSchedule } from '../../schema/catalogue/catalogue.enums.js';
import { z } from '../zod.js';

const id = (description: string) => z.string().describe(description);
const nullableString = (description?: string) =>
  description ? z.string().nullable().describe(description) : z.string().nullable();
const money = (description: string) => z.number().describe(`${description}; a decimal in the currency's minor digits`);
const keyedByLanguage = <T extends z.ZodType>(value: T, description: string) =>
  z.record(z.string().regex(/^[a-z]{2}$/), value).describe(`${description}, keyed by ISO 639-1 language code`);

const itemSettings = z.object({
  hasImage: z.boolean(),
  additionalLabel1: nullableString(),
  additionalLabel2: nullableString(),
  additionalLabel3: nullableString(),
  diameter: z.number().int().nullable().describe('Diameter in millimetres'),
  length: z.number().int().nullable().describe('Length in millimetres'),
  depth: z.number().int().nullable().describe('Depth in millimetres'),
  width: z.number().int().nullable().describe('Width in millimetres'),
  recurrent: z.boolean().describe('Whether the item renews (a subscription)'),
  recurrentPrice: z.number().nullable().describe('Charged on each renewal, in the item currency'),
  recurrentStart: z.number().int().nullable().describe('Days after the purchase when the first renewal is charged'),
  recurrentSchedule: z.enum(RecurrentSchedule).nullable(),
});

const actionData = z.object({
  function: z.string(),
  param: nullableString(),
  group: nullableString('An access group such as `subscription`: buying grants an entitlement for it'),
});

/** The fields of a product item, shared by ProductItem and CartItem (no allOf: one flat object each). */
const productItemFields = {
  id: id('Item ID'),
  name: z.string().describe('In the requested language, falling back to the default language'),
  subtitle: nullableString('In the requested language, falling back to the default language'),
  description: nullableString(),
  productId: id('The owning product'),
  productName: nullableString("The owning product's name"),
  price: money('Price (gross)'),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .describe('ISO 4217 currency code'),
  available: z.boolean(),
  order: z.number().int().describe('Position among the items of its product'),
  shippable: z.boolean(),
  weight: z.number().int().nullable().describe('Weight in grams'),
  installments: z
    .object({ count: z.number().int(), intervalMonths: z.number().int().describe('Months between two instalments') })
    .nullable(),
  oncePerUser: z.boolean().describe('Whether a customer may buy the item only once'),
  isUpgrade: z.boolean(),
  upgradeType: nullableString(),
  upgradeFrom: z.array(z.string()).describe('Items a customer may upgrade from'),
  upgradeExcludeItems: z.array(z.string()),
  upgradePriceWeb: money('Upgrade price on the web').nullable(),
  upgradePriceMobile: money('Upgrade price in the mobile apps').nullable(),
  settings: itemSettings,
  sku: z.string(),
  prices: z.object({
    web: money('Web price'),
    mobile: money('Mobile price'),
    compareAt: money('Former or list price shown struck through').nullable(),
  }),
  stockEnabled: z.boolean(),
  stockAvailable: z.number().int().nullable(),
  packageQuantity: z.number().int(),
  relatedItems: z.object({ itemIds: z.array(z.string()) }).describe('Items offered alongside this one'),
  images: z.array(
    z.object({
      url: z.string(),
      width: z.number().int().nullable().describe('Width in pixels'),
      height: z.number().int().nullable().describe('Height in pixels'),
      alt: nullableString(),
    }),
  ),
  files: z.array(
    z.object({
      url: z.string(),
      name: z.string(),
      mimeType: nullableString(),
      size: z.number().int().nullable().describe('Size in bytes'),
    }),
  ),
  productDetails: z.object({ id: z.string() }).openapi({
    deprecated: true,
    description: 'Deprecated: use productId. Holds only the product id (no nested product)',
  }),
  translations: keyedByLanguage(
    z.object({ name: nullableString(), subtitle: nullableString() }),
    'Every translation the item has',
  ),
  actionDataOnPurchase: z.array(actionData),
  actionDataOnRenewalPurchase: z.array(actionData),
};

const productItem = z
  .object(productItemFields)
  .openapi('ProductItem', { description: 'A purchasable variant of a product' });

const product = z
  .object({
    id: id('Product ID'),
    name: z.string().describe('Not translated'),
    subtitle: nullableString(),
    teaser: nullableString(),
    description: nullableString('In the requested language, falling back to the default language'),
    text: nullableString(),
    brand: z.object({ id: z.string(), name: z.string(), logoUrl: nullableString(), url: nullableString() }).nullable(),
    url: nullableString(),
    learnMoreLink: nullableString(),
    settings: z.object({
      template: nullableString(),
      mainPhotoUrl: nullableString(),
      secondaryPhotoUrl: nullableString(),
      thumbnailUrl: nullableString(),
      sku: nullableString(),
      allowCustomPrice: z.boolean(),
    }),
    translatedTexts: keyedByLanguage(
      z.object({
        description: nullableString(),
        label1: nullableString(),
        label2: nullableString(),
        label3: nullableString(),
      }),
      'Every translation the product has',
    ),
    available: z.boolean(),
    categoryIds: z.array(z.string()).describe('Categories the product is listed in'),
    productItems: z.array(productItem).describe('In item order'),
  })
  .openapi('Product', { description: 'A product of the catalogue; what is bought is one of its items' });

export const productCategory = z
  .object({
    id: id('Category ID'),
    name: z.string().describe('In the requested language, falling back to the default language'),
    description: nullableString('In the requested language, falling back to the default language'),
    parentCategoryId: nullableString('Null for a top-level category'),
    url: nullableString(),
    available: z.boolean(),
    featured: z.boolean(),
    imageUrl: nullableString(),
    coverPhotoUrl: nullableString(),
    logoUrl: nullableString(),
    slug: z.string(),
    settings: z.array(z.object({ name: z.string(), key: z.string(), type: z.enum(CategorySettingType) })),
    totalProductsCount: z.number().int().describe('Available products listed in this category'),
    breadcrumbs: z
      .array(
        z.object({
          categoryId: z.string(),
          categoryName: z.string().describe('Localised like the category'),
          categorySlug: z.string(),
        }),
      )
      .describe('From the root category down to this one (inclusive)'),
    translations: keyedByLanguage(
      z.object({ name: nullableString(), description: nullableString() }),
      'Every translation the category has',
    ),
    products: z
      .array(product)
      .optional()
      .describe('Available products in product order; left out with `includeProducts=false`'),
  })
  .openapi('ProductCategory', { description: 'A category of the ecommerce catalogue' });

const cartItem = z
  .object({ ...productItemFields, quantity: z.number().int().min(1) })
  .openapi('CartItem', { description: 'A product item in a cart, with its quantity' });

const priceMatrix = z
  .object({
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .describe('ISO 4217 code of every amount here'),
    subtotal: money('Sum of the line totals'),
    discount: money('Taken off the items by coupons'),
    shipping: money('Shipping fee'),
    tax: money('VAT contained in the total (prices are gross)'),
    total: money('subtotal - discount + shipping'),
    lines: z.array(
      z.object({
        itemId: z.string(),
        quantity: z.number().int(),
        unitPrice: money('Unit price'),
        lineTotal: money('Unit price times quantity, before discounts'),
      }),
    ),
    coupons: z.array(
      z.object({
        id: z.string(),
        code: z.string(),
        amount: money('Discount this coupon gives (for free shipping: the fee waived)'),
        reason: z.enum(CouponReason).nullable().describe('Why the coupon takes nothing off; null when it applies'),
      }),
    ),
  })
  .openapi('PriceMatrix', {
    description: 'The prices of a cart, recomputed in the same atomic store operation as the last change',
  });

export const cart = z
  .object({ id: id('Cart ID'), items: z.array(cartItem).describe('In cart order'), priceMatrix })
  .openapi('Cart', { description: "A customer's shopping cart" });
