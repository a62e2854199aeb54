// Article, v3. Scalar and embedded fields live here; categories, authors, keywords,
// sponsor, content type and the per-viewer access fields are resolved by ArticleResolver.
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { ArticleElements, Seo } from './article-parts.type.js';
import { Attachment } from './attachment.type.js';
import { Connection } from './connection.type.js';
import { PublicationStatus } from './enums.js';
import { Node } from '../types/node.type.js';

@ObjectType({ implements: Node, description: 'An article (content item), in its v3 representation' })
export class Article {
  @Field({ description: 'Class of the object in the legacy CMS' })
  objectClassName!: string;

  @Field(() => ID)
  id!: string;

  @Field()
  signature!: string;

  @Field()
  absoluteUrl!: string;

  @Field()
  shortUrl!: string;

  @Field()
  slug!: string;

  @Field(() => ID, { nullable: true })
  contentTypeId!: string | null;

  @Field(() => Int)
  viewsCount!: number;

  @Field(() => Int)
  commentsCount!: number;

  @Field(() => Float, { description: 'Average rating by customers, 0 to 5' })
  averageRatingByCustomers!: number;

  @Field(() => Int)
  totalRatingsCount!: number;

  @Field(() => Int, { description: 'Characters of `preview` shown to viewers without access' })
  previewLimit!: number;

  @Field({ description: 'Asks search engines not to index the article' })
  excludedFromSearchEngine!: boolean;

  @Field()
  title!: string;

  @Field(() => Date, { nullable: true })
  firstPublishedDate!: Date | null;

  @Field()
  lastUpdateDate!: Date;

  @Field(() => Int, { description: 'Length of the body in characters' })
  contentLength!: number;

  @Field()
  summary!: string;

  @Field()
  introduction!: string;

  @Field({ description: 'Premium content: readable in full only with an entitlement when access control is enabled' })
  premium!: boolean;

  @Field()
  free!: boolean;

  @Field(() => String, { nullable: true })
  credits!: string | null;

  @Field(() => [Attachment])
  attachments!: Attachment[];

  @Field(() => [Attachment])
  inlineAttachments!: Attachment[];

  @Field(() => [Attachment])
  files!: Attachment[];

  @Field(() => [Attachment])
  videos!: Attachment[];

  @Field(() => ArticleElements)
  elements!: ArticleElements;

  @Field(() => Seo, { description: 'SEO object' })
  seo!: Seo;

  @Field(() => Int, { description: 'Time to read in seconds' })
  timeToRead!: number;

  @Field()
  accessControlEnabled!: boolean;

  @Field(() => [String], { description: 'Entitlement groups that unlock the article when it is premium' })
  accessGroups!: string[];

  @Field(() => PublicationStatus)
  status!: PublicationStatus;

  @Field({ description: 'Whether the representation may be served from a cache' })
  cached!: boolean;

  @Field(() => ID, { nullable: true, description: 'Id of the primary category' })
  categoryId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the primary author' })
  authorId!: string | null;

  @Field(() => ID, { nullable: true })
  sponsorId!: string | null;

  categoryIds!: string[];
  authorIds!: string[];
  keywordIds!: string[];
  /** Read only by the access rules: `body` and `preview` are resolved per viewer. */
  fullBody!: string;
  fullPreview!: string;
}

@ObjectType()
export class ArticleConnection extends Connection(Article, 'Article') {}
