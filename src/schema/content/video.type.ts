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

  @Field({ description: 'Path of the file on the content delivery network' })
  cdnPath!: string;

  @Field({ description: 'MIME type of the file, e.g. `video/mp4`' })
  mimeType!: string;

  @Field(() => Int, { description: 'Duration in seconds' })
  duration!: number;
}

@ObjectType({ implements: Node, description: 'A video of the video platform, with its encodings' })
export class Video {
  @Field(() => ID, { description: 'The stored id of the video' })
  id!: string;

  @Field({ description: 'Title of the video' })
  title!: string;

  @Field({ description: 'URL of the video page' })
  url!: string;

  @Field(() => Int, { description: 'Duration in seconds' })
  duration!: number;

  @Field(() => Int, {
    nullable: true,
    description: 'Episode number within its show; null when the video is not an episode',
  })
  episodeNumber!: number | null;

  @Field(() => VideoStatus, { description: 'Always READY: videos in other states are not served' })
  status!: VideoStatus;

  @Field(() => ID, { nullable: true, description: 'Id of the show the video belongs to; null when none' })
  showId!: string | null;

  @Field(() => String, { nullable: true, description: 'Name of the show; null when none' })
  showName!: string | null;

  @Field(() => String, { nullable: true, description: 'URL of the show; null when none' })
  showUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Short description of the video; null when none' })
  brief!: string | null;

  @Field(() => String, { nullable: true, description: 'Thumbnail image URL; null when none' })
  thumbnailUrl!: string | null;

  @Field(() => String, { nullable: true, description: 'Thumbnail with a play button' })
  thumbnailPlayUrl!: string | null;

  @Field({ description: 'Filename/URL of the master file' })
  filename!: string;

  @Field(() => Date, { nullable: true, description: 'When the video was published; null when not set' })
  publishDate!: Date | null;

  @Field(() => Int, { description: 'Number of views' })
  views!: number;

  @Field({ description: 'Publish flag' })
  publish!: boolean;

  @Field(() => [VideoFormat], { description: 'Encodings of the video, one per format' })
  formats!: VideoFormat[];
}
