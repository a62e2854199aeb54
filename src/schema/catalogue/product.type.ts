// API shape of a product. `productItems` is resolved through a loader.
import { Field, ID, ObjectType } from 'type-graphql';
import { ProductTranslatedText } from './translation.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'The brand a product is sold under' })
export class Brand {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  logoUrl!: string | null;

  @Field(() => String, { nullable: true })
  url!: string | null;
}

@ObjectType()
export class ProductSettings {
  @Field(() => String, { nullable: true, description: 'Name of the template the product page is rendered with' })
  template!: string | null;

  @Field(() => String, { nullable: true })
  mainPhotoUrl!: string | null;

  @Field(() => String, { nullable: true })
  secondaryPhotoUrl!: string | null;

  @Field(() => String, { nullable: true })
  thumbnailUrl!: string | null;

  @Field(() => String, { nullable: true })
  sku!: string | null;

  @Field({ description: 'Whether the customer may choose the price (donations, pay-what-you-want)' })
  allowCustomPrice!: boolean;
}

@ObjectType({ implements: Node, description: 'A product of the catalogue; what is bought is one of its items' })
export class Product {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'Not translated (the interface translates descriptions and labels only)' })
  name!: string;

  @Field(() => String, { nullable: true })
  subtitle!: string | null;

  @Field(() => String, { nullable: true })
  teaser!: string | null;

  @Field(() => String, { nullable: true, description: 'In the requested language, falling back to the default language' })
  description!: string | null;

  @Field(() => String, { nullable: true })
  text!: string | null;

  @Field(() => Brand, { nullable: true })
  brand!: Brand | null;

  @Field(() => String, { nullable: true })
  url!: string | null;

  @Field(() => String, { nullable: true })
  learnMoreLink!: string | null;

  @Field(() => ProductSettings)
  settings!: ProductSettings;

  @Field(() => [ProductTranslatedText], { description: 'Every translation the product has' })
  translatedTexts!: ProductTranslatedText[];

  @Field({ description: 'Unavailable products are not listed under categories' })
  available!: boolean;

  @Field(() => [ID], { description: 'Categories the product is listed in' })
  categoryIds!: string[];

  lang!: string | null;
}
