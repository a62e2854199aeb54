// Inputs and output of the pricing module: plain data in integer minor units, no store types.
type CouponKind = 'percent' | 'fixed' | 'free_shipping';

export interface PricingLine {
  itemId: string;
  quantity: number;
  /** Gross (tax-inclusive) unit price in minor units. */
  unitPrice: number;
  currency: string;
  shippable: boolean;
  /** Basis points of VAT contained in the price. */
  taxRate: number;
}

export interface CouponRule {
  kind: CouponKind;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  minimumSubtotal: number | null;
  itemIds: readonly string[];
  validFrom: Date | null;
  validUntil: Date | null;
}

/** A coupon applied to the cart; `rule` is null when its definition no longer exists. */
export interface AppliedCouponInput {
  id: string;
  code: string;
  rule: CouponRule | null;
}

export interface PricingInput {
  currency: string;
  lines: readonly PricingLine[];
  /** In the order they were applied to the cart. */
  coupons: readonly AppliedCouponInput[];
  /** Flat fee charged when at least one line is shippable. */
  shippingFee: number;
  now: Date;
}

/** Why a coupon on the cart contributes nothing; null when it applied. */
export type CouponReason =
  | 'unknown_coupon'
  | 'invalid_coupon'
  | 'not_yet_valid'
  | 'expired'
  | 'minimum_not_met'
  | 'currency_mismatch'
  | 'no_eligible_items'
  | 'nothing_to_discount'
  | 'nothing_to_ship'
  | 'shipping_already_free';

export interface PriceMatrix {
  currency: string;
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  total: number;
  lines: Array<{ itemId: string; quantity: number; unitPrice: number; lineTotal: number }>;
  coupons: Array<{ id: string; code: string; amount: number; reason: CouponReason | null }>;
}

export class PricingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PricingError';
  }
}
