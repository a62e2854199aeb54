// The federation subgraph's `_entities` (src/graphql/subgraph.ts): a router's references straight to the operation.
import type { GraphQLFieldResolver } from 'graphql';
import type { Context } from '../context.js';
import { selectionOf } from '../graphql/selection.js';
import { getEntities } from '../operations/node/node.js';

export const resolveEntities: GraphQLFieldResolver<unknown, Context, { representations: readonly unknown[] }> = (
  _root,
  { representations },
  ctx,
  info,
) => getEntities(ctx, representations, (type) => selectionOf(info, type));
