// Query execution for Apollo (src/graphql/server.ts): graphql-js 16's `execute` algorithm, step for step, minus the
// allocations that made it the largest cost of an uncached answer after the store (docs/decisions.md, "Our own query executor").
// Adapted from graphql-js 16.15 `execution/execute.js` (MIT licence, Copyright (c) GraphQL Contributors); the
// helpers it exports (variable and argument coercion, field collection, paths, located errors, the error list) are
// used as they are. What differs, and why:
// - result objects are ordinary objects (`{}`) built in field order, not `Object.create(null)`: those are
//   dictionary-mode objects in V8, about 1 KB each (0.6 MB of the 3.5 MB a nested answer allocated), slower to
//   fill, to serialise and to collect. A response key `__proto__` (a legal alias) is defined as an own property.
// - a field without a resolver (graphql-js's default resolver) reads the property without building the resolve
//   info; the info is built only if the property is a function (which the default resolver calls with it).
// - a field without arguments gets one shared, frozen, empty arguments object.
// - the fields collected for a selection are kept per document across requests when no @skip/@include reads a
//   variable (graphql-js collects them again for every request).
// The promise structure is graphql-js's (same `then` chains, `Promise.all` per object and per list), so resolvers
// run in the same order and ticks (DataLoader batches the same reads) and errors are collected in the same order,
// with the same messages, paths and null propagation. Mutations and subscriptions go to graphql-js's `execute`.
import { execute as graphqlExecute, GraphQLError, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { assertValidExecutionArguments, buildExecutionContext } from 'graphql/execution/execute.js';
import { hasVariableDirectives, rootFieldsOf } from './collected-fields.js';
import type { Context as AppContext } from '../context.js';
import type { Context } from './execution-context.js';
import { executeFields } from './execute-fields.js';
import { isPromise, type Result } from './result-objects.js';
import { recordSettled } from './released-answers.js';

/** Executes a query as graphql-js would (see the top of this file); other operations through graphql-js itself. */
export function executeQuery(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  assertValidExecutionArguments(args.schema, args.document, args.variableValues);
  const exe = buildExecutionContext(args);
  if (!('schema' in exe)) return { errors: exe };
  const { operation, schema } = exe;
  if (operation.operation !== 'query') return graphqlExecute(args);
  const dynamic = hasVariableDirectives(args.document);
  const keys = (exe.contextValue as Partial<AppContext> | undefined)?.http?.keys;
  const ctx: Context = { exe, subfields: dynamic ? new WeakMap() : undefined, settled: [], keys };
  const buildResponse = (data: Result | null): ExecutionResult => {
    if (data && ctx.settled.length > 0) recordSettled(data, ctx.settled);
    const errors = exe.collectedErrors.errors;
    return errors.length === 0 ? { data } : { errors, data };
  };
  try {
    const rootType = schema.getRootType(operation.operation);
    if (rootType == null)
      throw new GraphQLError(`Schema is not configured to execute ${operation.operation} operation.`, {
        nodes: operation,
      });
    const result = executeFields(ctx, rootType, exe.rootValue, undefined, rootFieldsOf(exe, rootType, dynamic));
    if (isPromise(result)) {
      return result.then(
        (data) => buildResponse(data),
        (error: unknown) => {
          exe.collectedErrors.add(error as GraphQLError, undefined);
          return buildResponse(null);
        },
      );
    }
    return buildResponse(result);
  } catch (error) {
    exe.collectedErrors.add(error as GraphQLError, undefined);
    return buildResponse(null);
  }
}
