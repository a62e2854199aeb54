// Relay connections (docs/api.md): PageInfo, and a factory for each node type's Edge and Connection.
import { Field, Int, ObjectType, type ClassType } from 'type-graphql';

@ObjectType({ description: 'Where a page of a connection sits in the whole list' })
export class PageInfo {
  @Field({ description: 'Whether items follow this page' })
  hasNextPage!: boolean;

  @Field({ description: 'Whether items precede this page' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the first item; null on an empty page' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'Cursor of the last item; pass it as `after` for the next page' })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface ConnectionShape<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
  /** A getter: counted only when a query asks for it. */
  readonly totalCount: Promise<number> | number;
}

/** Builds `<Name>Edge` and an abstract connection class for `Node`; extend it as `<Name>Connection`. */
export function Connection<T extends object>(Node: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`, { description: `One ${name} of a page of a connection, with its cursor` })
  class EdgeType implements Edge<T> {
    @Field({ description: 'Opaque position of this item; pass it as `after`' })
    cursor!: string;

    @Field(() => Node, { description: `The ${name}` })
    node!: T;
  }

  @ObjectType(`${name}ConnectionBase`)
  abstract class ConnectionType implements ConnectionShape<T> {
    @Field(() => [EdgeType], {
      description: 'The items of this page in list order, each with its cursor; at most `first`',
    })
    edges!: Edge<T>[];

    @Field(() => PageInfo, { description: 'Whether more items follow, and the cursors to page on from' })
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'Number of items in the whole list, across all pages' })
    totalCount!: Promise<number> | number;
  }
  return ConnectionType;
}
