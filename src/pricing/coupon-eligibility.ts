// Which coupons on a cart can apply at all, and to which lines: validity window, minimum subtotal,
// currency, item restriction. Pure; the order coupons apply in is decided in price-cart.ts.
import type { AppliedCouponInput, CouponReason, CouponRule, PricingLine } from './pricing.types.js';

export type Eligibility = { ok: true; rule: CouponRule; lineIndexes: number[] } | { ok: false; reason: CouponReason };

function isValidRule(rule: CouponRule): boolean {
  switch (rule.kind) {
    case 'percent':
      return Number.isInteger(rule.percentOff) && rule.percentOff! > 0 && rule.percentOff! <= 10_000;
    case 'fixed':
      return Number.isSafeInteger(rule.amountOff) && rule.amountOff! > 0 && typeof rule.currency === 'string';
    case 'free_shipping':
      return true;
    default:
      return false;
  }
}

export function eligibility(
  coupon: AppliedCouponInput,
  ctx: { lines: readonly PricingLine[]; subtotal: number; currency: string; now: Date },
): Eligibility {
  const rule = coupon.rule;
  if (!rule) return { ok: false, reason: 'unknown_coupon' };
  if (!isValidRule(rule)) return { ok: false, reason: 'invalid_coupon' };
  // The window is half-open: valid from `validFrom` inclusive until `validUntil` exclusive.
  if (rule.validFrom && ctx.now < rule.validFrom) return { ok: false, reason: 'not_yet_valid' };
  if (rule.validUntil && ctx.now >= rule.validUntil) return { ok: false, reason: 'expired' };
  if (rule.kind === 'fixed' && rule.currency !== ctx.currency) return { ok: false, reason: 'currency_mismatch' };
  // The minimum is a cart-level condition, checked against the undiscounted subtotal.
  if (rule.minimumSubtotal !== null && ctx.subtotal < rule.minimumSubtotal)
    return { ok: false, reason: 'minimum_not_met' };
  const restricted = rule.itemIds.length > 0;
  const lineIndexes = ctx.lines.flatMap((line, i) => (!restricted || rule.itemIds.includes(line.itemId) ? [i] : []));
  if (lineIndexes.length === 0) return { ok: false, reason: 'no_eligible_items' };
  return { ok: true, rule, lineIndexes };
}
