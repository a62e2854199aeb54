// The schema as an Apollo Federation 2 subgraph, served on /graphql/subgraph to a supergraph router
// (docs/decisions.md, "The federation subgraph has an endpoint of its own"). Every Node type is an entity keyed by
// its id. The executable schema is the gateway's own, same type objects and resolvers, with the two root fields a
// router calls added to Query: `_service { sdl }` and `_entities`, whose references are looked up as `nodes` looks
// ids up (src/operations/node/node.ts). The SDL is the library's print of the schema with its `@key`s.
import { buildSubgraphSchema } from '@apollo/subgraph';
import {
  concatAST,
  graphqlSync,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
  isInterfaceType,
  Kind,
  lexicographicSortSchema,
  parse,
  printSchema,
  visit,
  type ConstDirectiveNode,
  type FieldDefinitionNode,
  type GraphQLInterfaceType,
  type ObjectTypeDefinitionNode,
} from 'graphql';
import { resolveEntities } from '../resolvers/entities.resolver.js';

/** The federation version the SDL links to, and the one directive it uses. */
const FEDERATION_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])';

const KEY: ConstDirectiveNode = {
  kind: Kind.DIRECTIVE,
  name: { kind: Kind.NAME, value: 'key' },
  arguments: [
    {
      kind: Kind.ARGUMENT,
      name: { kind: Kind.NAME, value: 'fields' },
      value: { kind: Kind.STRING, value: 'id' },
    },
  ],
};

/**
 * `_entities` never answers with a shareable policy (src/graphql/cache-control.ts reads the field's directive):
 * its objects may be any Node types, a cart among them, and the router caches nothing it did not ask to.
 */
const ENTITIES_AST = (
  parse('type Query { _entities: Int @cacheControl(maxAge: 0) }').definitions[0] as ObjectTypeDefinitionNode
).fields![0] as FieldDefinitionNode;

function nodeInterface(schema: GraphQLSchema): GraphQLInterfaceType {
  const node = schema.getType('Node');
  if (!isInterfaceType(node)) throw new Error('the schema has no Node interface');
  return node;
}

/**
 * The subgraph SDL a router composes (`_service { sdl }`, and subgraph.graphql): the schema's SDL, sorted as
 * schema.graphql is, with `@key(fields: "id")` on every Node type, validated and printed by @apollo/subgraph.
 */
export function printSubgraphSdl(schema: GraphQLSchema): string {
  const entities = new Set(schema.getPossibleTypes(nodeInterface(schema)).map((t) => t.name));
  const keyed = visit(parse(printSchema(lexicographicSortSchema(schema))), {
    ObjectTypeDefinition: (def) =>
      entities.has(def.name.value) ? { ...def, directives: [...(def.directives ?? []), KEY] } : undefined,
  });
  const subgraph = buildSubgraphSchema({ typeDefs: concatAST([parse(FEDERATION_LINK), keyed]) });
  const result = graphqlSync({ schema: subgraph, source: '{ _service { sdl } }' });
  const sdl = (result.data?._service as { sdl?: unknown } | undefined)?.sdl;
  if (typeof sdl !== 'string') throw new Error(`the subgraph SDL could not be printed: ${String(result.errors)}`);
  return `${sdl}\n`;
}

/** The executable subgraph schema: `schema` with `_entities` and `_service` on Query (see the top of this file). */
export function buildSubgraph(schema: GraphQLSchema): GraphQLSchema {
  const sdl = printSubgraphSdl(schema);
  const node = nodeInterface(schema);
  const Entity = new GraphQLUnionType({
    name: '_Entity',
    description: 'Every type a router may look up by reference: the Node types',
    types: () => [...schema.getPossibleTypes(node)],
    // The objects are tagged with their type where they are looked up, as for `node`.
    resolveType: node.resolveType,
  });
  const Any = new GraphQLScalarType({
    name: '_Any',
    description: 'An entity reference: `{ __typename, id }`',
  });
  const Service = new GraphQLObjectType({
    name: '_Service',
    description: 'What a router composes the supergraph from',
    fields: { sdl: { type: GraphQLString, description: 'The subgraph SDL, with its federation directives' } },
  });
  const query = schema.getQueryType()!;
  const queryConfig = query.toConfig();
  const Query = new GraphQLObjectType({
    ...queryConfig,
    fields: {
      ...queryConfig.fields,
      _entities: {
        type: new GraphQLNonNull(new GraphQLList(Entity)),
        description: 'The objects of entity references, in order; null for each the reader may not see',
        args: { representations: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(Any))) } },
        resolve: resolveEntities as NonNullable<(typeof queryConfig.fields)[string]['resolve']>,
        astNode: ENTITIES_AST,
      },
      _service: {
        type: new GraphQLNonNull(Service),
        description: 'The subgraph SDL',
        resolve: () => ({ sdl }),
      },
    },
  });
  const config = schema.toConfig();
  return new GraphQLSchema({
    ...config,
    query: Query,
    types: [...config.types.filter((t) => t !== query), Entity, Any, Service],
  });
}
