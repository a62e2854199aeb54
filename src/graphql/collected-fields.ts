// The fields a selection collects (graphql-js's `collectFields`/`collectSubfields`), as the executor
// (execute.ts) walks them: two arrays per selection, and kept per document across requests when no @skip or
// @include reads a variable (graphql-js collects them again for every request).
import {
  Kind,
  visit,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getFieldDef, type ExecutionContext } from 'graphql/execution/execute.js';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';

type Field = GraphQLField<unknown, unknown>;

/** Collected fields (graphql-js's map from response name to field nodes) as two arrays, iterated without allocating. */
export interface Fields {
  names: string[];
  nodes: ReadonlyArray<FieldNode>[];
  /** Each field's definition in the parent type (undefined for a name the type does not have). */
  defs: Array<Field | undefined>;
}

/** Subfields collected by field nodes and type: shared across requests, or one request's own. */
export type SubfieldsCache = WeakMap<ReadonlyArray<FieldNode>, Map<GraphQLObjectType, Fields>>;

function fieldsOf(
  schema: GraphQLSchema,
  parentType: GraphQLObjectType,
  collected: Map<string, ReadonlyArray<FieldNode>>,
): Fields {
  const nodes = [...collected.values()];
  return {
    names: [...collected.keys()],
    nodes,
    defs: nodes.map((n) => getFieldDef(schema, parentType, n[0]!) ?? undefined),
  };
}

// Documents whose field collection depends on variables (an @skip or @include with a variable argument).
const variableDirectives = new WeakMap<DocumentNode, boolean>();
export function hasVariableDirectives(document: DocumentNode): boolean {
  let found = variableDirectives.get(document);
  if (found === undefined) {
    found = false;
    visit(document, {
      Directive(node) {
        if (
          (node.name.value === 'skip' || node.name.value === 'include') &&
          node.arguments?.some((a) => a.value.kind === Kind.VARIABLE)
        )
          found = true;
      },
    });
    variableDirectives.set(document, found);
  }
  return found;
}

// Collected fields shared by every request of a document without variable directives: the root fields by
// operation, the subfields by the field nodes (arrays from the cached maps, so the same across requests) and type.
const rootFieldsCache = new WeakMap<OperationDefinitionNode, Fields>();
const subfieldsCache: SubfieldsCache = new WeakMap();

/** The operation's root fields; `dynamic`: the document's collection depends on variables (never kept). */
export function rootFieldsOf(exe: ExecutionContext, rootType: GraphQLObjectType, dynamic: boolean): Fields {
  const { schema, operation } = exe;
  let rootFields = dynamic ? undefined : rootFieldsCache.get(operation);
  if (!rootFields) {
    rootFields = fieldsOf(
      schema,
      rootType,
      collectFields(schema, exe.fragments, exe.variableValues, rootType, operation.selectionSet),
    );
    if (!dynamic) rootFieldsCache.set(operation, rootFields);
  }
  return rootFields;
}

/** The subfields of `fieldNodes` on `returnType`, from `perRequest` when the document's collection depends on variables. */
export function subfieldsOf(
  exe: ExecutionContext,
  perRequest: SubfieldsCache | undefined,
  returnType: GraphQLObjectType,
  fieldNodes: ReadonlyArray<FieldNode>,
): Fields {
  const cache = perRequest ?? subfieldsCache;
  let byType = cache.get(fieldNodes);
  if (!byType) cache.set(fieldNodes, (byType = new Map()));
  let fields = byType.get(returnType);
  if (!fields) {
    const { schema, fragments, variableValues } = exe;
    byType.set(
      returnType,
      (fields = fieldsOf(
        schema,
        returnType,
        collectSubfields(schema, fragments, variableValues, returnType, fieldNodes),
      )),
    );
  }
  return fields;
}
