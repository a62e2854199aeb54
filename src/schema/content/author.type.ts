// Author. `replacedBy` and `articles` are resolved by AuthorResolver.
import { Field, ID, ObjectType } from 'type-graphql';
import { ImageTransform } from './common.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ implements: Node, description: 'A writer of articles' })
export class Author {
  @Field(() => ID, { description: 'The stored id of the author' })
  id!: string;

  @Field({ description: 'URL to the author page' })
  url!: string;

  @Field({ description: 'Author name' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Portrait URL; null when none' })
  imageUrl!: string | null;

  @Field(() => [ImageTransform], { description: 'Available image transformations' })
  imageTransforms!: ImageTransform[];

  @Field(() => String, { nullable: true, description: 'Cover image URL for the author page; null when none' })
  coverImageUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Author email' })
  email!: string | null;

  @Field(() => String, { nullable: true, description: 'Desk or department the author works for; null when not set' })
  department!: string | null;

  @Field({ description: 'Editorial name (slug)' })
  slug!: string;

  @Field(() => String, { nullable: true, description: 'Short biography; null when none' })
  shortBiography!: string | null;

  @Field(() => String, { nullable: true, description: 'Full description (HTML)' })
  fullDescription!: string | null;

  @Field(() => String, { nullable: true, description: 'Name in latin characters' })
  latinName!: string | null;

  @Field(() => String, { nullable: true, description: 'Country code or name' })
  country!: string | null;

  @Field(() => String, { nullable: true, description: 'Legacy social-profile field' })
  legacySocialProfile!: string | null;

  @Field(() => String, { nullable: true, description: 'Microblog handle, without the at-sign' })
  microblogHandle!: string | null;

  @Field(() => String, { nullable: true, description: 'Username on the social network; null when not set' })
  socialNetworkUsername!: string | null;

  @Field(() => String, { nullable: true, description: 'Profile on the professional network; null when not set' })
  professionalNetworkProfile!: string | null;

  @Field(() => String, { nullable: true, description: 'Handle on the photo-sharing network; null when not set' })
  photoSharingHandle!: string | null;

  @Field({ description: 'Class name in the legacy CMS' })
  className!: string;

  @Field(() => ID, { nullable: true, description: 'If this author was replaced, id of the replacement' })
  replacedById!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the author was imported from; null when not imported' })
  source!: string | null;
}
