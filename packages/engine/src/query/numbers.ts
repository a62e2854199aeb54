// Numbers in filters compare by value across Int32, Long, Double and Decimal128, as in MongoDB: `{_id:
// NumberDecimal("5")}` finds a stored `{_id: 5}`, `{n: {$gt: NumberDecimal("4.5")}}` a stored Long(5), and
// `{n: 5}` a stored NumberDecimal("5.0"). Documents are decoded with int32, doubles and longs within 2^53 as
// JavaScript numbers, but a Decimal128 (and a Long past 2^53) stays an object, which mingo's $eq/$in/$gt…
// compare by type and structure. The engine's versions of those operators take over when the operand is a
// number (or, for $in/$nin, the list holds one) and otherwise leave the operator to mingo unchanged.
// Equality is the index keys' (storage/keys.ts encodeKey: one key per value, NaN equal to NaN, -0 to 0);
// order is exact (compareNumbers), with MongoDB's rule that NaN is equal to NaN and unordered against the rest.
import { evalExpr } from 'mingo/core';
import type { AnyObject, Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import { compareNumbers, encodeKey, isNumberLike, valuesAtPath } from '../storage/keys.js';
import { compare } from './sort.js';

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
    if (!isNumberLike(value))
      return holdsNumber(value) ? structuralEq(selector, value) : mingo(selector, value, options);
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
    if (!Array.isArray(value) || !value.some(holdsNumber)) return mingo(selector, value, options);
    const numbers = new Set(value.filter(isNumberLike).map((v) => encodeKey(v)));
    const structured = value.filter((v) => !isNumberLike(v) && holdsNumber(v)).map((v) => structuralEq(selector, v));
    const others = value.filter((v) => !holdsNumber(v));
    const rest = others.length > 0 ? mingo(selector, others, options) : undefined;
    return (obj) => {
      if (numbers.size > 0)
        for (const v of candidates(obj, selector, 0)) if (isNumberLike(v) && numbers.has(encodeKey(v))) return true;
      if (structured.some((t) => t(obj))) return true;
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

/** A plain embedded document (not a BSON value class, a date or a regular expression). */
function isDocument(v: unknown): v is Record<string, unknown> {
  return (
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    !(v instanceof Date) &&
    !(v instanceof RegExp) &&
    (v as { _bsontype?: unknown })._bsontype === undefined
  );
}

/** Whether a value is a number or an embedded document or array holding one at any depth: such a value
 *  compares by value (encodeKey), where mingo compares by type and structure. */
function holdsNumber(v: unknown): boolean {
  if (isNumberLike(v)) return true;
  if (Array.isArray(v)) return v.some(holdsNumber);
  if (isDocument(v)) {
    for (const k in v) if (holdsNumber(v[k])) return true;
  }
  return false;
}

/** The values a filter on `path` is tested against, as MongoDB does: each value the path reaches, and for an
 *  array also its elements. */
function eachValue(obj: unknown, path: readonly string[], test: (v: unknown) => boolean): boolean {
  for (const v of valuesAtPath(obj, path)) {
    if (test(v)) return true;
    if (Array.isArray(v)) for (const e of v) if (test(e)) return true;
  }
  return false;
}

/** Equality by value with an embedded document or array operand holding a number: same fields in the same
 *  order, numbers equal by value at every depth. */
function structuralEq(selector: string, value: unknown): (obj: unknown) => boolean {
  const key = encodeKey(value);
  const path = selector.split('.');
  return (obj) => eachValue(obj, path, (v) => (Array.isArray(v) || isDocument(v)) && encodeKey(v) === key);
}

/** `$all` with numbers among its values (no `$elemMatch`): each value matched as `$eq` is, by value. */
export function numericAll(mingo: MatchOperator, eq: MatchOperator): MatchOperator {
  return (selector, value, options) => {
    if (!Array.isArray(value) || value.length === 0 || !value.some(holdsNumber) || value.some(isElemMatch))
      return mingo(selector, value, options);
    const tests = value.map((v) => eq(selector, v, options));
    return (obj) => tests.every((t) => t(obj));
  };
}

function isElemMatch(v: unknown): boolean {
  return isDocument(v) && Object.keys(v)[0] === '$elemMatch';
}

/** An aggregation expression operator as mingo calls it. */
export type ExpressionOperator = (obj: AnyObject, expr: unknown, options: Options) => unknown;

const literal = (v: unknown): unknown => ({ $literal: v });

/**
 * An aggregation comparison (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$cmp`): when either operand holds a
 * number, the two values compare in BSON order (query/sort.ts compare: numbers by value across types, embedded
 * documents and arrays field by field), as MongoDB's expressions do; otherwise mingo's, given the values.
 */
export function numericComparison(mingo: ExpressionOperator, result: (c: number) => unknown): ExpressionOperator {
  return (obj, expr, options) => {
    if (!Array.isArray(expr) || expr.length !== 2) return mingo(obj, expr, options);
    const [a, b] = evalExpr(obj, expr, options) as [unknown, unknown];
    // A missing value is a value of its own, below every other (null included), as MongoDB compares them in
    // expressions; mingo takes it for null.
    if ((a === undefined) !== (b === undefined)) return result(a === undefined ? -1 : 1);
    if (holdsNumber(a) || holdsNumber(b)) return result(compare(a, b));
    return mingo(obj, [literal(a), literal(b)], options);
  };
}

/** The `$in` expression with a value holding a number: found in the array by value. */
export function numericInExpression(mingo: ExpressionOperator): ExpressionOperator {
  return (obj, expr, options) => {
    if (!Array.isArray(expr) || expr.length !== 2) return mingo(obj, expr, options);
    const [item, list] = evalExpr(obj, expr, options) as [unknown, unknown];
    if (Array.isArray(list) && holdsNumber(item)) return list.some((v) => compare(v, item) === 0);
    return mingo(obj, [literal(item), literal(list)], options);
  };
}

/** The expression `$group` keys are computed with (see groupByValue): its argument is made there. */
export const GROUP_KEY = '$engineGroupKey';

interface GroupKeyArg {
  id: unknown;
  seen: Map<string, unknown>;
}

/** Computes a `$group` key and returns, for keys equal by value (1, 1.0, NumberLong(1), NumberDecimal("1") and
 *  documents or arrays of them), the first one met, so mingo's grouping (by type and structure) puts them in
 *  one group, as MongoDB does. */
export function groupKeyExpression(unknownOperator: () => never): ExpressionOperator {
  return (obj, expr, options) => {
    const arg = expr as GroupKeyArg;
    if (!isDocument(arg) || !(arg.seen instanceof Map)) return unknownOperator();
    const id = evalExpr(obj, arg.id, options);
    if (!holdsNumber(id)) return id;
    const key = encodeKey(id);
    const first = arg.seen.get(key);
    if (first !== undefined) return first;
    arg.seen.set(key, id);
    return id;
  };
}

/** mingo's `$group` with its `_id` computed through GROUP_KEY (keys equal by value form one group). */
export function groupByValue<C, E extends { _id: unknown }, R>(
  mingo: (coll: C, expr: E, options: Options) => R,
): (coll: C, expr: E, options: Options) => R {
  return (coll, expr, options) => {
    const id = expr._id;
    const computed = (typeof id === 'string' && id.startsWith('$')) || (id !== null && typeof id === 'object');
    if (!computed) return mingo(coll, expr, options);
    const arg: GroupKeyArg = { id, seen: new Map() };
    return mingo(coll, { ...expr, _id: { [GROUP_KEY]: arg } }, options);
  };
}
