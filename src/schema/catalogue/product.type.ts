// API shape of a product. `productItems` is resolved through a loader.
import { Field, ID, ObjectType } from 'type-graphql';
import { ProductTranslatedText } from './translation.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'The brand a product is sold under' })
export class Brand {
  @Field(() => ID, { description: 'Id of the brand' })
  id!: string;

  @Field({ description: 'Name of the brand' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Logo URL; null when none' })
  logoUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Website of the brand; null when none' })
  url!: string | null;
}

@ObjectType({ description: 'Presentation settings of a product' })
export class ProductSettings {
  @Field(() => String, { nullable: true, description: 'Name of the template the product page is rendered with' })
  template!: string | null;

  @Field(() => String, { nullable: true, description: 'Main photo URL; null when none' })
  mainPhotoUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Secondary photo URL; null when none' })
  secondaryPhotoUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Thumbnail URL; null when none' })
  thumbnailUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Stock keeping unit of the product; null when not set' })
  sku!: string | null;

  @Field({ description: 'Whether the customer may choose the price (donations, pay-what-you-want)' })
  allowCustomPrice!: boolean;
}

@ObjectType({ implements: Node, description: 'A product of the catalogue; what is bought is one of its items' })
export class Product {
  @Field(() => ID, { description: 'The stored id of the product' })
  id!: string;

  @Field({ description: 'Not translated (the interface translates descriptions and labels only)' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Not translated; null when none' })
  subtitle!: string | null;

  @Field(() => String, { nullable: true, description: 'Short teaser text, not translated; null when none' })
  teaser!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'In the requested language, falling back to the default language',
  })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'Long text of the product page, not translated; null when none' })
  text!: string | null;

  @Field(() => Brand, { nullable: true, description: 'The brand the product is sold under; null when none' })
  brand!: Brand | null;

  @Field(() => String, { nullable: true, description: 'URL of the product page; null when none' })
  url!: string | null;

  @Field(() => String, { nullable: true, description: 'Link to more information about the product; null when none' })
  learnMoreLink!: string | null;

  @Field(() => ProductSettings, { description: 'Presentation settings' })
  settings!: ProductSettings;

  @Field(() => [ProductTranslatedText], { description: 'Every translation the product has' })
  translatedTexts!: ProductTranslatedText[];

  @Field({ description: 'Unavailable products are not listed under categories' })
  available!: boolean;

  @Field(() => [ID], { description: 'Categories the product is listed in' })
  categoryIds!: string[];

  lang!: string | null;
}
