// Quiz with its questions, answers and results, all embedded in the quiz.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { QuizStatus } from './enums.js';
import { Node } from '../types/node.type.js';

@ObjectType()
export class QuizAnswer {
  @Field(() => ID)
  id!: string;

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

@ObjectType()
export class QuizQuestion {
  @Field(() => ID)
  id!: string;

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
  @Field(() => ID)
  id!: string;

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
