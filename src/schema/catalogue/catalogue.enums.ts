// Catalogue enums: lower-case strings in the store and in REST, enums in GraphQL (docs/api.md).
import { registerEnumType } from 'type-graphql';

export enum CategorySettingType {
  COLOR = 'color',
  TEXT = 'text',
  NUMBER = 'number',
  BOOLEAN = 'boolean',
  URL = 'url',
}
registerEnumType(CategorySettingType, {
  name: 'CategorySettingType',
  description: 'Kind of value a category setting holds',
  valuesConfig: {
    COLOR: { description: 'A colour' },
    TEXT: { description: 'Free text' },
    NUMBER: { description: 'A number' },
    BOOLEAN: { description: 'Yes or no' },
    URL: { description: 'A URL' },
  },
});

export enum RecurrentSchedule {
  WEEKLY = 'weekly',
  MONTHLY = 'monthly',
  QUARTERLY = 'quarterly',
  YEARLY = 'yearly',
}
registerEnumType(RecurrentSchedule, {
  name: 'RecurrentSchedule',
  description: 'How often a recurrent (subscription) item renews',
  valuesConfig: {
    WEEKLY: { description: 'Every week' },
    MONTHLY: { description: 'Every month' },
    QUARTERLY: { description: 'Every three months' },
    YEARLY: { description: 'Every year' },
  },
});

export enum CouponReason {
  UNKNOWN_COUPON = 'unknown_coupon',
  INVALID_COUPON = 'invalid_coupon',
  NOT_YET_VALID = 'not_yet_valid',
  EXPIRED = 'expired',
  MINIMUM_NOT_MET = 'minimum_not_met',
  CURRENCY_MISMATCH = 'currency_mismatch',
  NO_ELIGIBLE_ITEMS = 'no_eligible_items',
  NOTHING_TO_DISCOUNT = 'nothing_to_discount',
  NOTHING_TO_SHIP = 'nothing_to_ship',
  SHIPPING_ALREADY_FREE = 'shipping_already_free',
}
registerEnumType(CouponReason, {
  name: 'CouponReason',
  description: 'Why a coupon on the cart takes nothing off',
  valuesConfig: {
    UNKNOWN_COUPON: { description: 'The coupon no longer exists' },
    INVALID_COUPON: { description: 'The coupon is set up wrongly (no usable discount)' },
    NOT_YET_VALID: { description: 'The coupon becomes valid later' },
    EXPIRED: { description: 'The coupon is past its end of validity' },
    MINIMUM_NOT_MET: { description: "The cart's subtotal before discounts is below the coupon's minimum" },
    CURRENCY_MISMATCH: { description: 'A fixed-amount coupon in another currency than the cart' },
    NO_ELIGIBLE_ITEMS: { description: 'The coupon is limited to items the cart does not hold' },
    NOTHING_TO_DISCOUNT: {
      description:
        'The coupon applies, but nothing is left to take off the items it covers (e.g. earlier coupons took it all)',
    },
    NOTHING_TO_SHIP: { description: 'A free-shipping coupon on a cart with nothing to ship' },
    SHIPPING_ALREADY_FREE: {
      description:
        'A free-shipping coupon on a cart whose shipping is already free (no fee, or another coupon waived it)',
    },
  },
});
