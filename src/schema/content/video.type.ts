// Video and its formats.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { VideoStatus } from './enums.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'One encoding of a video' })
export class VideoFormat {
  @Field({ description: 'Format name, e.g. `hls` or `mp4-720p`' })
  format!: string;

  @Field({ description: 'Filename/URL' })
  filename!: string;

  @Field()
  cdnPath!: string;

  @Field()
  mimeType!: string;

  @Field(() => Int, { description: 'Duration in seconds' })
  duration!: number;
}

@ObjectType({ implements: Node })
export class Video {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  url!: string;

  @Field(() => Int, { description: 'Duration in seconds' })
  duration!: number;

  @Field(() => Int, { nullable: true })
  episodeNumber!: number | null;

  @Field(() => VideoStatus)
  status!: VideoStatus;

  @Field(() => ID, { nullable: true })
  showId!: string | null;

  @Field(() => String, { nullable: true })
  showName!: string | null;

  @Field(() => String, { nullable: true })
  showUrl!: string | null;

  @Field(() => String, { nullable: true })
  brief!: string | null;

  @Field(() => String, { nullable: true })
  thumbnailUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Thumbnail with a play button' })
  thumbnailPlayUrl!: string | null;

  @Field({ description: 'Filename/URL of the master file' })
  filename!: string;

  @Field(() => Date, { nullable: true })
  publishDate!: Date | null;

  @Field(() => Int, { description: 'Number of views' })
  views!: number;

  @Field({ description: 'Publish flag' })
  publish!: boolean;

  @Field(() => [VideoFormat])
  formats!: VideoFormat[];
}
