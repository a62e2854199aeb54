// API shape of a product category. `products`, `breadcrumbs` and `totalProductsCount`
// are resolved per request through loaders; the undecorated fields carry what those resolvers need.
import { Field, ID, ObjectType } from 'type-graphql';
import { CategorySettingType } from './catalogue.enums.js';
import { CategoryTranslation } from './translation.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'A setting products of the category carry' })
export class CategorySetting {
  @Field()
  name!: string;

  @Field()
  key!: string;

  @Field(() => CategorySettingType, { description: 'Setting type' })
  type!: CategorySettingType;
}

@ObjectType({ description: 'One step of the path from the root category down to this one' })
export class Breadcrumb {
  @Field(() => ID)
  categoryId!: string;

  @Field({ description: 'Localised like the category itself' })
  categoryName!: string;

  @Field()
  categorySlug!: string;
}

@ObjectType({ implements: Node, description: 'A category of the ecommerce catalogue' })
export class ProductCategory {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'In the requested language, falling back to the default language' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'In the requested language, falling back to the default language' })
  description!: string | null;

  @Field(() => ID, { nullable: true, description: 'Null for a top-level category' })
  parentCategoryId!: string | null;

  @Field(() => String, { nullable: true })
  url!: string | null;

  @Field()
  available!: boolean;

  @Field()
  featured!: boolean;

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;

  @Field(() => String, { nullable: true })
  coverPhotoUrl!: string | null;

  @Field(() => String, { nullable: true })
  logoUrl!: string | null;

  @Field()
  slug!: string;

  @Field(() => [CategorySetting])
  settings!: CategorySetting[];

  @Field(() => [CategoryTranslation], { description: 'Every translation the category has' })
  translations!: CategoryTranslation[];

  /** Language the texts were localised to (null: the default language); nested objects follow it. */
  lang!: string | null;
  /** From the root down, for the breadcrumbs. */
  ancestorIds!: string[];
}
