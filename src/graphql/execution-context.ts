// The executor's per-request state and what a resolver is given (its arguments, its resolve info): made only when
// something reads them, since most fields are read from their parent without either (see execute.ts).
import type { FieldNode, GraphQLField, GraphQLObjectType, GraphQLResolveInfo } from 'graphql';
import type { ExecutionContext } from 'graphql/execution/execute.js';
import values from 'graphql/execution/values.js';
import type { Path } from 'graphql/jsutils/Path.js';
import type { AnswerKeys } from '../cache/answer-keys.js';
import type { SubfieldsCache } from './collected-fields.js';

export type Field = GraphQLField<unknown, unknown>;

const NO_ARGUMENTS: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

export interface Context {
  exe: ExecutionContext;
  /** Per-request collected subfields when the document's field collection depends on variables. */
  subfields: SubfieldsCache | undefined;
  /** Result objects and lists that settled a promise (see released-answers.ts). */
  settled: object[];
  /** Collects the answer's surrogate keys, when it may be cached publicly (anonymous readers). */
  keys: AnswerKeys | undefined;
}

export function resolveInfo(
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

export function argumentsOf(ctx: Context, field: Field, node: FieldNode): Record<string, unknown> {
  return field.args.length === 0 && !node.arguments?.length
    ? NO_ARGUMENTS
    : values.getArgumentValues(field, node, ctx.exe.variableValues);
}

/**
 * The field a value is completed for, as completion needs it (graphql-js passes the resolve info): the resolve info
 * when the resolver was given one, else just the field's name, parent type and path.
 */
export type FieldAt = Pick<GraphQLResolveInfo, 'fieldName' | 'parentType' | 'path'>;

export function infoOf(ctx: Context, at: FieldAt, fieldNodes: ReadonlyArray<FieldNode>): GraphQLResolveInfo {
  if ('fieldNodes' in at) return at as GraphQLResolveInfo;
  return resolveInfo(ctx, at.parentType.getFields()[at.fieldName]!, fieldNodes, at.parentType, at.path);
}
