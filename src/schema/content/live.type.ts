// Results of the interactive mutations and the payloads of the live subscriptions.
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LiveBlogMessage } from './live-blog.type.js';
import { Quiz, QuizResult } from './quiz.type.js';

@ObjectType({ description: 'The outcome of submitQuizAnswers' })
export class QuizSubmissionResult {
  @Field(() => Int, { description: "Sum of the chosen answers' points" })
  score!: number;

  @Field(() => Int, { description: 'Best possible score' })
  maxScore!: number;

  @Field(() => QuizResult, { nullable: true, description: 'The result whose minimum..maximum holds the score' })
  result!: QuizResult | null;

  @Field(() => Quiz, { description: 'The quiz with its counters after this submission' })
  quiz!: Quiz;
}

@ObjectType({ description: 'A live-blog message that was deleted' })
export class DeletedLiveBlogMessage {
  @Field(() => ID, { description: 'Id of the deleted message' })
  id!: string;

  @Field(() => ID, { description: 'Id of the live blog the message belonged to' })
  liveBlogId!: string;
}

export enum LiveBlogEventKind {
  ADDED = 'added',
  EDITED = 'edited',
  DELETED = 'deleted',
}
registerEnumType(LiveBlogEventKind, {
  name: 'LiveBlogEventKind',
  description: 'What happened to a live-blog message',
  valuesConfig: {
    ADDED: { description: 'The message was posted' },
    EDITED: { description: 'The message was changed; `message` is the new version' },
    DELETED: { description: 'The message was deleted; `message` is null' },
  },
});

@ObjectType({ description: 'A change to a live blog: a message added, edited or deleted' })
export class LiveBlogEvent {
  @Field(() => LiveBlogEventKind, { description: 'What happened to the message' })
  kind!: LiveBlogEventKind;

  @Field(() => ID, { description: 'Id of the live blog' })
  liveBlogId!: string;

  @Field(() => ID, { description: 'Id of the message concerned' })
  messageId!: string;

  @Field(() => LiveBlogMessage, { nullable: true, description: 'The message as it is now; null when deleted' })
  message!: LiveBlogMessage | null;
}
