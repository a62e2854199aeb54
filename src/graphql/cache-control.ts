// Cache hints: Apollo's cache-control plugin computes each answer's max age from field hints; public
// reads default to CACHE_MAX_AGE, fields marked `@cacheControl(maxAge: 0)` make an answer uncacheable,
// and nothing answered to a token-bearing request is ever cacheable.
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControl } from '@apollo/server/plugin/cacheControl';
import { DirectiveLocation, GraphQLBoolean, GraphQLDirective, GraphQLEnumType, GraphQLInt } from 'graphql';
import type { Context } from '../context.js';

const CacheControlScope = new GraphQLEnumType({ name: 'CacheControlScope', values: { PUBLIC: {}, PRIVATE: {} } });

/** The directive Apollo's plugin reads from the schema (declared so the SDL is valid). */
export const cacheControlDirective = new GraphQLDirective({
  name: 'cacheControl',
  description: 'How long (seconds) an answer containing this field may be cached, and by whom',
  locations: [DirectiveLocation.FIELD_DEFINITION, DirectiveLocation.OBJECT, DirectiveLocation.INTERFACE, DirectiveLocation.UNION],
  args: { maxAge: { type: GraphQLInt }, scope: { type: CacheControlScope }, inheritMaxAge: { type: GraphQLBoolean } },
});

export function cacheControlPlugins(defaultMaxAge: number): ApolloServerPlugin<Context>[] {
  const privateRequests: ApolloServerPlugin<Context> = {
    async requestDidStart({ contextValue }) {
      return {
        async didResolveOperation({ overallCachePolicy }) {
          // A viewer can change what any field returns (premium bodies, carts): never shareable.
          if (contextValue.authenticated) overallCachePolicy.restrict({ maxAge: 0 });
        },
      };
    },
  };
  return [ApolloServerPluginCacheControl({ defaultMaxAge }) as ApolloServerPlugin<Context>, privateRequests];
}
