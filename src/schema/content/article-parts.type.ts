// The value objects an Article carries: content type, sponsor, SEO, elements.
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType({ description: 'The kind of an article (news, review, gallery, ...)' })
export class ContentType {
  @Field(() => ID, { description: 'The stored id of the content type' })
  id!: string;

  @Field({ description: 'Display name of the content type' })
  name!: string;

  @Field({ description: 'URL-safe name of the content type' })
  slug!: string;

  @Field({ description: 'The editor the type is written with (e.g. `richtext`, `blocks`)' })
  editor!: string;
}

@ObjectType({ description: 'The sponsor of an article' })
export class Sponsor {
  @Field(() => ID, { description: 'The stored id of the sponsor' })
  id!: string;

  @Field({ description: 'URL to the sponsor page' })
  url!: string;

  @Field({ description: 'Sponsor name' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Logo or image of the sponsor; null when there is none' })
  imageUrl!: string | null;
}

@ObjectType({ description: 'Search-engine and social-sharing texts of an article' })
export class Seo {
  @Field(() => String, { nullable: true, description: 'Title for search-engine results; null when not set' })
  searchTitle!: string | null;

  @Field(() => String, { nullable: true, description: 'Description for search-engine results; null when not set' })
  searchDescription!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Title when the article is shared on social networks; null when not set',
  })
  socialTitle!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Description when the article is shared on social networks; null when not set',
  })
  socialDescription!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Image URL when the article is shared on social networks; null when not set',
  })
  socialImageUrl!: string | null;
}

@ObjectType({
  description:
    'Interactive elements embedded in an article; live blogs, polls and quizzes are resolved by ArticleElementsResolver',
})
export class ArticleElements {
  @Field(() => [String], { description: 'Ids of videos on the external video platform' })
  videoPlatformVideoIds!: string[];

  liveBlogIds!: string[];
  pollIds!: string[];
  quizIds!: string[];
}
