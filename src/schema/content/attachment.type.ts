// Attachment: images, videos and files embedded in an article. `video` is resolved by AttachmentResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { ImageTransform } from './common.type.js';
import { AttachmentType } from './enums.js';

@ObjectType({ description: 'An additional URL of one transform (additional urls are keyed by transform)' })
export class TransformUrl {
  @Field({ description: 'The transform this URL belongs to, e.g. `640x360`' })
  transform!: string;

  @Field({ description: 'The additional URL' })
  url!: string;
}

@ObjectType({ description: 'An image, video or file attached to an article' })
export class Attachment {
  @Field(() => ID, { description: 'Id of the attachment' })
  id!: string;

  @Field({ description: 'File name or title of the attachment' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Caption of the attachment; null when there is none' })
  description!: string | null;

  @Field(() => AttachmentType, { description: 'Whether the attachment is an image, a video or a file' })
  type!: AttachmentType;

  @Field({ description: 'Public URL of the original file' })
  publicUrl!: string;

  @Field(() => Int, { nullable: true, description: 'Width in pixels' })
  width!: number | null;

  @Field(() => Int, { nullable: true, description: 'Height in pixels' })
  height!: number | null;

  @Field(() => String, { nullable: true, description: "Focal point as 'x% y%'" })
  focalPoint!: string | null;

  @Field(() => [ImageTransform], { description: 'Renditions of the image at other sizes' })
  transforms!: ImageTransform[];

  @Field(() => [TransformUrl], { description: 'Additional urls per transform' })
  additionalUrls!: TransformUrl[];

  @Field(() => String, { nullable: true, description: 'Title for image search results; null when not set' })
  searchTitle!: string | null;

  @Field(() => String, { nullable: true, description: 'Description for image search results; null when not set' })
  searchDescription!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Title when the attachment is shared on social networks; null when not set',
  })
  socialTitle!: string | null;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the video behind the attachment (the object is `video`); null when there is none',
  })
  videoId!: string | null;
}
