// Content category. Type, parent, page and articles are resolved by ContentCategoryResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { CategoryStatus } from './enums.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'The type of a content category (section, topic, series, ...)' })
export class CategoryType {
  @Field(() => ID, { description: 'The stored id of the category type' })
  id!: string;

  @Field({ description: 'Display name of the category type' })
  name!: string;

  @Field({ description: 'URL-safe name of the category type' })
  slug!: string;
}

@ObjectType({ implements: Node, description: 'A category articles are filed under' })
export class ContentCategory {
  @Field(() => ID, { description: 'The stored id of the category' })
  id!: string;

  @Field({ description: 'Category name' })
  name!: string;

  @Field({ description: 'Editorial reference code the newsroom knows the category by' })
  signature!: string;

  @Field({ description: 'URL-safe name; `contentCategory(slug:)` finds the category by this' })
  slug!: string;

  @Field(() => ID, { nullable: true, description: 'Id of the category type; the object is `type`' })
  typeId!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the parent category (the object is `parent`); null for a top-level category',
  })
  parentCategoryId!: string | null;

  @Field(() => String, { nullable: true, description: 'Image URL; null when none' })
  imageUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Cover image URL; null when none' })
  coverUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Logo URL; null when none' })
  logoUrl!: string | null;

  @Field({ description: 'Articles of the category are paid content' })
  paid!: boolean;

  @Field({ description: 'Class of the object in the legacy CMS' })
  objectClassName!: string;

  @Field({ description: 'URL of the category page on the site' })
  absoluteUrl!: string;

  @Field(() => String, { nullable: true, description: 'CSS the category page adds; null when none' })
  cssCode!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Template the category page is rendered with; null when not set',
  })
  templateName!: string | null;

  @Field(() => String, { nullable: true, description: 'Tagline shown with the category name; null when none' })
  tagline!: string | null;

  @Field(() => String, { nullable: true, description: 'Link parameter the site uses for the category; null when none' })
  linkParameter!: string | null;

  @Field(() => String, { nullable: true, description: 'Description of the category; null when none' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'Description for search engines; null when none' })
  metaDescription!: string | null;

  @Field(() => Int, { description: 'Position among its siblings' })
  order!: number;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the page the category belongs to (the object is `page`); null when none',
  })
  pageId!: string | null;

  @Field(() => Int, {
    description:
      'Published articles filed under the category, as the CMS counts them; `articles.totalCount` counts on demand',
  })
  articlesCount!: number;

  @Field({ description: 'Whether readers may comment on articles of the category' })
  allowComments!: boolean;

  @Field({ description: 'Who may read the category, e.g. `public` or `restricted`' })
  accessType!: string;

  @Field(() => CategoryStatus, { description: 'Always ACTIVE: inactive categories are not served' })
  status!: CategoryStatus;
}
