// Query limits (docs/api.md): depth, aliases and directives by our validation rules (limit-rules.ts); tokens by
// graphql-js's parser; a cost limit through graphql-query-complexity, because armor's cost rule cannot read
// `first`/`limit` arguments; field suggestions hidden by graphql-armor when introspection is off.
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin } from '@apollo/server';
import {
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValidationRule,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Config } from '../config.js';
import type { Context } from '../context.js';
import { operationLimitsRule } from './limit-rules.js';
import { MAX_VARIABLE_DEPTH, nestedDeeperThan } from '../variable-depth.js';

/** A list field costs its children times the number of items it may return. */
const pageSizeEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = [args.first, args.limit, args.last].find((v): v is number => typeof v === 'number' && v > 0);
  return size === undefined ? undefined : 1 + childComplexity * size;
};

export function armorProtection(limits: Config['graphql']): {
  plugins: ApolloServerPlugin[];
  validationRules: ValidationRule[];
} {
  const { plugins, validationRules } = new ApolloArmor({
    // Armor reports these as "Syntax Error" without a location: our own rules below answer them.
    maxDepth: { enabled: false },
    maxAliases: { enabled: false },
    // Tokens are limited by graphql-js's own parser (Apollo parseOptions): armor's token plugin throws outside
    // Apollo's pipeline and turns a client's syntax error into a 500.
    maxTokens: { enabled: false },
    maxDirectives: { enabled: false },
    costLimit: { enabled: false },
    // Field suggestions leak the schema; hide them whenever introspection is off.
    blockFieldSuggestion: { enabled: !limits.introspection },
  }).protect();
  // armor is typed against the CJS build of @apollo/server; the shapes are the same.
  const limitsRule = operationLimitsRule({
    maxDepth: limits.maxDepth,
    maxAliases: limits.maxAliases,
    maxDirectives: 50,
  });
  return { plugins: plugins as unknown as ApolloServerPlugin[], validationRules: [limitsRule, ...validationRules] };
}

/** Per parsed document (Apollo's document store reuses them), the cost per operation name and variables. */
const costs = new WeakMap<DocumentNode, Map<string, number | null>>();
/** Distinct variable sets remembered per document, and the longest key kept: bounded whatever clients send. */
const COSTS_PER_DOCUMENT = 64;
const LONGEST_KEY = 1024;

/** The operation's cost, or null when there is nothing to measure (its variables do not coerce). */
function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  operationName: string | undefined,
  variables: Record<string, unknown>,
): number | null {
  let byKey = costs.get(document);
  if (!byKey) costs.set(document, (byKey = new Map()));
  const key = `${operationName ?? ''}\u0000${JSON.stringify(variables)}`;
  let cost = byKey.get(key);
  if (cost === undefined) {
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
    cost = coerced.errors
      ? null
      : getComplexity({
          schema,
          query: document,
          operationName,
          variables,
          estimators: [pageSizeEstimator, simpleEstimator({ defaultComplexity: 1 })],
        });
    if (key.length <= LONGEST_KEY) {
      if (byKey.size >= COSTS_PER_DOCUMENT) byKey.clear();
      byKey.set(key, cost);
    }
  }
  return cost;
}

export function costLimitPlugin(maxCost: number): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema, operation }) {
          // No such operation (execution answers OPERATION_RESOLUTION_FAILURE), or variables that do not coerce
          // (execution answers BAD_USER_INPUT): nothing to measure. graphql-query-complexity would throw on both.
          if (!operation || operation.operation === 'subscription') return;
          if (nestedDeeperThan(request.variables, MAX_VARIABLE_DEPTH)) {
            throw new GraphQLError(`Variables may be nested at most ${MAX_VARIABLE_DEPTH} levels deep`, {
              extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } },
            });
          }
          const cost = operationCost(
            schema,
            document,
            operation,
            request.operationName ?? undefined,
            request.variables ?? {},
          );
          if (cost !== null && cost > maxCost) {
            throw new GraphQLError(
              `Query cost ${cost} exceeds the limit of ${maxCost}; ask for fewer items (first/limit) or fewer fields`,
              {
                extensions: { code: 'BAD_USER_INPUT', cost, maxCost, http: { status: 400 } },
              },
            );
          }
        },
      };
    },
  };
}
