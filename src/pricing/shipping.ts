// The flat shipping fee per currency, in minor units: one fee per cart with anything shippable.
import { minorDigits } from './money.js';

const FLAT_FEES: Record<string, number> = { EUR: 490, CHF: 790, GBP: 450, USD: 599 };

export function shippingFeeFor(currency: string): number {
  // Elsewhere: five major units, whatever the currency's minor digits.
  return FLAT_FEES[currency] ?? 5 * 10 ** minorDigits(currency);
}
