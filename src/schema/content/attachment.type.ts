// Attachment: images, videos and files embedded in an article. `video` is resolved by AttachmentResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ImageTransform } from './common.type.js';
import { AttachmentType } from './enums.js';

@ObjectType({ description: 'An additional URL of one transform (additional urls are keyed by transform)' })
export class TransformUrl {
  @Field({ description: 'The transform this URL belongs to, e.g. `640x360`' })
  transform!: string;

  @Field()
  url!: string;
}

@ObjectType()
export class Attachment {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => AttachmentType)
  type!: AttachmentType;

  @Field()
  publicUrl!: string;

  @Field(() => Int, { nullable: true, description: 'Width in pixels' })
  width!: number | null;

  @Field(() => Int, { nullable: true, description: 'Height in pixels' })
  height!: number | null;

  @Field(() => String, { nullable: true, description: "Focal point as 'x% y%'" })
  focalPoint!: string | null;

  @Field(() => [ImageTransform])
  transforms!: ImageTransform[];

  @Field(() => [TransformUrl], { description: 'Additional urls per transform' })
  additionalUrls!: TransformUrl[];

  @Field(() => String, { nullable: true })
  searchTitle!: string | null;

  @Field(() => String, { nullable: true })
  searchDescription!: string | null;

  @Field(() => String, { nullable: true })
  socialTitle!: string | null;

  @Field(() => ID, { nullable: true })
  videoId!: string | null;
}
