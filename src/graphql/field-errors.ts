// Where a field's error goes, as in graphql-js: up to the parent of a non-null field, else into the response's
// errors with the field null; kept apart so every completion path propagates errors the same way.
import { isNonNullType, locatedError, type FieldNode, type GraphQLError, type GraphQLOutputType } from 'graphql';
import { pathToArray, type Path } from 'graphql/jsutils/Path.js';
import type { Context } from './execution-context.js';
import type { Completed } from './result-objects.js';

export function handleFieldError(ctx: Context, error: GraphQLError, returnType: GraphQLOutputType, path: Path): null {
  // A non-null field's error propagates to its parent field (which may be nullable).
  if (isNonNullType(returnType)) throw error;
  ctx.exe.collectedErrors.add(error, path);
  return null;
}

export function handleLaterError(
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
