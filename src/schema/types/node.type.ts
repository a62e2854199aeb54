// Relay Global Object Identification: every type with an id of its own implements Node, and `node(id:)` /
// `nodes(ids:)` fetch any of them. The id is the stored id (docs/decisions.md, "Relay ids are the stored ids").
import { Field, ID, InterfaceType } from 'type-graphql';

/** The concrete type of each object `node`/`nodes` returned: tagged where it is looked up, read by resolveType. */
const typeOf = new WeakMap<object, string>();

export function tagNode<T extends object>(value: T, typeName: string): T {
  typeOf.set(value, typeName);
  return value;
}

@InterfaceType({
  description: 'An object with an id of its own, which `node(id:)` fetches again (Relay Global Object Identification)',
  resolveType: (value: object) => typeOf.get(value),
})
export abstract class Node {
  @Field(() => ID, { description: 'The stored id; unique across every Node type' })
  id!: string;
}
