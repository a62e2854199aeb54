// The executor's walk over a query (see execute.ts): a selection's fields resolved and their values completed,
// down through lists, abstract and object types, in graphql-js's order of promises and errors.
import {
  GraphQLError,
  getNamedType,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  locatedError,
  type FieldNode,
  type GraphQLAbstractType,
  type GraphQLLeafType,
  type GraphQLList,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
} from 'graphql';
import { defaultTypeResolver } from 'graphql/execution/execute.js';
import { addPath, pathToArray, type Path } from 'graphql/jsutils/Path.js';
import { inspect } from 'graphql/jsutils/inspect.js';
import { mayAppear } from './answer-keys.js';
import { subfieldsOf, type Fields } from './collected-fields.js';
import { argumentsOf, infoOf, resolveInfo, type Context, type Field, type FieldAt } from './execution-context.js';
import { handleFieldError, handleLaterError } from './field-errors.js';
import {
  isIterableObject,
  isObjectLike,
  isPromise,
  promiseForObject,
  setKey,
  type Completed,
  type Result,
} from './result-objects.js';
import { ensureValidRuntimeType, invalidReturnTypeError } from './runtime-types.js';

export function executeFields(
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
  if (result == null) {
    // Something may take the place of this null later: the answer depends on where it would come from.
    if (ctx.keys && !isLeafType(returnType)) ctx.keys.depends(mayAppear(ctx.exe.schema, getNamedType(returnType)));
    return null;
  }
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
  if (ctx.keys) {
    // A list may gain or lose members without any member changing.
    const named = getNamedType(itemType);
    if (!isLeafType(named)) ctx.keys.depends(mayAppear(ctx.exe.schema, named));
  }
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

function completeObjectValue(
  ctx: Context,
  returnType: GraphQLObjectType,
  fieldNodes: ReadonlyArray<FieldNode>,
  at: FieldAt,
  path: Path,
  result: unknown,
): Completed {
  const subFieldNodes = subfieldsOf(ctx.exe, ctx.subfields, returnType, fieldNodes);
  ctx.keys?.object(returnType.name, result);
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
