// Catalogue enums: lower-case strings in the store and in REST, enums in GraphQL (docs/api.md).
import { registerEnumType } from 'type-graphql';

export enum CategorySettingType {
  COLOR = 'color',
  TEXT = 'text',
  NUMBER = 'number',
  BOOLEAN = 'boolean',
  URL = 'url',
}
registerEnumType(CategorySettingType, { name: 'CategorySettingType', description: 'Kind of value a category setting holds' });

export enum RecurrentSchedule {
  WEEKLY = 'weekly',
  MONTHLY = 'monthly',
  QUARTERLY = 'quarterly',
  YEARLY = 'yearly',
}
registerEnumType(RecurrentSchedule, { name: 'RecurrentSchedule', description: 'How often a recurrent (subscription) item renews' });

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
registerEnumType(CouponReason, { name: 'CouponReason', description: 'Why a coupon on the cart takes nothing off' });
