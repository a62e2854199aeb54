// Builds the executable schema from the type-graphql classes (once per process).
import 'reflect-metadata';
import { DateTimeResolver } from 'graphql-scalars';
import { specifiedDirectives, type GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { cacheControlDirective } from '../graphql/cache-control.js';
import { resolvers } from '../resolvers/index.js';

let built: Promise<GraphQLSchema> | undefined;

export function buildGatewaySchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers,
    scalarsMap: [{ type: Date, scalar: DateTimeResolver }],
    validate: false,
    // `directives` replaces graphql-js's own: @include, @skip, @deprecated and @specifiedBy stay beside ours.
    directives: [...specifiedDirectives, cacheControlDirective],
    emitSchemaFile: false,
  });
  return built;
}
