// Page. Its issues connection is resolved by PageResolver.
import { Field, ID, ObjectType } from 'type-graphql';
import { Connection } from './connection.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'Public-facing metadata of a page, for search engines and link previews' })
export class PageMetadata {
  @Field({ description: 'Title for search engines and link previews' })
  title!: string;

  @Field({ description: 'Description for search engines and link previews' })
  description!: string;

  @Field({ description: 'ISO 639-1 language code' })
  language!: string;

  @Field(() => String, { nullable: true, description: 'Preview image URL; null when none' })
  imageUrl!: string | null;

  @Field({ description: 'Canonical URL of the page' })
  canonicalUrl!: string;

  @Field(() => [String], { description: 'Keywords for search engines' })
  keywords!: string[];
}

@ObjectType({ implements: Node, description: 'A publication (a newspaper, a magazine) whose issues carry articles' })
export class Page {
  @Field(() => ID, { description: 'The stored id of the page' })
  id!: string;

  @Field({ description: 'Page name' })
  name!: string;

  @Field({ description: 'URL where the page can be previewed' })
  previewUrl!: string;

  @Field(() => PageMetadata, { description: 'Metadata for search engines and link previews' })
  publicFacingMetadata!: PageMetadata;

  @Field({ description: 'Disabled pages answer PAGE_NOT_ENABLED' })
  enabled!: boolean;
}

@ObjectType({ description: 'A page of the list of pages (Relay connection)' })
export class PageConnection extends Connection(Page, 'Page') {}
