// Author. `replacedBy` and `articles` are resolved by AuthorResolver.
import { Field, ID, ObjectType } from 'type-graphql';
import { ImageTransform } from './common.type.js';
import { Node } from '../types/node.type.js';

@ObjectType({ implements: Node })
export class Author {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'URL to the author page' })
  url!: string;

  @Field({ description: 'Author name' })
  name!: string;

  @Field(() => String, { nullable: true })
  imageUrl!: string | null;

  @Field(() => [ImageTransform], { description: 'Available image transformations' })
  imageTransforms!: ImageTransform[];

  @Field(() => String, { nullable: true })
  coverImageUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Author email' })
  email!: string | null;

  @Field(() => String, { nullable: true })
  department!: string | null;

  @Field({ description: 'Editorial name (slug)' })
  slug!: string;

  @Field(() => String, { nullable: true })
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

  @Field(() => String, { nullable: true })
  socialNetworkUsername!: string | null;

  @Field(() => String, { nullable: true })
  professionalNetworkProfile!: string | null;

  @Field(() => String, { nullable: true })
  photoSharingHandle!: string | null;

  @Field({ description: 'Class name in the legacy CMS' })
  className!: string;

  @Field(() => ID, { nullable: true, description: 'If this author was replaced, id of the replacement' })
  replacedById!: string | null;

  @Field(() => String, { nullable: true, description: 'Where the author was imported from; null when not imported' })
  source!: string | null;
}
