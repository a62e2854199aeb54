// The value objects an Article carries: content type, sponsor, SEO, elements.
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The kind of an article (news, review, gallery, ...)' })
export class ContentType {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  slug!: string;

  @Field({ description: 'The editor the type is written with (e.g. `richtext`, `blocks`)' })
  editor!: string;
}

@ObjectType()
export class Sponsor {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'URL to the sponsor page' })
  url!: string;

  @Field({ description: 'Sponsor name' })
  name!: string;

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;
}

@ObjectType({ description: 'Search-engine and social-sharing texts of an article' })
export class Seo {
  @Field(() => String, { nullable: true })
  searchTitle!: string | null;

  @Field(() => String, { nullable: true })
  searchDescription!: string | null;

  @Field(() => String, { nullable: true })
  socialTitle!: string | null;

  @Field(() => String, { nullable: true })
  socialDescription!: string | null;

  @Field(() => String, { nullable: true })
  socialImageUrl!: string | null;
}

@ObjectType({ description: 'Interactive elements embedded in an article; live blogs, polls and quizzes are resolved by ArticleElementsResolver' })
export class ArticleElements {
  @Field(() => [String], { description: 'Ids of videos on the external video platform' })
  videoPlatformVideoIds!: string[];

  liveBlogIds!: string[];
  pollIds!: string[];
  quizIds!: string[];
}
