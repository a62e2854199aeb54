// Keyword (interface §2.12). `replacedBy`, `articles`, `articlesCount` and `translation` are resolved by KeywordResolver.
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'A keyword in one language (translations are keyed by language)' })
export class KeywordTranslation {
  @Field({ description: 'ISO 639-1 language code' })
  language!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  displayName!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => String, { nullable: true })
  slug!: string | null;
}

@ObjectType()
export class Keyword {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  url!: string;

  @Field()
  slug!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => ID, { nullable: true, description: 'If this keyword was replaced, id of the replacement' })
  replacedById!: string | null;

  @Field(() => String, { nullable: true })
  displayName!: string | null;

  @Field(() => [KeywordTranslation])
  translations!: KeywordTranslation[];

  @Field(() => ID, { nullable: true })
  collectionId!: string | null;

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;
}
