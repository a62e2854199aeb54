// Query limits (CONTRACT.md §5): depth, aliases and directives through graphql-armor; tokens by graphql-js; a cost limit
// through graphql-query-complexity, because armor's cost rule cannot read `first`/`limit` arguments.
import { ApolloArmor } from '@escape.tech/graphql-armor';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type ValidationRule } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import type { Config } from '../config.js';
import type { Context } from '../context.js';

/** A list field costs its children times the number of items it may return. */
const pageSizeEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = [args.first, args.limit, args.last].find((v): v is number => typeof v === 'number' && v > 0);
  return size === undefined ? undefined : 1 + childComplexity * size;
};

export function armorProtection(limits: Config['graphql']): { plugins: ApolloServerPlugin[]; validationRules: ValidationRule[] } {
  const { plugins, validationRules } = new ApolloArmor({
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true },
    maxAliases: { n: limits.maxAliases },
    // Tokens are limited by graphql-js's own parser (Apollo parseOptions): armor's token plugin throws outside
    // Apollo's pipeline and turns a client's syntax error into a 500.
    maxTokens: { enabled: false },
    maxDirectives: { n: 50 },
    costLimit: { enabled: false },
    // Field suggestions leak the schema; hide them whenever introspection is off.
    blockFieldSuggestion: { enabled: !limits.introspection },
  }).protect();
  // armor is typed against the CJS build of @apollo/server; the shapes are the same.
  return { plugins: plugins as unknown as ApolloServerPlugin[], validationRules };
}

export function costLimitPlugin(maxCost: number): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, schema }) {
          const cost = getComplexity({
            schema,
            query: document,
            operationName: request.operationName ?? undefined,
            variables: request.variables ?? {},
            estimators: [pageSizeEstimator, simpleEstimator({ defaultComplexity: 1 })],
          });
          if (cost > maxCost) {
            throw new GraphQLError(`Query cost ${cost} exceeds the limit of ${maxCost}; ask for fewer items (first/limit) or fewer fields`, {
              extensions: { code: 'BAD_USER_INPUT', cost, maxCost, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}
