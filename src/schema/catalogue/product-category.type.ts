// API shape of a product category. `products`, `breadcrumbs` and `totalProductsCount`
// are resolved per request through loaders; the undecorated fields carry what those resolvers need.
import { Field, ID, ObjectType } from 'type-graphql';
import { CategorySettingType } from './catalogue.enums.js';
import { CategoryTranslation } from './translation.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'A setting products of the category carry' })
export class CategorySetting {
  @Field({ description: 'Name of the setting, for display' })
  name!: string;

  @Field({ description: "Key of the setting in the products' settings" })
  key!: string;

  @Field(() => CategorySettingType, { description: 'Setting type' })
  type!: CategorySettingType;
}

@ObjectType({ description: 'One step of the path from the root category down to this one' })
export class Breadcrumb {
  @Field(() => ID, { description: 'Id of the category at this step' })
  categoryId!: string;

  @Field({ description: 'Localised like the category itself' })
  categoryName!: string;

  @Field({ description: 'Slug of the category at this step' })
  categorySlug!: string;
}

@ObjectType({ implements: Node, description: 'A category of the ecommerce catalogue' })
export class ProductCategory {
  @Field(() => ID, {
    description: 'The stored id of the category; `productCategory(id:)` and `node(id:)` fetch it again',
  })
  id!: string;

  @Field({ description: 'In the requested language, falling back to the default language' })
  name!: string;

  @Field(() => String, {
    nullable: true,
    description: 'In the requested language, falling back to the default language',
  })
  description!: string | null;

  @Field(() => ID, { nullable: true, description: 'Null for a top-level category' })
  parentCategoryId!: string | null;

  @Field(() => String, { nullable: true, description: 'URL of the category page in the shop; null when it has none' })
  url!: string | null;

  @Field({
    description: 'Whether the category is offered; `productCategories` lists available ones unless asked otherwise',
  })
  available!: boolean;

  @Field({ description: "Whether the category is featured (e.g. on the shop's front page)" })
  featured!: boolean;

  @Field(() => String, { nullable: true, description: 'URL of the category image; null when it has none' })
  imageUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'URL of the cover photo; null when it has none' })
  coverPhotoUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'URL of the category logo; null when it has none' })
  logoUrl!: string | null;

  @Field({ description: 'URL slug of the category; `productCategory(slug:)` fetches it by this' })
  slug!: string;

  @Field(() => [CategorySetting], { description: 'Settings products of the category carry' })
  settings!: CategorySetting[];

  @Field(() => [CategoryTranslation], { description: 'Every translation the category has' })
  translations!: CategoryTranslation[];

  /** Language the texts were localised to (null: the default language); nested objects follow it. */
  lang!: string | null;
  /** From the root down, for the breadcrumbs. */
  ancestorIds!: string[];
}
