// What an operation asks for, known before it runs: every (object type, field) its selection sets can reach,
// through fragments, inline fragments and abstract types (a field selected on an interface or union counts
// for each object type that may stand there at run time). Used for the cache policy and the store projections.
import {
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isCompositeType,
  isObjectType,
  Kind,
  visit,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Selected } from '../store/loaders.js';
import { getArgumentValues, getDirectiveValues } from 'graphql/execution/values.js';

/** The operation `operationName` of `document` (the only one when no name is given), or undefined. */
function operationOf(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
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
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  // (type, selection set) pairs already walked: fragments reused across a query are walked once per type.
  const seen = new Map<GraphQLCompositeType, Set<SelectionSetNode>>();

  const walk = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType, atRoot: boolean): void => {
    let sets = seen.get(parent);
    if (!sets) seen.set(parent, (sets = new Set()));
    if (sets.has(selectionSet)) return;
    sets.add(selectionSet);
    const objects: readonly GraphQLObjectType[] = isAbstractType(parent)
      ? schema.getPossibleTypes(parent)
      : isObjectType(parent)
        ? [parent]
        : [];
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
export function selectedFields(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): SelectedFields {
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

const shown = new WeakMap<DocumentNode, Map<string, ReadonlySet<string>>>();

/**
 * Every type whose objects the operation's answer can show: the types it selects fields of, and the type each
 * selected field returns, even where only `__typename` is asked of it (`{ article(id:) { __typename } }` shows
 * whether the article exists) and for abstract types by their own name too (`Node`, `Linkable`). A write that can
 * change an object of one of them evicts the cached answer (src/cache/invalidation.ts). Once per parsed
 * document and operation name.
 */
export function shownTypes(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): ReadonlySet<string> {
  let byName = shown.get(document);
  if (!byName) shown.set(document, (byName = new Map()));
  const key = operationName ?? '';
  let types = byName.get(key);
  if (!types) {
    const found = new Set<string>();
    forEachSelectedField(schema, document, operationName, (parent, field) => {
      found.add(parent.name);
      const target = getNamedType(field.type);
      if (isCompositeType(target)) {
        found.add(target.name);
        if (isAbstractType(target)) for (const possible of schema.getPossibleTypes(target)) found.add(possible.name);
      }
    });
    byName.set(key, (types = found));
  }
  return types;
}

/** Whether `@skip` / `@include` leave a selection in (graphql-js's `shouldIncludeNode`). */
function included(node: SelectionNode, variables: GraphQLResolveInfo['variableValues']): boolean {
  if (!node.directives?.length) return true;
  if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.if !== false;
}

// What the operation selects at one place in it (store/loaders.ts `Selected`): the loaders read ahead, below the
// documents a field asks for, what that field's own selection goes on to ask of them, and nothing another place in
// the operation selects of the same type. Made once per operation and values of the variables its
// `@skip`/`@include` read (none, for nearly every operation), lazily, and kept with the parsed operation: a request
// of a document seen before finds every selection already made.

/** The operations' plans: by the values of the variables their directives read ('' when they read none). */
interface Plans {
  variables: readonly string[];
  byValues: Map<string, Plan>;
}

const plans = new WeakMap<OperationDefinitionNode, Plans>();

/** Plans kept per operation (sets of directive-variable values). */
const MAX_PLANS_PER_OPERATION = 16;

/** The variables `@skip` / `@include` read in an operation and the fragments it may spread. */
function directiveVariables(operation: OperationDefinitionNode, fragments: GraphQLResolveInfo['fragments']): string[] {
  const found = new Set<string>();
  const visitor = {
    Directive(node: DirectiveNode) {
      if (node.name.value !== 'skip' && node.name.value !== 'include') return;
      for (const argument of node.arguments ?? [])
        if (argument.value.kind === Kind.VARIABLE) found.add(argument.value.name.value);
    },
  };
  visit(operation, visitor);
  for (const fragment of Object.values(fragments)) visit(fragment, visitor);
  return [...found];
}

class Plan {
  /** Selections by the field node selecting them (one node: nearly every field) or by the nodes' list, and type. */
  private readonly byNode = new WeakMap<FieldNode | ReadonlyArray<FieldNode>, Map<string, PathSelection>>();

  constructor(
    readonly schema: GraphQLSchema,
    readonly fragments: GraphQLResolveInfo['fragments'],
    /** Only the variables the directives read. */
    readonly variables: Record<string, unknown>,
  ) {}

  at(fieldNodes: ReadonlyArray<FieldNode>, type: GraphQLNamedType | undefined): PathSelection {
    const key = fieldNodes.length === 1 ? fieldNodes[0]! : fieldNodes;
    let byType = this.byNode.get(key);
    if (!byType) this.byNode.set(key, (byType = new Map()));
    const name = type?.name ?? '';
    let selection = byType.get(name);
    if (!selection)
      byType.set(name, (selection = new PathSelection(this, isObjectType(type) ? type : undefined, fieldNodes)));
    return selection;
  }
}

function planOf(info: GraphQLResolveInfo): Plan {
  let entry = plans.get(info.operation);
  if (!entry)
    plans.set(
      info.operation,
      (entry = { variables: directiveVariables(info.operation, info.fragments), byValues: new Map() }),
    );
  let key = '';
  for (const name of entry.variables) key += `${String(info.variableValues[name])},`;
  let plan = entry.byValues.get(key);
  if (!plan) {
    const variables: Record<string, unknown> = {};
    for (const name of entry.variables) variables[name] = info.variableValues[name];
    // Bounded: an operation with k directive variables has 2^k sets of values, which a client could walk
    // through; the oldest plan makes room (it is only a cache of work redone on a miss).
    if (entry.byValues.size >= MAX_PLANS_PER_OPERATION) entry.byValues.delete(entry.byValues.keys().next().value!);
    entry.byValues.set(key, (plan = new Plan(info.schema, info.fragments, variables)));
  }
  return plan;
}

/**
 * What the field nodes of one place in the operation select of `type` (an object type; undefined: every fragment
 * counts), directives applied, fragments and inline fragments followed, aliases of one field merged.
 */
class PathSelection implements Selected {
  private fields: Map<string, FieldNode[]> | undefined;
  private readonly below = new Map<string, PathSelection>();
  private ofNodes: PathSelection | undefined;

  constructor(
    private readonly plan: Plan,
    private readonly type: GraphQLObjectType | undefined,
    /** The field nodes whose selection sets this is. */
    private readonly selecting: ReadonlyArray<FieldNode>,
  ) {}

  has(field: string): boolean {
    return this.collected().has(field);
  }

  /** The field nodes selecting `field` here (each alias its own). */
  fieldNodes(field: string): readonly FieldNode[] {
    return this.collected().get(field) ?? [];
  }

  of(field: string): PathSelection {
    let selection = this.below.get(field);
    if (!selection)
      this.below.set(
        field,
        (selection = new PathSelection(this.plan, this.objectTypeOf(field), this.fieldNodes(field))),
      );
    return selection;
  }

  nodes(): PathSelection {
    if (!this.ofNodes) {
      const nodes = [...this.of('edges').fieldNodes('node'), ...this.fieldNodes('nodes')];
      this.ofNodes = new PathSelection(this.plan, this.objectTypeOf('nodes'), nodes);
    }
    return this.ofNodes;
  }

  private objectTypeOf(field: string): GraphQLObjectType | undefined {
    const definition = this.type?.getFields()[field];
    const type = definition && getNamedType(definition.type);
    return isObjectType(type) ? type : undefined;
  }

  private collected(): Map<string, FieldNode[]> {
    if (this.fields) return this.fields;
    const fields = new Map<string, FieldNode[]>();
    const { fragments, variables } = this.plan;
    const spread = new Set<string>();
    const walk = (selectionSet: SelectionSetNode | undefined): void => {
      for (const selection of selectionSet?.selections ?? []) {
        if (!included(selection, variables)) continue;
        if (selection.kind === Kind.FIELD) {
          const name = selection.name.value;
          const list = fields.get(name);
          if (list) list.push(selection);
          else fields.set(name, [selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (this.applies(selection.typeCondition?.name.value)) walk(selection.selectionSet);
        } else {
          const fragment = fragments[selection.name.value];
          if (!fragment || spread.has(fragment.name.value) || !this.applies(fragment.typeCondition.name.value))
            continue;
          spread.add(fragment.name.value);
          walk(fragment.selectionSet);
        }
      }
    };
    for (const node of this.selecting) walk(node.selectionSet);
    return (this.fields = fields);
  }

  /** Whether a fragment on `condition` applies to this selection's objects. */
  private applies(condition: string | undefined): boolean {
    if (!condition || !this.type) return true;
    if (condition === this.type.name) return true;
    const conditionType = this.plan.schema.getType(condition);
    return isAbstractType(conditionType) && this.plan.schema.isSubType(conditionType, this.type);
  }
}

/**
 * What the running field selects of the objects it returns (of `typeName`, for a field of an abstract type): what
 * its loads may read ahead below them.
 */
export function selectionOf(info: GraphQLResolveInfo, typeName?: string): Selected {
  const type = typeName ? info.schema.getType(typeName) : getNamedType(info.returnType);
  return planOf(info).at(info.fieldNodes, type ?? undefined);
}

/**
 * Each `field` the operation selects on the object the running resolver returns (each alias its own, through
 * fragments, left out where `@skip` / `@include` drop it), with its arguments (defaults applied) and what it selects:
 * what a resolver may start reading for its children beside its own read. Arguments that do not coerce are left
 * out (the field reports them when it runs).
 */
export function selectedWithArguments<A = Record<string, unknown>>(
  info: GraphQLResolveInfo,
  field: string,
): Array<{ args: A; selected: Selected }> {
  const type = getNamedType(info.returnType);
  const definition = isObjectType(type) ? type.getFields()[field] : undefined;
  if (!definition) return [];
  const plan = planOf(info);
  const target = getNamedType(definition.type);
  const found: Array<{ args: A; selected: Selected }> = [];
  for (const node of plan.at(info.fieldNodes, type).fieldNodes(field)) {
    try {
      found.push({
        args: getArgumentValues(definition, node, info.variableValues) as A,
        selected: plan.at([node], target),
      });
    } catch {
      // reported by the field itself
    }
  }
  return found;
}
