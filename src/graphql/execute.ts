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
import {
  execute as graphqlExecute,
  GraphQLError,
  getNamedType,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  locatedError,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLList,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
} from 'graphql';
import {
  assertValidExecutionArguments,
  buildExecutionContext,
  defaultTypeResolver,
  type ExecutionContext,
} from 'graphql/execution/execute.js';
import values from 'graphql/execution/values.js';
import { addPath, pathToArray, type Path } from 'graphql/jsutils/Path.js';
import { inspect } from 'graphql/jsutils/inspect.js';
import {
  hasVariableDirectives,
  rootFieldsOf,
  subfieldsOf,
  type Fields,
  type SubfieldsCache,
} from './collected-fields.js';
import { recordSettled } from './released-answers.js';

type Field = GraphQLField<unknown, unknown>;
type Result = Record<string, unknown>;
type Completed = unknown;

const NO_ARGUMENTS: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

const isPromise = (value: unknown): value is Promise<unknown> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
const isObjectLike = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isIterableObject = (value: unknown): value is Iterable<unknown> =>
  typeof value === 'object' &&
  typeof (value as { [Symbol.iterator]?: unknown } | null)?.[Symbol.iterator] === 'function';

function setKey(object: Result, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** graphql-js's `promiseForObject`, building an ordinary object. */
function promiseForObject(ctx: Context, object: Result): Promise<Result> {
  return Promise.all(Object.values(object)).then((resolved) => {
    const out: Result = {};
    const keys = Object.keys(object);
    for (let i = 0; i < keys.length; i++) setKey(out, keys[i]!, resolved[i]);
    ctx.settled.push(out);
    return out;
  });
}

interface Context {
  exe: ExecutionContext;
  /** Per-request collected subfields when the document's field collection depends on variables. */
  subfields: SubfieldsCache | undefined;
  /** Result objects and lists that settled a promise (see released-answers.ts). */
  settled: object[];
}

/** Executes a query as graphql-js would (see the top of this file); other operations through graphql-js itself. */
export function executeQuery(args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  assertValidExecutionArguments(args.schema, args.document, args.variableValues);
  const exe = buildExecutionContext(args);
  if (!('schema' in exe)) return { errors: exe };
  const { operation, schema } = exe;
  if (operation.operation !== 'query') return graphqlExecute(args);
  const dynamic = hasVariableDirectives(args.document);
  const ctx: Context = { exe, subfields: dynamic ? new WeakMap() : undefined, settled: [] };
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

function executeFields(
  ctx: Context,
  parentType: GraphQLObjectType,
  source: unknown,
  path: Path | undefined,
  fields: Fields,
): Result | Promise<Result> {
  const results: Result = {};
  let containsPromise = false;
  try {
    const { names, nodes, defs } = fields;
    for (let i = 0; i < names.length; i++) {
      const responseName = names[i]!;
      const field = defs[i];
      const result = field && executeField(ctx, field, parentType, source, nodes[i]!, path, responseName);
      if (result !== undefined) {
        setKey(results, responseName, result);
        if (isPromise(result)) containsPromise = true;
      }
    }
  } catch (error) {
    if (containsPromise) {
      return promiseForObject(ctx, results).finally(() => {
        throw error;
      });
    }
    throw error;
  }
  return containsPromise ? promiseForObject(ctx, results) : results;
}

function resolveInfo(
  ctx: Context,
  field: Field,
  fieldNodes: ReadonlyArray<FieldNode>,
  parentType: GraphQLObjectType,
  path: Path,
): GraphQLResolveInfo {
  const { exe } = ctx;
  return {
    fieldName: field.name,
    fieldNodes,
    returnType: field.type,
    parentType,
    path,
    schema: exe.schema,
    fragments: exe.fragments,
    rootValue: exe.rootValue,
    operation: exe.operation,
    variableValues: exe.variableValues,
  };
}

function argumentsOf(ctx: Context, field: Field, node: FieldNode): Record<string, unknown> {
  return field.args.length === 0 && !node.arguments?.length
    ? NO_ARGUMENTS
    : values.getArgumentValues(field, node, ctx.exe.variableValues);
}

/**
 * The field a value is completed for, as completion needs it (graphql-js passes the resolve info): the resolve info
 * when the resolver was given one, else just the field's name, parent type and path.
 */
type FieldAt = Pick<GraphQLResolveInfo, 'fieldName' | 'parentType' | 'path'>;

function infoOf(ctx: Context, at: FieldAt, fieldNodes: ReadonlyArray<FieldNode>): GraphQLResolveInfo {
  if ('fieldNodes' in at) return at as GraphQLResolveInfo;
  return resolveInfo(ctx, at.parentType.getFields()[at.fieldName]!, fieldNodes, at.parentType, at.path);
}

function executeField(
  ctx: Context,
  field: Field,
  parentType: GraphQLObjectType,
  source: unknown,
  fieldNodes: ReadonlyArray<FieldNode>,
  parentPath: Path | undefined,
  responseName: string,
): Completed {
  const returnType = field.type;
  // The field's path is made when something needs it (the resolve info, an error, a value to complete further).
  let path: Path | undefined;
  let info: GraphQLResolveInfo | undefined;
  let result: unknown;
  try {
    const args = argumentsOf(ctx, field, fieldNodes[0]!);
    const contextValue = ctx.exe.contextValue;
    if (field.resolve) {
      info = resolveInfo(
        ctx,
        field,
        fieldNodes,
        parentType,
        (path = addPath(parentPath, responseName, parentType.name)),
      );
      result = field.resolve(source, args, contextValue, info);
    } else if (isObjectLike(source) || typeof source === 'function') {
      // graphql-js's defaultFieldResolver, with the info built only for a method.
      const property = (source as Result)[field.name];
      if (typeof property === 'function') {
        info = resolveInfo(
          ctx,
          field,
          fieldNodes,
          parentType,
          (path = addPath(parentPath, responseName, parentType.name)),
        );
        result = (source as Record<string, (...a: unknown[]) => unknown>)[field.name]!(args, contextValue, info);
      } else {
        result = property;
      }
    }
    if (info === undefined && !isPromise(result)) {
      // A plain value read from its parent: a scalar completes here, as completeValue would complete it.
      const named = isNonNullType(returnType) ? returnType.ofType : returnType;
      if (result != null && isLeafType(named) && !(result instanceof Error)) return completeLeafValue(named, result);
    }
  } catch (rawError) {
    path ??= addPath(parentPath, responseName, parentType.name);
    return handleFieldError(ctx, locatedError(rawError, fieldNodes, pathToArray(path)), returnType, path);
  }
  path ??= addPath(parentPath, responseName, parentType.name);
  return completeField(ctx, returnType, fieldNodes, info ?? { fieldName: field.name, parentType, path }, path, result);
}

/** The rest of graphql-js's executeField (apart, so that a scalar read from its parent costs no more). */
function completeField(
  ctx: Context,
  returnType: GraphQLOutputType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  path: Path,
  result: unknown,
): Completed {
  try {
    const completed = isPromise(result)
      ? completeWhenResolved(ctx, returnType, fieldNodes, at, path, result)
      : completeValue(ctx, returnType, fieldNodes, at, path, result);
    return isPromise(completed) ? handleLaterError(ctx, returnType, fieldNodes, path, completed) : completed;
  } catch (rawError) {
    return handleFieldError(ctx, locatedError(rawError, fieldNodes, pathToArray(path)), returnType, path);
  }
}

function handleFieldError(ctx: Context, error: GraphQLError, returnType: GraphQLOutputType, path: Path): null {
  // A non-null field's error propagates to its parent field (which may be nullable).
  if (isNonNullType(returnType)) throw error;
  ctx.exe.collectedErrors.add(error, path);
  return null;
}

function completeValue(
  ctx: Context,
  returnType: GraphQLOutputType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  path: Path,
  result: unknown,
): Completed {
  if (result instanceof Error) throw result;
  if (isNonNullType(returnType)) {
    const completed = completeValue(ctx, returnType.ofType, fieldNodes, at, path, result);
    if (completed === null)
      throw new Error(`Cannot return null for non-nullable field ${at.parentType.name}.${at.fieldName}.`);
    return completed;
  }
  if (result == null) return null;
  if (isListType(returnType)) return completeListValue(ctx, returnType, fieldNodes, at, path, result);
  if (isLeafType(returnType)) return completeLeafValue(returnType, result);
  if (isAbstractType(returnType)) return completeAbstractValue(ctx, returnType, fieldNodes, at, path, result);
  if (isObjectType(returnType)) return completeObjectValue(ctx, returnType, fieldNodes, at, path, result);
  throw new Error(`Cannot complete value of unexpected output type: ${inspect(returnType)}`);
}

function completeListValue(
  ctx: Context,
  returnType: GraphQLList<GraphQLOutputType>,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  path: Path,
  result: unknown,
): Completed {
  if (!isIterableObject(result)) {
    throw new GraphQLError(
      `Expected Iterable, but did not find one for field "${at.parentType.name}.${at.fieldName}".`,
    );
  }
  const itemType = returnType.ofType;
  const items = Array.isArray(result) ? result : Array.from(result);
  const completedResults: Completed[] = [];
  let containsPromise = false;
  for (let index = 0; index < items.length; index++) {
    const completedItem = completeListItem(ctx, itemType, fieldNodes, at, path, index, items[index]);
    if (isPromise(completedItem)) containsPromise = true;
    completedResults.push(completedItem);
  }
  return containsPromise ? Promise.all(completedResults) : completedResults;
}

/** One item of a list, as graphql-js's completeListValue completes it; a scalar item needs no path of its own. */
function completeListItem(
  ctx: Context,
  itemType: GraphQLOutputType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  listPath: Path,
  index: number,
  item: unknown,
): Completed {
  let itemPath: Path | undefined;
  try {
    if (!isPromise(item)) {
      const named = isNonNullType(itemType) ? itemType.ofType : itemType;
      if (item != null && isLeafType(named) && !(item instanceof Error)) return completeLeafValue(named, item);
    }
    itemPath = addPath(listPath, index, undefined);
    const completedItem = isPromise(item)
      ? completeWhenResolved(ctx, itemType, fieldNodes, at, itemPath, item)
      : completeValue(ctx, itemType, fieldNodes, at, itemPath, item);
    return isPromise(completedItem)
      ? handleLaterError(ctx, itemType, fieldNodes, itemPath, completedItem)
      : completedItem;
  } catch (rawError) {
    itemPath ??= addPath(listPath, index, undefined);
    return handleFieldError(ctx, locatedError(rawError, fieldNodes, pathToArray(itemPath)), itemType, itemPath);
  }
}

function completeWhenResolved(
  ctx: Context,
  returnType: GraphQLOutputType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  path: Path,
  result: Promise<unknown>,
): Promise<Completed> {
  return result.then((resolved) => {
    const completed = completeValue(ctx, returnType, fieldNodes, at, path, resolved);
    // Objects and lists the executor made (a leaf's serialized value may be anyone's object: left alone).
    if (isObjectLike(completed) && !isPromise(completed) && !isLeafType(getNamedType(returnType)))
      ctx.settled.push(completed);
    return completed;
  });
}

function handleLaterError(
  ctx: Context,
  returnType: GraphQLOutputType,
  fieldNodes: ReadonlyArray<FieldNode>,
  path: Path,
  completed: Promise<Completed>,
): Promise<Completed> {
  return completed.then(undefined, (rawError: unknown) =>
    handleFieldError(ctx, locatedError(rawError, fieldNodes, pathToArray(path)), returnType, path),
  );
}

function completeLeafValue(returnType: GraphQLLeafType, result: unknown): unknown {
  const serialized = returnType.serialize(result);
  if (serialized == null) {
    throw new Error(
      `Expected \`${inspect(returnType)}.serialize(${inspect(result)})\` to return non-nullable value, returned: ${inspect(serialized)}`,
    );
  }
  return serialized;
}

function completeAbstractValue(
  ctx: Context,
  returnType: GraphQLAbstractType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  path: Path,
  result: unknown,
): Completed {
  const resolveTypeFn = returnType.resolveType ?? ctx.exe.typeResolver ?? defaultTypeResolver;
  const info = infoOf(ctx, at, fieldNodes);
  const runtimeType = resolveTypeFn(result, ctx.exe.contextValue, info, returnType);
  if (isPromise(runtimeType)) {
    return runtimeType.then((resolved) =>
      completeObjectValue(
        ctx,
        ensureValidRuntimeType(ctx, resolved, returnType, fieldNodes, at, result),
        fieldNodes,
        at,
        path,
        result,
      ),
    );
  }
  return completeObjectValue(
    ctx,
    ensureValidRuntimeType(ctx, runtimeType, returnType, fieldNodes, at, result),
    fieldNodes,
    at,
    path,
    result,
  );
}

function ensureValidRuntimeType(
  ctx: Context,
  runtimeTypeName: unknown,
  returnType: GraphQLAbstractType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  result: unknown,
): GraphQLObjectType {
  const where = `for field "${at.parentType.name}.${at.fieldName}"`;
  if (runtimeTypeName == null) {
    throw new GraphQLError(
      `Abstract type "${returnType.name}" must resolve to an Object type at runtime ${where}. Either the "${returnType.name}" type should provide a "resolveType" function or each possible type should provide an "isTypeOf" function.`,
      fieldNodes,
    );
  }
  if (isObjectType(runtimeTypeName)) {
    throw new GraphQLError(
      'Support for returning GraphQLObjectType from resolveType was removed in graphql-js@16.0.0 please return type name instead.',
    );
  }
  if (typeof runtimeTypeName !== 'string') {
    throw new GraphQLError(
      `Abstract type "${returnType.name}" must resolve to an Object type at runtime ${where} with value ${inspect(result)}, received "${inspect(runtimeTypeName)}".`,
    );
  }
  const runtimeType = ctx.exe.schema.getType(runtimeTypeName);
  if (runtimeType == null) {
    throw new GraphQLError(
      `Abstract type "${returnType.name}" was resolved to a type "${runtimeTypeName}" that does not exist inside the schema.`,
      { nodes: fieldNodes },
    );
  }
  if (!isObjectType(runtimeType)) {
    throw new GraphQLError(
      `Abstract type "${returnType.name}" was resolved to a non-object type "${runtimeTypeName}".`,
      { nodes: fieldNodes },
    );
  }
  if (!ctx.exe.schema.isSubType(returnType, runtimeType)) {
    throw new GraphQLError(
      `Runtime Object type "${runtimeType.name}" is not a possible type for "${returnType.name}".`,
      { nodes: fieldNodes },
    );
  }
  return runtimeType;
}

function completeObjectValue(
  ctx: Context,
  returnType: GraphQLObjectType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  path: Path,
  result: unknown,
): Completed {
  const subFieldNodes = subfieldsOf(ctx.exe, ctx.subfields, returnType, fieldNodes);
  if (returnType.isTypeOf) {
    const isTypeOf = returnType.isTypeOf(result, ctx.exe.contextValue, infoOf(ctx, at, fieldNodes));
    if (isPromise(isTypeOf)) {
      return isTypeOf.then((resolved) => {
        if (!resolved) throw invalidReturnTypeError(returnType, result, fieldNodes);
        return executeFields(ctx, returnType, result, path, subFieldNodes);
      });
    }
    if (!isTypeOf) throw invalidReturnTypeError(returnType, result, fieldNodes);
  }
  return executeFields(ctx, returnType, result, path, subFieldNodes);
}

function invalidReturnTypeError(
  returnType: GraphQLObjectType,
  result: unknown,
  fieldNodes: ReadonlyArray<FieldNode>,
): GraphQLError {
  return new GraphQLError(`Expected value of type "${returnType.name}" but got: ${inspect(result)}.`, {
    nodes: fieldNodes,
  });
}
