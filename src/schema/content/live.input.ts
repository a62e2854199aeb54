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
  @Field(() => String, { nullable: true })
  title?: string | null;

  @Field(() => Int, { nullable: true })
  minute?: number | null;

  @Field(() => Int, { nullable: true })
  additionalMinute?: number | null;

  @Field(() => ID, { nullable: true })
  typeId?: string | null;

  @Field(() => String, { nullable: true })
  imageLetter?: string | null;

  @Field(() => Boolean, { nullable: true })
  highlight?: boolean | null;

  @Field(() => String, { nullable: true })
  htmlContent?: string | null;

  @Field(() => String, { nullable: true })
  userThumbnailUrl?: string | null;
}

@InputType({ description: 'A new live-blog message; userDisplayName is the posting editor\'s name' })
export class LiveBlogMessageInput extends LiveBlogMessageFields {
  @Field({ description: '1 to 10,000 characters' })
  text!: string;
}

@InputType({ description: 'Changes to a live-blog message: only the fields given change' })
export class LiveBlogMessageChangesInput extends LiveBlogMessageFields {
  @Field(() => String, { nullable: true })
  text?: string | null;
}
