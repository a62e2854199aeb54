// Keyword. `replacedBy`, `articles` and `translation` are resolved by KeywordResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Node } from '../types/node.type.js';

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

@ObjectType({ implements: Node })
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

  @Field(() => Int, { description: 'Published articles tagged with the keyword, as the CMS counts them; `articles.totalCount` counts on demand' })
  articlesCount!: number;

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
