// Filter of the root `articles` connection; every field narrows the list (all must match).
import { Field, ID, InputType } from 'type-graphql';

@InputType({ description: 'Narrows `articles`; omitted fields do not filter' })
export class ArticlesFilter {
  @Field(() => ID, { nullable: true, description: 'Articles filed under this content category' })
  categoryId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Articles by this author' })
  authorId?: string | null;

  @Field(() => ID, { nullable: true, description: 'Articles tagged with this keyword' })
  keywordId?: string | null;

  @Field(() => Boolean, { nullable: true, description: 'Only premium (true) or only non-premium (false) articles' })
  premium?: boolean | null;
}
