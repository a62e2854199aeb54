// Builds the executable schema from the type-graphql classes (once per process).
import 'reflect-metadata';
import { DateTimeResolver } from 'graphql-scalars';
import { GraphQLScalarType, specifiedDirectives, type GraphQLSchema } from 'graphql';
import { buildSchema, getMetadataStorage } from 'type-graphql';
import { cacheControlDirective } from './cache-control.js';
import { noTopicsPubSub } from '../live/pubsub.js';
import { resolvers } from '../resolvers/index.js';
import { useDirectResolvers } from './direct-resolvers.js';
import { shareEmptyArguments } from './argument-values.js';

let built: Promise<GraphQLSchema> | undefined;

/**
 * graphql-scalars' `DateTime`, answering the ISO string itself instead of the `Date`: serialising a `Date`, JSON.stringify
 * leaves its fast path to look up and call `toJSON` (about 60 dates made a nested answer's serialisation take 0.26 ms
 * against 0.15 for the same answer without them). `toJSON` is `toISOString` for the valid dates `serialize` lets
 * through, so the bytes are the same. Parsing, validation and the schema's SDL are the library's.
 */
const DateTime = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  serialize: (value) => (DateTimeResolver.serialize(value) as Date).toISOString(),
});

export function buildGatewaySchema(): Promise<GraphQLSchema> {
  // A `@Root()` parameter typed with a class makes type-graphql copy the parent into a new instance of that class
  // (`convertToType`) on every call of the field resolver: a copy of every article for each of its resolved
  // fields. Our parents are the mappers' plain API objects and no resolver needs the class's prototype, so the
  // parent is handed over as it is (the state type-graphql itself uses for an untyped root).
  for (const param of getMetadataStorage().params) if (param.kind === 'root') param.getType = undefined;
  // A plain `@Field` gets a type-graphql resolver that allocates a resolver-data object and a closure to read
  // `root[name]`: for every scalar of every object of an answer (about 1,500 per nested answer). Without
  // middlewares or roles (we use neither) and with the property named as the field, graphql-js's default
  // resolver reads the same property (`simple` is type-graphql's own switch for this).
  for (const field of getMetadataStorage().fields) {
    if (!field.middlewares?.length && !field.roles?.length && field.schemaName === field.name) field.simple = true;
  }
  built ??= buildSchema({
    resolvers,
    scalarsMap: [{ type: Date, scalar: DateTime }],
    validate: false,
    // `directives` replaces graphql-js's own: @include, @skip, @deprecated and @specifiedBy stay beside ours.
    directives: [...specifiedDirectives, cacheControlDirective],
    emitSchemaFile: false,
    pubSub: noTopicsPubSub,
  }).then((schema) => {
    useDirectResolvers(schema);
    shareEmptyArguments();
    return schema;
  });
  return built;
}
