// Content category. Type, parent, page and articles are resolved by ContentCategoryResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { CategoryStatus } from './enums.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'The type of a content category (section, topic, series, ...)' })
export class CategoryType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  slug!: string;
}

@ObjectType({ implements: Node, description: 'A category articles are filed under' })
export class ContentCategory {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Category name' })
  name!: string;

  @Field()
  signature!: string;

  @Field()
  slug!: string;

  @Field(() => ID, { nullable: true, description: 'Id of the category type; the object is `type`' })
  typeId!: string | null;

  @Field(() => ID, { nullable: true })
  parentCategoryId!: string | null;

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;

  @Field(() => String, { nullable: true })
  coverUrl!: string | null;

  @Field(() => String, { nullable: true })
  logoUrl!: string | null;

  @Field({ description: 'Articles of the category are paid content' })
  paid!: boolean;

  @Field()
  objectClassName!: string;

  @Field()
  absoluteUrl!: string;

  @Field(() => String, { nullable: true })
  cssCode!: string | null;

  @Field(() => String, { nullable: true })
  templateName!: string | null;

  @Field(() => String, { nullable: true })
  tagline!: string | null;

  @Field(() => String, { nullable: true })
  linkParameter!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => String, { nullable: true })
  metaDescription!: string | null;

  @Field(() => Int, { description: 'Position among its siblings' })
  order!: number;

  @Field(() => ID, { nullable: true })
  pageId!: string | null;

  @Field(() => Int, { description: 'Published articles filed under the category, as the CMS counts them; `articles.totalCount` counts on demand' })
  articlesCount!: number;

  @Field()
  allowComments!: boolean;

  @Field({ description: 'Who may read the category, e.g. `public` or `restricted`' })
  accessType!: string;

  @Field(() => CategoryStatus)
  status!: CategoryStatus;
}
