// Table-driven tests of the pure pricing module: each coupon kind, combinations, conditions, rounding.
import {
  priceCart,
  type AppliedCouponInput,
  type CouponRule,
  type PricingInput,
  type PricingLine,
} from '../../src/pricing/index.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const line = (itemId: string, unitPrice: number, quantity = 1, extra: Partial<PricingLine> = {}): PricingLine => ({
  itemId,
  unitPrice,
  quantity,
  currency: 'EUR',
  shippable: false,
  taxRate: 0,
  ...extra,
});
const rule = (r: Partial<CouponRule> & Pick<CouponRule, 'kind'>): CouponRule => ({
  percentOff: null,
  amountOff: null,
  currency: null,
  minimumSubtotal: null,
  itemIds: [],
  validFrom: null,
  validUntil: null,
  ...r,
});
const coupon = (code: string, r: CouponRule | null): AppliedCouponInput => ({ id: `c-${code}`, code, rule: r });
const pct = (code: string, bp: number, extra: Partial<CouponRule> = {}) =>
  coupon(code, rule({ kind: 'percent', percentOff: bp, ...extra }));
const fixed = (code: string, amount: number, extra: Partial<CouponRule> = {}) =>
  coupon(code, rule({ kind: 'fixed', amountOff: amount, currency: 'EUR', ...extra }));
const freeShip = (code: string, extra: Partial<CouponRule> = {}) =>
  coupon(code, rule({ kind: 'free_shipping', ...extra }));
const input = (lines: PricingLine[], coupons: AppliedCouponInput[] = [], shippingFee = 490): PricingInput => ({
  currency: 'EUR',
  lines,
  coupons,
  shippingFee,
  now: NOW,
});

interface Case {
  name: string;
  input: PricingInput;
  expect: {
    subtotal: number;
    discount: number;
    shipping: number;
    tax?: number;
    total: number;
    coupons?: Array<[number, string | null]>;
  };
}

const cases: Case[] = [
  {
    name: 'no coupons: totals are the line sums',
    input: input([line('a', 1000, 2), line('b', 250)]),
    expect: { subtotal: 2250, discount: 0, shipping: 0, total: 2250 },
  },
  { name: 'empty cart', input: input([]), expect: { subtotal: 0, discount: 0, shipping: 0, tax: 0, total: 0 } },
  {
    name: 'percent off every line',
    input: input([line('a', 1000, 2), line('b', 500)], [pct('TEN', 1000)]),
    expect: { subtotal: 2500, discount: 250, shipping: 0, total: 2250, coupons: [[250, null]] },
  },
  {
    name: 'fixed amount',
    input: input([line('a', 1999)], [fixed('FIVE', 500)]),
    expect: { subtotal: 1999, discount: 500, shipping: 0, total: 1499, coupons: [[500, null]] },
  },
  {
    name: 'fixed amount larger than the cart is capped at zero',
    input: input([line('a', 300)], [fixed('FIVE', 500)]),
    expect: { subtotal: 300, discount: 300, shipping: 0, total: 0, coupons: [[300, null]] },
  },
  {
    name: 'shipping charged once when something ships',
    input: input([line('a', 1000, 3, { shippable: true }), line('b', 100, 1, { shippable: true })]),
    expect: { subtotal: 3100, discount: 0, shipping: 490, total: 3590 },
  },
  {
    name: 'free shipping waives the fee and reports it as the coupon amount',
    input: input([line('a', 1000, 1, { shippable: true })], [freeShip('SHIP')]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[490, null]] },
  },
  {
    name: 'free shipping on a cart with nothing to ship',
    input: input([line('a', 1000)], [freeShip('SHIP')]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'nothing_to_ship']] },
  },
  {
    name: 'second free shipping coupon adds nothing',
    input: input([line('a', 1000, 1, { shippable: true })], [freeShip('S1'), freeShip('S2')]),
    expect: {
      subtotal: 1000,
      discount: 0,
      shipping: 0,
      total: 1000,
      coupons: [
        [490, null],
        [0, 'shipping_already_free'],
      ],
    },
  },
  {
    name: 'percent applies before fixed, whatever the order on the cart',
    input: input([line('a', 10000)], [fixed('FIVE', 500), pct('TEN', 1000)]),
    expect: {
      subtotal: 10000,
      discount: 1500,
      shipping: 0,
      total: 8500,
      coupons: [
        [500, null],
        [1000, null],
      ],
    },
  },
  {
    name: 'two percent coupons compound: 10 % then 20 % is 28 %',
    input: input([line('a', 10000)], [pct('TEN', 1000), pct('TWENTY', 2000)]),
    expect: {
      subtotal: 10000,
      discount: 2800,
      shipping: 0,
      total: 7200,
      coupons: [
        [1000, null],
        [1800, null],
      ],
    },
  },
  {
    name: 'percent, fixed and free shipping together',
    input: input(
      [line('a', 2000, 2, { shippable: true }), line('b', 1000)],
      [freeShip('SHIP'), pct('TEN', 1000), fixed('FIVE', 500)],
    ),
    expect: {
      subtotal: 5000,
      discount: 1000,
      shipping: 0,
      total: 4000,
      coupons: [
        [490, null],
        [500, null],
        [500, null],
      ],
    },
  },
  {
    name: 'minimum subtotal not met',
    input: input([line('a', 1000)], [pct('BIG', 5000, { minimumSubtotal: 5000 })]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'minimum_not_met']] },
  },
  {
    name: 'minimum subtotal met exactly',
    input: input([line('a', 5000)], [pct('BIG', 5000, { minimumSubtotal: 5000 })]),
    expect: { subtotal: 5000, discount: 2500, shipping: 0, total: 2500, coupons: [[2500, null]] },
  },
  {
    name: 'expired coupon',
    input: input([line('a', 1000)], [pct('OLD', 1000, { validUntil: new Date('2026-01-01T00:00:00Z') })]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'expired']] },
  },
  {
    name: 'expiry is exclusive',
    input: input([line('a', 1000)], [pct('NOW', 1000, { validUntil: NOW })]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'expired']] },
  },
  {
    name: 'not yet valid',
    input: input([line('a', 1000)], [pct('SOON', 1000, { validFrom: new Date('2026-04-01T00:00:00Z') })]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'not_yet_valid']] },
  },
  {
    name: 'inside the window',
    input: input(
      [line('a', 1000)],
      [pct('NOW', 1000, { validFrom: NOW, validUntil: new Date('2026-04-01T00:00:00Z') })],
    ),
    expect: { subtotal: 1000, discount: 100, shipping: 0, total: 900, coupons: [[100, null]] },
  },
  {
    name: 'percent restricted to some items',
    input: input([line('a', 1000), line('b', 2000)], [pct('B', 5000, { itemIds: ['b'] })]),
    expect: { subtotal: 3000, discount: 1000, shipping: 0, total: 2000, coupons: [[1000, null]] },
  },
  {
    name: 'fixed restricted to some items cannot exceed them',
    input: input([line('a', 1000), line('b', 200)], [fixed('B', 500, { itemIds: ['b'] })]),
    expect: { subtotal: 1200, discount: 200, shipping: 0, total: 1000, coupons: [[200, null]] },
  },
  {
    name: 'restricted to items not in the cart',
    input: input([line('a', 1000)], [pct('X', 5000, { itemIds: ['x'] })]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'no_eligible_items']] },
  },
  {
    name: 'fixed coupon in another currency',
    input: input([line('a', 1000)], [fixed('USD', 500, { currency: 'USD' })]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'currency_mismatch']] },
  },
  {
    name: 'coupon whose definition is gone',
    input: input([line('a', 1000)], [coupon('GONE', null)]),
    expect: { subtotal: 1000, discount: 0, shipping: 0, total: 1000, coupons: [[0, 'unknown_coupon']] },
  },
  {
    name: 'a fixed coupon after a 100 % coupon has nothing left to discount',
    input: input([line('a', 1000)], [pct('ALL', 10000), fixed('FIVE', 500)]),
    expect: {
      subtotal: 1000,
      discount: 1000,
      shipping: 0,
      total: 0,
      coupons: [
        [1000, null],
        [0, 'nothing_to_discount'],
      ],
    },
  },
  // Rounding: once per line, half up, on the line total (not per unit).
  {
    name: 'rounding half up on the line total',
    input: input([line('a', 333, 3)], [pct('FIFTEEN', 1500)]),
    expect: { subtotal: 999, discount: 150, shipping: 0, total: 849, coupons: [[150, null]] },
  },
  {
    name: 'rounding per line, not on the sum',
    input: input([line('a', 5), line('b', 5)], [pct('TEN', 1000)]),
    expect: { subtotal: 10, discount: 2, shipping: 0, total: 8, coupons: [[2, null]] },
  },
  {
    name: 'compounding percents round once per line and the credits add up',
    input: input([line('a', 999)], [pct('P1', 3333), pct('P2', 1250)]),
    // 999 x (1 - 0.6667 x 0.875) = 416.19... -> 416; first step 332.97 -> 333, second 416 - 333 = 83.
    expect: {
      subtotal: 999,
      discount: 416,
      shipping: 0,
      total: 583,
      coupons: [
        [333, null],
        [83, null],
      ],
    },
  },
  {
    name: 'tax is the VAT contained in each discounted line',
    input: input([line('a', 1190, 1, { taxRate: 1900 }), line('b', 1070, 1, { taxRate: 700 })], [pct('TEN', 1000)]),
    expect: { subtotal: 2260, discount: 226, shipping: 0, tax: 171 + 63, total: 2034 },
  },
];

describe('priceCart', () => {
  test.each(cases)('$name', ({ input: given, expect: want }) => {
    const m = priceCart(given);
    expect({ subtotal: m.subtotal, discount: m.discount, shipping: m.shipping, total: m.total }).toEqual({
      subtotal: want.subtotal,
      discount: want.discount,
      shipping: want.shipping,
      total: want.total,
    });
    if (want.tax !== undefined) expect(m.tax).toBe(want.tax);
    if (want.coupons) expect(m.coupons.map((c) => [c.amount, c.reason])).toEqual(want.coupons);
    // Invariants every matrix keeps.
    expect(m.lines.reduce((s, l) => s + l.lineTotal, 0)).toBe(m.subtotal);
    const itemCouponAmounts = m.coupons
      .filter((c) => !given.coupons.find((g) => g.id === c.id && g.rule?.kind === 'free_shipping'))
      .reduce((s, c) => s + c.amount, 0);
    expect(itemCouponAmounts).toBe(m.discount);
    for (const v of [m.subtotal, m.discount, m.shipping, m.tax, m.total]) expect(Number.isSafeInteger(v)).toBe(true);
  });

  test('lines carry unit price, quantity and the undiscounted line total', () => {
    const m = priceCart(input([line('a', 1250, 4)], [pct('TEN', 1000)]));
    expect(m.lines).toEqual([{ itemId: 'a', quantity: 4, unitPrice: 1250, lineTotal: 5000 }]);
    expect(m.currency).toBe('EUR');
  });

  test('is pure: the same input gives the same matrix, and removing a coupon leaves no trace of it', () => {
    const lines = [line('a', 4000, 1, { shippable: true, taxRate: 1900 }), line('b', 999, 2, { taxRate: 700 })];
    const all = [pct('TEN', 1000), fixed('FIVE', 500), freeShip('SHIP')];
    expect(priceCart(input(lines, all))).toEqual(priceCart(input(lines, all)));
    const withoutTen = priceCart(
      input(
        lines,
        all.filter((c) => c.code !== 'TEN'),
      ),
    );
    expect(withoutTen).toEqual(priceCart(input(lines, [fixed('FIVE', 500), freeShip('SHIP')])));
    expect(withoutTen.coupons.map((c) => c.code)).toEqual(['FIVE', 'SHIP']);
  });

  test('rejects a line in another currency and bad quantities', () => {
    expect(() => priceCart(input([line('a', 100, 1, { currency: 'USD' })]))).toThrow(/USD/);
    expect(() => priceCart(input([line('a', 100, 0)]))).toThrow(/quantity/);
    expect(() => priceCart(input([line('a', 100, 1.5)]))).toThrow(/quantity/);
  });

  test('zero-digit currencies work in whole units', () => {
    const m = priceCart({
      currency: 'JPY',
      lines: [{ itemId: 'a', unitPrice: 1001, quantity: 1, currency: 'JPY', shippable: false, taxRate: 0 }],
      coupons: [pct('TEN', 1000)],
      shippingFee: 500,
      now: NOW,
    });
    expect(m.total).toBe(901);
  });
});
