// Money on the wire: integer minor units inside, decimals rounded to the currency's minor digits outside.
const digitsCache = new Map<string, number>();

/** Minor digits of an ISO 4217 currency (EUR 2, JPY 0, BHD 3), from the platform's own currency data. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}

/** Minor units -> the decimal number clients see (1999 EUR -> 19.99). */
export function toDecimal(minor: number, currency: string): number {
  const digits = minorDigits(currency);
  // Division by a power of ten yields the closest double, whose shortest form is the exact decimal.
  return digits === 0 ? minor : Number((minor / 10 ** digits).toFixed(digits));
}

/** Nullable variant for optional amounts. */
export function toDecimalOrNull(minor: number | null | undefined, currency: string): number | null {
  return minor === null || minor === undefined ? null : toDecimal(minor, currency);
}

/** Rounds n/d half up for non-negative integers, exactly (BigInt: products of basis points overflow doubles). */
export function roundDiv(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}
