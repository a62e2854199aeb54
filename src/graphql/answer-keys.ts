// What the executor tells the answer's surrogate keys (src/cache/answer-keys.ts): for a field that completed as a
// list or as null, the collections whose documents may yet appear there, worked out once per GraphQL type.
import { isAbstractType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { collectionsOfType } from '../cache/answer-keys.js';

const byType = new WeakMap<GraphQLNamedType, readonly string[]>();

/** The collections whose writes may put an object of `type` (or of one of its possible types) in its place. */
export function mayAppear(schema: GraphQLSchema, type: GraphQLNamedType): readonly string[] {
  let collections = byType.get(type);
  if (!collections) {
    const names = isAbstractType(type) ? schema.getPossibleTypes(type).map((t) => t.name) : [type.name];
    collections = [...new Set(names.flatMap((name) => collectionsOfType(name)))];
    byType.set(type, collections);
  }
  return collections;
}
