// Keyword. `replacedBy`, `articles` and `translation` are resolved by KeywordResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'A keyword in one language (translations are keyed by language)' })
export class KeywordTranslation {
  @Field({ description: 'ISO 639-1 language code' })
  language!: string;

  @Field({ description: 'Name in this language' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Name to display in this language; null when not set' })
  displayName!: string | null;

  @Field(() => String, { nullable: true, description: 'Description in this language; null when not set' })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'URL-safe name in this language; null when not set' })
  slug!: string | null;
}

@ObjectType({ implements: Node, description: 'A keyword (tag) articles are tagged with' })
export class Keyword {
  @Field(() => ID, { description: 'The stored id of the keyword' })
  id!: string;

  @Field({ description: 'Name of the keyword in the default language' })
  name!: string;

  @Field({ description: 'URL of the keyword page on the site' })
  url!: string;

  @Field({ description: 'URL-safe name; `keyword(slug:)` finds the keyword by this' })
  slug!: string;

  @Field(() => String, { nullable: true, description: 'Description of the keyword; null when none' })
  description!: string | null;

  @Field(() => Int, {
    description:
      'Published articles tagged with the keyword, as the CMS counts them; `articles.totalCount` counts on demand',
  })
  articlesCount!: number;

  @Field(() => ID, { nullable: true, description: 'If this keyword was replaced, id of the replacement' })
  replacedById!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Name to display when it differs from `name`; null when not set',
  })
  displayName!: string | null;

  @Field(() => [KeywordTranslation], { description: 'The keyword in other languages, one entry per language' })
  translations!: KeywordTranslation[];

  @Field(() => ID, { nullable: true, description: 'Id of the keyword collection it belongs to; null when none' })
  collectionId!: string | null;

  @Field(() => String, { nullable: true, description: 'Image URL; null when none' })
  imageUrl!: string | null;
}
