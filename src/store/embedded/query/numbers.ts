// Numbers in filters compare by value across Int32, Long, Double and Decimal128, as in MongoDB: `{_id:
// NumberDecimal("5")}` finds a stored `{_id: 5}`, `{n: {$gt: NumberDecimal("4.5")}}` a stored Long(5), and
// `{n: 5}` a stored NumberDecimal("5.0"). Documents are decoded with int32, doubles and longs within 2^53 as
// JavaScript numbers, but a Decimal128 (and a Long past 2^53) stays an object, which mingo's $eq/$in/$gt…
// compare by type and structure. The engine's versions of those operators take over when the operand is a
// number (or, for $in/$nin, the list holds one) and otherwise leave the operator to mingo unchanged.
// Equality is the index keys' (storage/keys.ts encodeKey: one key per value, NaN equal to NaN, -0 to 0);
// order is exact (compareNumbers), with MongoDB's rule that NaN is equal to NaN and unordered against the rest.
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import { compareNumbers, encodeKey, isNumberLike } from '../storage/keys.js';

/** A query operator as mingo compiles it: a test of documents. */
export type MatchOperator = (selector: string, value: unknown, options: Options) => (obj: unknown) => boolean;

/** The values a field's path yields for a comparison: the value, or an array's elements (nested arrays as many
 *  levels as the path has components after the first, as mingo's $eq flattens them). */
function candidates(obj: unknown, selector: string, depth: number): unknown[] {
  const v = resolve(obj as Parameters<typeof resolve>[0], selector, { unwrapArray: true });
  if (!Array.isArray(v)) return [v];
  const out: unknown[] = [];
  const walk = (xs: unknown[], n: number): void => {
    for (const x of xs) {
      if (Array.isArray(x) && n > 0) walk(x, n - 1);
      else out.push(x);
    }
  };
  walk(v, depth);
  return out;
}

const dots = (selector: string): number => selector.split('.').length - 1;

/** Equal as MongoDB's numbers are: by value across types. */
function sameNumber(a: unknown, b: unknown, bKey: string): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b || (a !== a && b !== b);
  return isNumberLike(a) && encodeKey(a) === bKey;
}

/** `$eq` (and implicit equality) with a number operand: by value; any other operand is mingo's. */
export function numericEq(mingo: MatchOperator): MatchOperator {
  return (selector, value, options) => {
    if (!isNumberLike(value)) return mingo(selector, value, options);
    const key = encodeKey(value);
    const depth = dots(selector);
    return (obj) => candidates(obj, selector, depth).some((v) => sameNumber(v, value, key));
  };
}

export function numericNe(eq: MatchOperator): MatchOperator {
  return (selector, value, options) => {
    const test = eq(selector, value, options);
    return (obj) => !test(obj);
  };
}

/** `$in` with numbers in the list: those by value, the rest (strings, regular expressions, null…) by mingo. */
export function numericIn(mingo: MatchOperator): MatchOperator {
  return (selector, value, options) => {
    if (!Array.isArray(value) || !value.some(isNumberLike)) return mingo(selector, value, options);
    const numbers = new Set(value.filter(isNumberLike).map((v) => encodeKey(v)));
    const others = value.filter((v) => !isNumberLike(v));
    const rest = others.length > 0 ? mingo(selector, others, options) : undefined;
    return (obj) => {
      for (const v of candidates(obj, selector, 0)) if (isNumberLike(v) && numbers.has(encodeKey(v))) return true;
      return rest ? rest(obj) : false;
    };
  };
}

export function numericNin(inOp: MatchOperator): MatchOperator {
  return (selector, value, options) => {
    const test = inOp(selector, value, options);
    return (obj) => !test(obj);
  };
}

/** `$gt`/`$gte`/`$lt`/`$lte` with a number operand: numbers of every type by exact value; NaN only equal to NaN. */
export function numericRange(mingo: MatchOperator, accept: (c: number) => boolean, orEqual: boolean): MatchOperator {
  return (selector, value, options) => {
    if (!isNumberLike(value)) return mingo(selector, value, options);
    const nan = isNaNNumber(value);
    return (obj) => {
      for (const v of candidates(obj, selector, 0)) {
        if (!isNumberLike(v)) continue;
        if (nan || isNaNNumber(v)) {
          if (orEqual && nan && isNaNNumber(v)) return true;
          continue;
        }
        if (accept(compareNumbers(v, value))) return true;
      }
      return false;
    };
  };
}

function isNaNNumber(v: unknown): boolean {
  return typeof v === 'number' ? Number.isNaN(v) : encodeKey(v) === 'dNaN';
}
