// Depth, alias and directive limits (docs/api.md) as graphql-js validation rules: a client that crosses one
// gets GRAPHQL_VALIDATION_FAILED with the location of the selection that crossed it. Written here rather than
// taken from graphql-armor because armor's rules report "Syntax Error: …" with no location (a parse failure,
// to the client and to Apollo) and offer no hook that knows the offending node.
import {
  GraphQLError,
  Kind,
  type ASTNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface OperationLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
}

/** What one selection set (fragments spread in, each counted where it is spread) amounts to. */
interface Measure {
  depth: number;
  /** The field that ends the deepest path. */
  deepest?: ASTNode;
  aliases: ASTNode[];
  directives: ASTNode[];
}

/** Introspection fields are as deep as the type system; they are not what the depth limit is for. */
const INTROSPECTION = new Set(['__schema', '__type']);
/** Enough nodes to point at the one past a limit; a count beyond it is not needed. */
const KEEP = 1000;

function measureSet(
  set: SelectionSetNode,
  context: ValidationContext,
  fragments: Map<string, Measure | null>,
): Measure {
  const out: Measure = { depth: 0, aliases: [], directives: [] };
  const add = (inner: Measure, deeper: number, field?: ASTNode) => {
    if (inner.depth + deeper > out.depth) {
      out.depth = inner.depth + deeper;
      out.deepest = inner.deepest ?? field;
    }
    if (out.aliases.length < KEEP) out.aliases.push(...inner.aliases.slice(0, KEEP));
    if (out.directives.length < KEEP) out.directives.push(...inner.directives.slice(0, KEEP));
  };
  for (const selection of set.selections) {
    if (selection.directives?.length && out.directives.length < KEEP) out.directives.push(...selection.directives);
    if (selection.kind === Kind.FIELD) {
      if (selection.alias && out.aliases.length < KEEP) out.aliases.push(selection.alias);
      if (INTROSPECTION.has(selection.name.value)) continue;
      add(
        selection.selectionSet
          ? measureSet(selection.selectionSet, context, fragments)
          : { depth: 0, aliases: [], directives: [] },
        1,
        selection,
      );
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      add(measureSet(selection.selectionSet, context, fragments), 0);
    } else {
      const name = selection.name.value;
      // null while being measured: a cycle (reported by graphql-js's NoFragmentCycles) adds nothing.
      if (!fragments.has(name)) {
        fragments.set(name, null);
        const fragment: FragmentDefinitionNode | undefined | null = context.getFragment(name);
        fragments.set(
          name,
          fragment ? measureSet(fragment.selectionSet, context, fragments) : { depth: 0, aliases: [], directives: [] },
        );
      }
      const measured = fragments.get(name);
      if (measured) add(measured, 0);
    }
  }
  return out;
}

const limitError = (message: string, node: ASTNode | undefined, limit: string, max: number): GraphQLError =>
  new GraphQLError(message, {
    nodes: node ? [node] : undefined,
    extensions: { code: 'GRAPHQL_VALIDATION_FAILED', limit, max },
  });

/** One rule checking all three limits per operation (one walk of the document, fragments measured once). */
export function operationLimitsRule(limits: OperationLimits): ValidationRule {
  return (context) => {
    const fragments = new Map<string, Measure | null>();
    return {
      OperationDefinition(operation) {
        const m = measureSet(operation.selectionSet, context, fragments);
        if (m.depth > limits.maxDepth) {
          context.reportError(
            limitError(
              `Query depth limit of ${limits.maxDepth} exceeded, found ${m.depth}`,
              m.deepest,
              'depth',
              limits.maxDepth,
            ),
          );
        }
        if (m.aliases.length > limits.maxAliases) {
          context.reportError(
            limitError(
              `Aliases limit of ${limits.maxAliases} exceeded`,
              m.aliases[limits.maxAliases],
              'aliases',
              limits.maxAliases,
            ),
          );
        }
        const directives = m.directives.length + (operation.directives?.length ?? 0);
        if (directives > limits.maxDirectives) {
          context.reportError(
            limitError(
              `Directives limit of ${limits.maxDirectives} exceeded`,
              m.directives[limits.maxDirectives] ?? operation,
              'directives',
              limits.maxDirectives,
            ),
          );
        }
        return false;
      },
    };
  };
}
