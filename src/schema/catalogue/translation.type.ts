// Translation entries: REST keys them by language, GraphQL lists them with their `language` (docs/api.md).
import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A product category in one language' })
export class CategoryTranslation {
  @Field({ description: 'ISO 639-1 language code' })
  language!: string;

  @Field(() => String, { nullable: true, description: 'Name in this language; null when not translated' })
  name!: string | null;

  @Field(() => String, { nullable: true, description: 'Description in this language; null when not translated' })
  description!: string | null;
}

@ObjectType({ description: "A product's texts in one language" })
export class ProductTranslatedText {
  @Field({ description: 'ISO 639-1 language code' })
  language!: string;

  @Field(() => String, { nullable: true, description: 'Description in this language; null when not translated' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'First label in this language; null when not translated' })
  label1!: string | null;

  @Field(() => String, { nullable: true, description: 'Second label in this language; null when not translated' })
  label2!: string | null;

  @Field(() => String, { nullable: true, description: 'Third label in this language; null when not translated' })
  label3!: string | null;
}

@ObjectType({ description: 'A product item in one language' })
export class ProductItemTranslation {
  @Field({ description: 'ISO 639-1 language code' })
  language!: string;

  @Field(() => String, { nullable: true, description: 'Name in this language; null when not translated' })
  name!: string | null;

  @Field(() => String, { nullable: true, description: 'Subtitle in this language; null when not translated' })
  subtitle!: string | null;
}
