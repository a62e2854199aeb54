// What an operation asks for, known before it runs: every (object type, field) its selection sets can reach,
// through fragments, inline fragments and abstract types (a field selected on an interface or union counts
// for each object type that may stand there at run time). Used for the cache policy and the store projections.
import {
  getNamedType, GraphQLIncludeDirective, GraphQLSkipDirective, isAbstractType, isCompositeType, isObjectType, Kind, type DocumentNode,
  type FragmentDefinitionNode, type GraphQLCompositeType, type GraphQLField, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema,
  type OperationDefinitionNode, type SelectionNode, type SelectionSetNode,
} from 'graphql';
import { getArgumentValues, getDirectiveValues } from 'graphql/execution/values.js';

/** The operation `operationName` of `document` (the only one when no name is given), or undefined. */
export function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations.length === 1 ? operations[0] : undefined;
}

/**
 * Calls `visit` once per (object type, field, selection set) the operation can resolve, `atRoot` for the
 * operation's own fields. Meta fields (`__typename`, introspection) are skipped. Returns false when the
 * operation cannot be found in the document.
 */
export function forEachSelectedField(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  visit: (parent: GraphQLObjectType, field: GraphQLField<unknown, unknown>, atRoot: boolean) => void,
): boolean {
  const operation = operationOf(document, operationName);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root) return false;
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]),
  );
  // (type, selection set) pairs already walked: fragments reused across a query are walked once per type.
  const seen = new Map<GraphQLCompositeType, Set<SelectionSetNode>>();

  const walk = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, atRoot: boolean): void => {
    let sets = seen.get(parent);
    if (!sets) seen.set(parent, (sets = new Set()));
    if (sets.has(selectionSet)) return;
    sets.add(selectionSet);
    const objects: readonly GraphQLObjectType[] = isAbstractType(parent) ? schema.getPossibleTypes(parent) : isObjectType(parent) ? [parent] : [];
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        for (const object of objects) {
          const field = object.getFields()[selection.name.value];
          if (!field) continue;
          visit(object, field, atRoot);
          const target = getNamedType(field.type);
          if (selection.selectionSet && isCompositeType(target)) walk(selection.selectionSet, target, false);
        }
      } else {
        const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
        if (!fragment) continue;
        const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        if (condition && isCompositeType(condition)) walk(fragment.selectionSet, condition, atRoot);
      }
    }
  };
  walk(operation.selectionSet, root, true);
  return true;
}

/** For each object type the operation reaches, the names of its fields it selects. */
export type SelectedFields = ReadonlyMap<string, ReadonlySet<string>>;

const selections = new WeakMap<DocumentNode, Map<string, SelectedFields>>();

/** The operation's selected fields per type, computed once per parsed document (Apollo and the REST shims reuse theirs). */
export function selectedFields(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): SelectedFields {
  let byName = selections.get(document);
  if (!byName) selections.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let fields = byName.get(key);
  if (!fields) {
    const found = new Map<string, Set<string>>();
    forEachSelectedField(schema, document, operationName, (parent, field) => {
      let names = found.get(parent.name);
      if (!names) found.set(parent.name, (names = new Set()));
      names.add(field.name);
    });
    byName.set(key, (fields = found));
  }
  return fields;
}

/** Whether `@skip` / `@include` leave a selection in (graphql-js's `shouldIncludeNode`). */
function included(node: SelectionNode, variables: GraphQLResolveInfo['variableValues']): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

/**
 * The arguments (defaults applied) of every `field` the operation selects on the object the running resolver
 * returns, through fragments, left out where `@skip` / `@include` drop it: what a resolver may start reading for its
 * children beside its own read. Arguments that do not coerce are left out (the field reports them when it runs).
 */
export function argumentsOfSelected(info: GraphQLResolveInfo, field: string): Array<Record<string, unknown>> {
  const type = getNamedType(info.returnType);
  const definition = isObjectType(type) ? type.getFields()[field] : undefined;
  if (!definition) return [];
  const found: Array<Record<string, unknown>> = [];
  const walk = (selectionSet: SelectionSetNode | undefined): void => {
    for (const selection of selectionSet?.selections ?? []) {
      if (!included(selection, info.variableValues)) continue;
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value !== field) continue;
        try {
          found.push(getArgumentValues(definition, selection, info.variableValues));
        } catch {
          // reported by the field itself
        }
      } else {
        walk(selection.kind === Kind.INLINE_FRAGMENT ? selection.selectionSet : info.fragments[selection.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet);
  return found;
}
