// Builds the executable schema from the type-graphql classes (once per process).
import 'reflect-metadata';
import { DateTimeResolver } from 'graphql-scalars';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { cacheControlDirective } from '../graphql/cache-control.js';
import { noTopicsPubSub } from '../live/pubsub.js';
import { resolvers } from '../resolvers/index.js';

let built: Promise<GraphQLSchema> | undefined;

export function buildGatewaySchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({
    resolvers,
    scalarsMap: [{ type: Date, scalar: DateTimeResolver }],
    validate: false,
    directives: [cacheControlDirective],
    emitSchemaFile: false,
    pubSub: noTopicsPubSub,
  });
  return built;
}
