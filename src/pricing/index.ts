// The pricing module's public surface: pure functions over plain data (see docs/pricing.md).
export { priceCart } from './price-cart.js';
export { shippingFeeFor } from './shipping.js';
export { toDecimal, toDecimalOrNull } from './money.js';
export * from './pricing.types.js';
