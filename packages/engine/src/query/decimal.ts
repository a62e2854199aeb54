// Decimal128 arithmetic for $inc and $mul (mingo's updater works on JavaScript numbers and leaves a
// Decimal128 unchanged). Exact: a value is a BigInt coefficient and a power of ten, so sums and products
// are computed without rounding and rounded once to 34 digits by Decimal128 itself. As in MongoDB, a
// decimal with any number gives a decimal; a non-integral double enters with 15 significant digits.
import { Decimal128 } from 'bson';
import { exactOfText } from '../storage/keys.js';

interface Exact {
  coef: bigint;
  exp: number;
}

function exact(v: unknown): Exact | undefined {
  let s: string;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return undefined;
    s = Number.isInteger(v) ? BigInt(v).toString() : v.toPrecision(15);
  } else if (typeof v === 'bigint') s = v.toString();
  else s = String(v); // Decimal128, Long, Int32, Double: their decimal string
  const x = exactOfText(s);
  return x && { coef: BigInt(`${x.neg ? '-' : ''}${x.digits || '0'}`), exp: x.exp };
}

function toDecimal(x: Exact): Decimal128 {
  const negative = x.coef < 0n;
  const digits = (negative ? -x.coef : x.coef).toString();
  return Decimal128.fromStringWithRounding(`${negative ? '-' : ''}${digits}E${x.exp}`);
}

function scale(x: Exact, exp: number): bigint {
  return x.coef * 10n ** BigInt(x.exp - exp);
}

/** `a + b` ($inc) or `a * b` ($mul) where at least one is a Decimal128; NaN and infinities as JavaScript computes them. */
export function decimalArithmetic(op: '$inc' | '$mul', a: unknown, b: unknown): Decimal128 {
  const x = exact(a);
  const y = exact(b);
  if (!x || !y) {
    const r = op === '$inc' ? Number(String(a)) + Number(String(b)) : Number(String(a)) * Number(String(b));
    return Decimal128.fromString(Number.isNaN(r) ? 'NaN' : r > 0 ? 'Infinity' : '-Infinity');
  }
  if (op === '$mul') return toDecimal({ coef: x.coef * y.coef, exp: x.exp + y.exp });
  const exp = Math.min(x.exp, y.exp);
  return toDecimal({ coef: scale(x, exp) + scale(y, exp), exp });
}

export function isDecimal(v: unknown): boolean {
  return (v as { _bsontype?: string } | null)?._bsontype === 'Decimal128';
}
