// Root queries `node` and `nodes` (Relay Global Object Identification): thin, ids straight to the operation.
import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, ID, Info, Query, Resolver } from 'type-graphql';
import { selectionOf } from '../graphql/selection.js';
import type { Context } from '../context.js';
import { getNode, getNodes } from '../operations/node/node.js';
import { Node } from '../schema/types/node.type.js';

@Resolver()
export class NodeResolver {
  @Query(() => Node, {
    nullable: true,
    description: 'Any object with an id of its own; null when there is none or the reader may not see it',
  })
  node(
    @Ctx() ctx: Context,
    @Arg('id', () => ID, { description: 'Id of the object, whatever its type' }) id: string,
    @Info() info: GraphQLResolveInfo,
  ): Promise<Node | null> {
    return getNode(ctx, id, (type) => selectionOf(info, type)) as Promise<Node | null>;
  }

  @Query(() => [Node], {
    nullable: 'items',
    description: 'Objects by id, in the order asked (at most 100); null for each id that has none',
  })
  nodes(
    @Ctx() ctx: Context,
    @Arg('ids', () => [ID], { description: 'Ids of the objects, whatever their types; at most 100' }) ids: string[],
    @Info() info: GraphQLResolveInfo,
  ): Promise<Array<Node | null>> {
    return getNodes(ctx, ids, 'ids', (type) => selectionOf(info, type)) as Promise<Array<Node | null>>;
  }
}
