// Builds the executable schema from the type-graphql classes (once per process).
import 'reflect-metadata';
import { DateTimeResolver } from 'graphql-scalars';
import { specifiedDirectives, type GraphQLSchema } from 'graphql';
import { buildSchema, getMetadataStorage } from 'type-graphql';
import { cacheControlDirective } from '../graphql/cache-control.js';
import { resolvers } from '../resolvers/index.js';

let built: Promise<GraphQLSchema> | undefined;

export function buildGatewaySchema(): Promise<GraphQLSchema> {
  // A `@Root()` parameter typed with a class makes type-graphql copy the parent into a new instance of that class
  // (`convertToType`) on every call of the field resolver: a copy of every article for each of its resolved
  // fields. Our parents are the mappers' plain API objects and no resolver needs the class's prototype, so the
  // parent is handed over as it is (the state type-graphql itself uses for an untyped root).
  for (const param of getMetadataStorage().params) if (param.kind === 'root') param.getType = undefined;
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
