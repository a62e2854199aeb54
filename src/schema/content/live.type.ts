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
  @Field(() => ID)
  id!: string;

  @Field(() => ID)
  liveBlogId!: string;
}

export enum LiveBlogEventKind {
  ADDED = 'added',
  EDITED = 'edited',
  DELETED = 'deleted',
}
registerEnumType(LiveBlogEventKind, { name: 'LiveBlogEventKind' });

@ObjectType({ description: 'A change to a live blog: a message added, edited or deleted' })
export class LiveBlogEvent {
  @Field(() => LiveBlogEventKind)
  kind!: LiveBlogEventKind;

  @Field(() => ID)
  liveBlogId!: string;

  @Field(() => ID)
  messageId!: string;

  @Field(() => LiveBlogMessage, { nullable: true, description: 'The message as it is now; null when deleted' })
  message!: LiveBlogMessage | null;
}
