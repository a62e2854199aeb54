// Live blog and message. `previewMessages` is resolved by LiveBlogResolver.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { Node } from '../types/node.type.js';

@ObjectType()
export class LiveBlogMessage {
  @Field(() => ID)
  id!: string;

  @Field()
  timestamp!: Date;

  @Field()
  text!: string;

  @Field(() => String, { nullable: true })
  title!: string | null;

  @Field(() => Int, { nullable: true, description: 'Minute of the event (sports)' })
  minute!: number | null;

  @Field(() => Int, { nullable: true, description: 'Additional minute value (stoppage time)' })
  additionalMinute!: number | null;

  @Field(() => ID, { nullable: true })
  typeId!: string | null;

  @Field(() => String, { nullable: true, description: 'Image letter/character' })
  imageLetter!: string | null;

  @Field({ description: 'Highlight flag' })
  highlight!: boolean;

  @Field(() => String, { nullable: true })
  htmlContent!: string | null;

  @Field(() => String, { nullable: true })
  userDisplayName!: string | null;

  @Field(() => String, { nullable: true })
  userThumbnailUrl!: string | null;

  @Field(() => ID, { description: 'The live blog the message belongs to' })
  liveBlogId!: string;

  @Field(() => Date, { nullable: true, description: 'When an editor last changed the message' })
  editedAt!: Date | null;
}

@ObjectType({ implements: Node })
export class LiveBlog {
  @Field(() => ID)
  id!: string;

  @Field()
  title!: string;

  @Field()
  startDate!: Date;

  @Field(() => Date, { nullable: true })
  endDate!: Date | null;

  @Field({ description: 'Websocket room to subscribe to for new messages' })
  websocketRoomName!: string;

  lastSeq!: number;
}
