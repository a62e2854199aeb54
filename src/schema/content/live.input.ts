// Inputs of the interactive mutations: quiz answers and live-blog messages (checked again in src/operations/live).
import { Field, ID, InputType, Int } from 'type-graphql';

@InputType({ description: 'One answer of a quiz submission' })
export class QuizAnswerInput {
  @Field(() => ID, { description: 'The question: its `id` (`QuizQuestion:<quiz id>:<key>`) or its `key`' })
  questionId!: string;

  @Field(() => ID, { description: 'The chosen answer of that question: its `id` (`QuizAnswer:…`) or its `key`' })
  answerId!: string;
}

/** The optional fields of a message, shared by the new-message and the changes inputs (not in the schema itself). */
@InputType()
abstract class LiveBlogMessageFields {
  @Field(() => String, { nullable: true, description: 'Headline, at most 500 characters; null for none' })
  title?: string | null;

  @Field(() => Int, { nullable: true, description: 'Minute of the event (sports), 0 to 10,000; null for none' })
  minute?: number | null;

  @Field(() => Int, { nullable: true, description: 'Additional minute (stoppage time), 0 to 10,000; null for none' })
  additionalMinute?: number | null;

  @Field(() => ID, {
    nullable: true,
    description: 'Id of the message type: 1 to 64 characters of A-Z a-z 0-9 _ . : -; null for none',
  })
  typeId?: string | null;

  @Field(() => String, { nullable: true, description: 'Image letter/character, at most 4 characters; null for none' })
  imageLetter?: string | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'Highlights the message; a new message is not highlighted unless this is true',
  })
  highlight?: boolean | null;

  @Field(() => String, { nullable: true, description: 'Rich HTML version, at most 50,000 characters; null for none' })
  htmlContent?: string | null;

  @Field(() => String, {
    nullable: true,
    description: "An http(s) URL of the poster's avatar, at most 2,000 characters; null for none",
  })
  userThumbnailUrl?: string | null;
}

@InputType({ description: "A new live-blog message; userDisplayName is the posting editor's name" })
export class LiveBlogMessageInput extends LiveBlogMessageFields {
  @Field({ description: '1 to 10,000 characters' })
  text!: string;
}

@InputType({ description: 'Changes to a live-blog message: only the fields given change' })
export class LiveBlogMessageChangesInput extends LiveBlogMessageFields {
  @Field(() => String, { nullable: true, description: 'New text, 1 to 10,000 characters; omit to keep the text' })
  text?: string | null;
}
