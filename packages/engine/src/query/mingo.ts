// The engine's mingo: mingo's own operators, except where MongoDB's answer depends on BSON comparison order
// across types (mingo compares ObjectIds after dates, strings by UTF-16 code units): the $min and $max
// accumulators (which are also the $min/$max expressions over an array) compare with query/sort.ts's BSON
// order. mingo's default entry point puts its own operators before any given in options, so the engine's
// modules import Query and Aggregator from here. $in, $nin and $all refuse an argument that is not an array
// (MongoDB: BadValue "$in needs an array") where mingo would fail on it with a TypeError. Numbers compare by
// value across Int32, Long, Double and Decimal128 (query/numbers.ts) in the query operators, `$all`, the
// aggregation comparisons and `$in`, `$group` keys and the `$addToSet` accumulator.
import type { AnyObject, Options } from 'mingo/types';
import { Aggregator as BaseAggregator } from 'mingo/aggregator';
import { Context } from 'mingo/core';
import { Query as BaseQuery } from 'mingo/query';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import * as windowOperators from 'mingo/operators/window';
import { CommandError } from '../errors.js';
import {
  type ExpressionOperator,
  GROUP_KEY,
  groupByValue,
  groupKeyExpression,
  type MatchOperator,
  numericAll,
  numericComparison,
  numericEq,
  numericIn,
  numericInExpression,
  numericNe,
  numericNin,
  numericRange,
} from './numbers.js';
import { encodeKey } from '../storage/keys.js';
import { compare } from './sort.js';

type Accumulator = (coll: AnyObject[], expr: unknown, options: Options) => unknown;
const $push = accumulatorOperators.$push as Accumulator;

/** $min/$max in BSON order; null and missing values are ignored (null when nothing else is left), as in MongoDB. */
function extreme(sign: 1 | -1): Accumulator {
  return (coll, expr, options) => {
    let best: unknown = null;
    for (const v of $push(coll, expr, options) as unknown[]) {
      if (v === null || v === undefined) continue;
      if (best === null || compare(v, best) * sign > 0) best = v;
    }
    return best;
  };
}

/** $addToSet with values equal by value (1, 1.0, NumberLong(1), NumberDecimal("1") and documents or arrays of
 *  them) kept once, the first met, as MongoDB does; mingo's keeps one per type and structure. */
const addToSet: Accumulator = (coll, expr, options) => {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const v of $push(coll, expr, options) as unknown[]) {
    if (v === undefined) continue;
    const key = encodeKey(v);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
  }
  return out;
};

type QueryOperator = (selector: string, value: unknown, options: Options) => unknown;

/** A query operator whose argument must be an array, checked when the filter is compiled. */
function needsArray(name: string, op: QueryOperator): QueryOperator {
  return (selector, value, options) => {
    if (!Array.isArray(value)) throw new CommandError('BadValue', `${name} needs an array`);
    return op(selector, value, options);
  };
}

const mingoEq = queryOperators.$eq as MatchOperator;
const expr = (name: keyof typeof expressionOperators): ExpressionOperator =>
  expressionOperators[name] as ExpressionOperator;

const ENGINE_CONTEXT = Context.init({
  accumulator: { ...accumulatorOperators, $min: extreme(-1), $max: extreme(1), $addToSet: addToSet },
  expression: {
    ...expressionOperators,
    $eq: numericComparison(expr('$eq'), (c) => c === 0),
    $ne: numericComparison(expr('$ne'), (c) => c !== 0),
    $gt: numericComparison(expr('$gt'), (c) => c > 0),
    $gte: numericComparison(expr('$gte'), (c) => c >= 0),
    $lt: numericComparison(expr('$lt'), (c) => c < 0),
    $lte: numericComparison(expr('$lte'), (c) => c <= 0),
    $cmp: numericComparison(expr('$cmp'), (c) => Math.sign(c)),
    $in: numericInExpression(expr('$in')),
    [GROUP_KEY]: groupKeyExpression(() => {
      throw new CommandError('InvalidPipelineOperator', `Unrecognized expression '${GROUP_KEY}'`);
    }),
  },
  pipeline: { ...pipelineOperators, $group: groupByValue(pipelineOperators.$group) },
  projection: projectionOperators,
  query: {
    ...queryOperators,
    $eq: numericEq(mingoEq),
    $ne: numericNe(numericEq(mingoEq)),
    $gt: numericRange(queryOperators.$gt as MatchOperator, (c) => c > 0, false),
    $gte: numericRange(queryOperators.$gte as MatchOperator, (c) => c >= 0, true),
    $lt: numericRange(queryOperators.$lt as MatchOperator, (c) => c < 0, false),
    $lte: numericRange(queryOperators.$lte as MatchOperator, (c) => c <= 0, true),
    $in: needsArray('$in', numericIn(queryOperators.$in as MatchOperator) as QueryOperator),
    $nin: needsArray('$nin', numericNin(numericIn(queryOperators.$in as MatchOperator)) as QueryOperator),
    $all: needsArray('$all', numericAll(queryOperators.$all as MatchOperator, numericEq(mingoEq)) as QueryOperator),
  },
  window: windowOperators,
} as Parameters<typeof Context.init>[0]);

/** mingo's Query with the engine's operators. */
export class Query extends BaseQuery {
  constructor(condition: ConstructorParameters<typeof BaseQuery>[0], options?: Partial<Options>) {
    super(condition, { ...options, context: ENGINE_CONTEXT });
  }
}

/** mingo's Aggregator with the engine's operators. */
export class Aggregator extends BaseAggregator {
  constructor(pipeline: ConstructorParameters<typeof BaseAggregator>[0], options?: Partial<Options>) {
    super(pipeline, { ...options, context: ENGINE_CONTEXT });
  }
}
