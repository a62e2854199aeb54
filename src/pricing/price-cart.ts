// The price matrix of a cart, computed from scratch from its lines and coupons: a pure function of its
// input (no store, no clock), integer minor units throughout. The order is documented in docs/pricing.md:
//   1. line totals = unit price x quantity;
//   2. percent coupons, compounding on each eligible line, the line rounded once (half up);
//   3. fixed-amount coupons, consuming eligible lines' remaining amounts in line order;
//   4. free shipping waives the flat shipping fee;
//   5. tax is the VAT contained in each line's discounted amount, rounded once per line.
import { eligibility, type Eligibility } from './coupon-eligibility.js';
import { roundDiv } from './money.js';
import { PricingError, type CouponReason, type PriceMatrix, type PricingInput } from './pricing.types.js';

const KIND_ORDER = { percent: 0, fixed: 1, free_shipping: 2 } as const;
const BP = 10_000n;

function checkLines(input: PricingInput): void {
  for (const line of input.lines) {
    if (line.currency !== input.currency)
      throw new PricingError(`item ${line.itemId} is priced in ${line.currency}, the cart in ${input.currency}`);
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1)
      throw new PricingError(`bad quantity for ${line.itemId}`);
    if (!Number.isSafeInteger(line.unitPrice) || line.unitPrice < 0)
      throw new PricingError(`bad unit price for ${line.itemId}`);
    if (!Number.isSafeInteger(line.unitPrice * line.quantity))
      throw new PricingError(`line total of ${line.itemId} overflows`);
  }
}

export function priceCart(input: PricingInput): PriceMatrix {
  checkLines(input);
  const lines = input.lines.map((l) => ({
    itemId: l.itemId,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    lineTotal: l.unitPrice * l.quantity,
  }));
  const subtotal = lines.reduce((sum, l) => sum + l.lineTotal, 0);
  const remaining = lines.map((l) => l.lineTotal);
  const amounts = input.coupons.map(() => 0);
  const reasons: Array<CouponReason | null> = input.coupons.map(() => null);

  const checked = input.coupons.map((c, index) => ({
    index,
    e: eligibility(c, { lines: input.lines, subtotal, currency: input.currency, now: input.now }),
  }));
  const usable: Array<{ index: number; e: Extract<Eligibility, { ok: true }> }> = [];
  for (const { index, e } of checked) {
    if (e.ok) usable.push({ index, e });
    else reasons[index] = e.reason;
  }
  // Stable sort: by kind, then in the order the coupons were applied to the cart.
  usable.sort((a, b) => KIND_ORDER[a.e.rule.kind] - KIND_ORDER[b.e.rule.kind] || a.index - b.index);

  // 2. Percent coupons: per line, the cumulative discount after k coupons is L x (1 - prod(1 - p_j)),
  // rounded; each coupon is credited the step between consecutive rounded cumulatives, so the line is
  // rounded once overall and the credits add up to the line's discount exactly.
  const percent = usable.filter((u) => u.e.rule.kind === 'percent');
  lines.forEach((line, i) => {
    const L = BigInt(line.lineTotal);
    let keptNumerator = 1n;
    let denominator = 1n;
    let creditedSoFar = 0n;
    for (const u of percent) {
      if (!u.e.lineIndexes.includes(i)) continue;
      keptNumerator *= BP - BigInt(u.e.rule.percentOff!);
      denominator *= BP;
      const cumulative = roundDiv(L * (denominator - keptNumerator), denominator);
      amounts[u.index] += Number(cumulative - creditedSoFar);
      creditedSoFar = cumulative;
    }
    remaining[i] -= Number(creditedSoFar);
  });

  // 3. Fixed amounts never push a line below zero; what cannot be used is lost, not carried over.
  for (const u of usable.filter((x) => x.e.rule.kind === 'fixed')) {
    let budget = u.e.rule.amountOff!;
    for (const i of u.e.lineIndexes) {
      const take = Math.min(budget, remaining[i]);
      remaining[i] -= take;
      budget -= take;
    }
    amounts[u.index] = u.e.rule.amountOff! - budget;
  }

  // 4. One flat fee when anything ships; the first free-shipping coupon waives it.
  let shipping = input.lines.some((l) => l.shippable) ? input.shippingFee : 0;
  for (const u of usable.filter((x) => x.e.rule.kind === 'free_shipping')) {
    if (!input.lines.some((l) => l.shippable)) reasons[u.index] = 'nothing_to_ship';
    else if (shipping === 0) reasons[u.index] = 'shipping_already_free';
    else {
      amounts[u.index] = shipping;
      shipping = 0;
    }
  }
  for (const u of usable)
    if (u.e.rule.kind !== 'free_shipping' && amounts[u.index] === 0) reasons[u.index] = 'nothing_to_discount';

  const discount = subtotal - remaining.reduce((sum, r) => sum + r, 0);
  const tax = input.lines.reduce((sum, line, i) => {
    const rate = BigInt(line.taxRate);
    return sum + Number(roundDiv(BigInt(remaining[i]) * rate, BP + rate));
  }, 0);

  return {
    currency: input.currency,
    subtotal,
    discount,
    shipping,
    tax,
    total: subtotal - discount + shipping,
    lines,
    coupons: input.coupons.map((c, i) => ({ id: c.id, code: c.code, amount: amounts[i], reason: reasons[i] })),
  };
}
