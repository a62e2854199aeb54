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

  @Field(() => ID, { description: 'The stored id of the article' })
  id!: string;

  @Field({ description: 'Editorial reference code the newsroom knows the article by' })
  signature!: string;

  @Field({ description: 'Canonical URL of the article on the site' })
  absoluteUrl!: string;

  @Field({ description: 'Short link to the article, for sharing' })
  shortUrl!: string;

  @Field({ description: 'URL-safe name of the article; `article(slug:)` finds it by this' })
  slug!: string;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the content type (the object is `contentType`); null when the article has none',
  })
  contentTypeId!: string | null;

  @Field(() => Int, { description: 'How often the article was viewed, as the CMS counts it' })
  viewsCount!: number;

  @Field(() => Int, { description: 'Number of reader comments on the article' })
  commentsCount!: number;

  @Field(() => Float, { description: 'Average rating by customers, 0 to 5' })
  averageRatingByCustomers!: number;

  @Field(() => Int, { description: 'Number of customer ratings `averageRatingByCustomers` is the average of' })
  totalRatingsCount!: number;

  @Field(() => Int, { description: 'Characters of `preview` shown to viewers without access' })
  previewLimit!: number;

  @Field({ description: 'Asks search engines not to index the article' })
  excludedFromSearchEngine!: boolean;

  @Field({ description: 'Headline of the article' })
  title!: string;

  @Field(() => Date, {
    nullable: true,
    description: 'When the article was first published; null when the CMS recorded no date',
  })
  firstPublishedDate!: Date | null;

  @Field({ description: 'When the article was last changed' })
  lastUpdateDate!: Date;

  @Field(() => Int, { description: 'Length of the body in characters' })
  contentLength!: number;

  @Field({ description: 'Short summary of the article, for lists and teasers' })
  summary!: string;

  @Field({ description: 'Introductory paragraph shown above the body' })
  introduction!: string;

  @Field({ description: 'Premium content: readable in full only with an entitlement when access control is enabled' })
  premium!: boolean;

  @Field({
    description: 'Marked free by the editors; who may read the body follows `premium` and `accessControlEnabled`',
  })
  free!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Credits line (photographers, agencies); null when there is none',
  })
  credits!: string | null;

  @Field(() => [Attachment], { description: 'Images, videos and files attached to the article' })
  attachments!: Attachment[];

  @Field(() => [Attachment], { description: 'Attachments placed inside the body' })
  inlineAttachments!: Attachment[];

  @Field(() => [Attachment], { description: 'Downloadable files of the article' })
  files!: Attachment[];

  @Field(() => [Attachment], { description: 'Video attachments of the article' })
  videos!: Attachment[];

  @Field(() => ArticleElements, {
    description: 'Live blogs, polls, quizzes and external videos embedded in the article',
  })
  elements!: ArticleElements;

  @Field(() => Seo, { description: 'SEO object' })
  seo!: Seo;

  @Field(() => Int, { description: 'Time to read in seconds' })
  timeToRead!: number;

  @Field({ description: 'Whether access rules apply to the article; when false everyone may read it whole' })
  accessControlEnabled!: boolean;

  @Field(() => [String], { description: 'Entitlement groups that unlock the article when it is premium' })
  accessGroups!: string[];

  @Field(() => PublicationStatus, { description: 'Always PUBLISHED: articles in other states are not served' })
  status!: PublicationStatus;

  @Field({ description: 'Whether the representation may be served from a cache' })
  cached!: boolean;

  @Field(() => ID, { nullable: true, description: 'Id of the primary category' })
  categoryId!: string | null;

  @Field(() => ID, { nullable: true, description: 'Id of the primary author' })
  authorId!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the sponsor (the object is `sponsor`); null for an unsponsored article',
  })
  sponsorId!: string | null;

  categoryIds!: string[];
  authorIds!: string[];
  keywordIds!: string[];
  /** Read only by the access rules: `body` and `preview` are resolved per viewer. */
  fullBody!: string;
  fullPreview!: string;
}

@ObjectType({ description: 'A page of a list of articles (Relay connection)' })
export class ArticleConnection extends Connection(Article, 'Article') {}
