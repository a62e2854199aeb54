// Arguments of `searchArticles`: the query text, the filters that narrow its result (all must match) and the page.
import { ArgsType, Field, ID, InputType } from 'type-graphql';
import { ConnectionArgs } from './connection.args.js';

@InputType({ description: 'Narrows `searchArticles`; omitted fields do not filter' })
export class ArticleSearchFilter {
  @Field(() => [ID], { nullable: true, description: 'Articles filed under any of these categories (at most 20)' })
  categoryIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: 'Articles by any of these authors (at most 20)' })
  authorIds?: string[] | null;

  @Field(() => [ID], { nullable: true, description: 'Articles tagged with any of these keywords (at most 20)' })
  keywordIds?: string[] | null;

  @Field(() => Date, { nullable: true, description: 'Articles first published at or after this instant' })
  publishedFrom?: Date | null;

  @Field(() => Date, { nullable: true, description: 'Articles first published before this instant' })
  publishedBefore?: Date | null;

  @Field(() => Boolean, { nullable: true, description: 'Only premium (true) or only non-premium (false) articles' })
  premium?: boolean | null;
}

@ArgsType()
export class ArticleSearchArgs extends ConnectionArgs {
  @Field({
    description:
      'What to look for: words (any may match; the more and the rarer, the higher the score), "quoted phrases" ' +
      '(required) and -words (excluded); 1 to 200 characters, at most 32 words',
  })
  query!: string;

  @Field(() => ArticleSearchFilter, { nullable: true, description: 'Narrows the result; omit to search every article' })
  filter?: ArticleSearchFilter | null;
}
