// Live blog and message. `previewMessages` is resolved by LiveBlogResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'A message of a live blog' })
export class LiveBlogMessage {
  @Field(() => ID, { description: 'The stored id of the message' })
  id!: string;

  @Field({ description: 'When the message was posted' })
  timestamp!: Date;

  @Field({ description: 'Text of the message' })
  text!: string;

  @Field(() => String, { nullable: true, description: 'Headline of the message; null when none' })
  title!: string | null;

  @Field(() => Int, { nullable: true, description: 'Minute of the event (sports)' })
  minute!: number | null;

  @Field(() => Int, { nullable: true, description: 'Additional minute value (stoppage time)' })
  additionalMinute!: number | null;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the message type the site styles the message by; null when none',
  })
  typeId!: string | null;

  @Field(() => String, { nullable: true, description: 'Image letter/character' })
  imageLetter!: string | null;

  @Field({ description: 'Highlight flag' })
  highlight!: boolean;

  @Field(() => String, { nullable: true, description: 'Rich HTML version of the message; null when none' })
  htmlContent!: string | null;

  @Field(() => String, { nullable: true, description: 'Name of the editor who posted the message; null when unknown' })
  userDisplayName!: string | null;

  @Field(() => String, { nullable: true, description: 'Avatar URL of the poster; null when none' })
  userThumbnailUrl!: string | null;

  @Field(() => ID, { description: 'The live blog the message belongs to' })
  liveBlogId!: string;

  @Field(() => Date, { nullable: true, description: 'When an editor last changed the message' })
  editedAt!: Date | null;
}

@ObjectType({ implements: Node, description: 'A live blog: a stream of short messages about an ongoing event' })
export class LiveBlog {
  @Field(() => ID, { description: 'The stored id of the live blog' })
  id!: string;

  @Field({ description: 'Title of the live blog' })
  title!: string;

  @Field({ description: 'When the coverage starts' })
  startDate!: Date;

  @Field(() => Date, { nullable: true, description: 'When the coverage ends; null while it has no planned end' })
  endDate!: Date | null;

  @Field({ description: 'Websocket room to subscribe to for new messages' })
  websocketRoomName!: string;

  lastSeq!: number;
}
