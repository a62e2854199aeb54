// Page. Its issues connection is resolved by PageResolver.
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from './connection.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'Public-facing metadata of a page, for search engines and link previews' })
export class PageMetadata {
  @Field()
  title!: string;

  @Field()
  description!: string;

  @Field({ description: 'ISO 639-1 language code' })
  language!: string;

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;

  @Field()
  canonicalUrl!: string;

  @Field(() => [String])
  keywords!: string[];
}

@ObjectType({ implements: Node, description: 'A publication (a newspaper, a magazine) whose issues carry articles' })
export class Page {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Page name' })
  name!: string;

  @Field()
  previewUrl!: string;

  @Field(() => PageMetadata)
  publicFacingMetadata!: PageMetadata;

  @Field({ description: 'Disabled pages answer PAGE_NOT_ENABLED' })
  enabled!: boolean;
}

@ObjectType()
export class PageConnection extends Connection(Page, 'Page') {}
