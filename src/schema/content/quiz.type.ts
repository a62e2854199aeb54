// Quiz (interface §2.15) with its questions, answers and results, all embedded in the quiz.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { QuizStatus } from './enums.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'One answer a quiz question offers' })
export class QuizAnswer {
  @Field(() => ID, { description: 'Unique across the whole graph: `QuizAnswer:<quiz id>:<question key>:<key>`; `submitQuizAnswers` takes it (or the key)' })
  id!: string;

  @Field({ description: 'The answer\'s key, unique only within its question (e.g. `answer-1-2`)' })
  key!: string;

  @Field({ description: 'Answer text' })
  text!: string;

  @Field()
  letter!: string;

  @Field(() => String, { nullable: true })
  image!: string | null;

  @Field()
  correct!: boolean;

  @Field(() => Int)
  points!: number;

  @Field(() => Int)
  votes!: number;
}

@ObjectType({ description: 'One question of a quiz' })
export class QuizQuestion {
  @Field(() => ID, { description: 'Unique across the whole graph: `QuizQuestion:<quiz id>:<key>`; `submitQuizAnswers` takes it (or the key)' })
  id!: string;

  @Field({ description: 'The question\'s key, unique only within its quiz (e.g. `question-1`)' })
  key!: string;

  @Field()
  title!: string;

  @Field(() => String, { nullable: true })
  resultText!: string | null;

  @Field(() => String, { nullable: true })
  image!: string | null;

  @Field(() => [QuizAnswer])
  choices!: QuizAnswer[];
}

@ObjectType({ description: 'An outcome of the quiz, reached with a score between minimum and maximum' })
export class QuizResult {
  @Field(() => ID, { description: 'Unique across the whole graph: `QuizResult:<quiz id>:<key>`' })
  id!: string;

  @Field({ description: 'The result\'s key, unique only within its quiz (e.g. `result-1`)' })
  key!: string;

  @Field()
  result!: string;

  @Field(() => String, { nullable: true })
  image!: string | null;

  @Field(() => String, { nullable: true })
  letter!: string | null;

  @Field(() => String, { nullable: true })
  resultText!: string | null;

  @Field(() => String, { nullable: true })
  share!: string | null;

  @Field(() => String, { nullable: true })
  twitterShare!: string | null;

  @Field(() => Int)
  minimum!: number;

  @Field(() => Int)
  maximum!: number;

  @Field(() => Int)
  votes!: number;
}

@ObjectType({ implements: Node })
export class Quiz {
  @Field(() => ID)
  id!: string;

  @Field()
  name!: string;

  @Field()
  timestamp!: Date;

  @Field(() => String, { nullable: true })
  image!: string | null;

  @Field(() => String, { nullable: true })
  coverPicture!: string | null;

  @Field(() => String, { nullable: true })
  description!: string | null;

  @Field(() => String, { nullable: true })
  share!: string | null;

  @Field(() => String, { nullable: true })
  template!: string | null;

  @Field()
  allowForm!: boolean;

  @Field(() => String, { nullable: true })
  introductionMessage!: string | null;

  @Field(() => String, { nullable: true })
  thankyouMessage!: string | null;

  @Field(() => String, { nullable: true })
  terms!: string | null;

  @Field(() => QuizStatus)
  status!: QuizStatus;

  @Field(() => [QuizQuestion])
  questions!: QuizQuestion[];

  @Field(() => [QuizResult])
  results!: QuizResult[];
}
