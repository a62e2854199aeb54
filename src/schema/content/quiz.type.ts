// Quiz with its questions, answers and results, all embedded in the quiz.
import { Field, ID, Int, ObjectType } from 'type-graphql';
import { QuizStatus } from './enums.js';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'One answer a quiz question offers' })
export class QuizAnswer {
  @Field(() => ID, {
    description:
      'Unique across the whole graph: `QuizAnswer:<quiz id>:<question key>:<key>`; `submitQuizAnswers` takes it (or the key)',
  })
  id!: string;

  @Field({ description: "The answer's key, unique only within its question (e.g. `answer-1-2`)" })
  key!: string;

  @Field({ description: 'Answer text' })
  text!: string;

  @Field({ description: 'The letter the answer is shown under (A, B, …)' })
  letter!: string;

  @Field(() => String, {
    nullable: true,
    description: 'URL of an image shown with the answer; null when there is none',
  })
  image!: string | null;

  @Field({ description: 'Whether this is a correct answer to its question' })
  correct!: boolean;

  @Field(() => Int, { description: 'Points the answer adds to the score' })
  points!: number;

  @Field(() => Int, { description: 'How many submissions chose this answer' })
  votes!: number;
}

@ObjectType({ description: 'One question of a quiz' })
export class QuizQuestion {
  @Field(() => ID, {
    description:
      'Unique across the whole graph: `QuizQuestion:<quiz id>:<key>`; `submitQuizAnswers` takes it (or the key)',
  })
  id!: string;

  @Field({ description: "The question's key, unique only within its quiz (e.g. `question-1`)" })
  key!: string;

  @Field({ description: 'The question asked' })
  title!: string;

  @Field(() => String, {
    nullable: true,
    description: 'Text shown once the question is answered; null when there is none',
  })
  resultText!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'URL of an image shown with the question; null when there is none',
  })
  image!: string | null;

  @Field(() => [QuizAnswer], { description: 'The answers offered, in display order' })
  choices!: QuizAnswer[];
}

@ObjectType({ description: 'An outcome of the quiz, reached with a score between minimum and maximum' })
export class QuizResult {
  @Field(() => ID, { description: 'Unique across the whole graph: `QuizResult:<quiz id>:<key>`' })
  id!: string;

  @Field({ description: "The result's key, unique only within its quiz (e.g. `result-1`)" })
  key!: string;

  @Field({ description: 'Name of the outcome (e.g. "Expert")' })
  result!: string;

  @Field(() => String, {
    nullable: true,
    description: 'URL of an image shown with the outcome; null when there is none',
  })
  image!: string | null;

  @Field(() => String, { nullable: true, description: 'Letter the outcome is shown under; null when it has none' })
  letter!: string | null;

  @Field(() => String, { nullable: true, description: 'Text shown with the outcome; null when there is none' })
  resultText!: string | null;

  @Field(() => String, { nullable: true, description: 'Text offered for sharing the outcome; null when there is none' })
  share!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Text offered for sharing the outcome on a microblog; null when there is none',
  })
  twitterShare!: string | null;

  @Field(() => Int, { description: 'Lowest score (inclusive) that reaches this outcome' })
  minimum!: number;

  @Field(() => Int, { description: 'Highest score (inclusive) that reaches this outcome' })
  maximum!: number;

  @Field(() => Int, { description: 'How many submissions reached this outcome' })
  votes!: number;
}

@ObjectType({
  implements: Node,
  description: 'A quiz: questions with scored answers, and outcomes by score; drafts are never shown',
})
export class Quiz {
  @Field(() => ID, { description: 'The stored id of the quiz; `node(id:)` fetches it again' })
  id!: string;

  @Field({ description: 'Name of the quiz' })
  name!: string;

  @Field({ description: 'When the quiz was created' })
  timestamp!: Date;

  @Field(() => String, { nullable: true, description: 'URL of the quiz image; null when there is none' })
  image!: string | null;

  @Field(() => String, { nullable: true, description: 'URL of the cover picture; null when there is none' })
  coverPicture!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Description shown before the quiz starts; null when there is none',
  })
  description!: string | null;

  @Field(() => String, { nullable: true, description: 'Text offered for sharing the quiz; null when there is none' })
  share!: string | null;

  @Field(() => String, { nullable: true, description: 'Name of the display template; null for the default' })
  template!: string | null;

  @Field({ description: 'Whether a contact form is shown with the quiz' })
  allowForm!: boolean;

  @Field(() => String, {
    nullable: true,
    description: 'Message shown before the first question; null when there is none',
  })
  introductionMessage!: string | null;

  @Field(() => String, { nullable: true, description: 'Message shown after a submission; null when there is none' })
  thankyouMessage!: string | null;

  @Field(() => String, { nullable: true, description: 'Terms of taking part; null when there are none' })
  terms!: string | null;

  @Field(() => QuizStatus, { description: 'OPEN takes submissions; CLOSED shows the quiz and its counts only' })
  status!: QuizStatus;

  @Field(() => [QuizQuestion], { description: 'The questions, in display order' })
  questions!: QuizQuestion[];

  @Field(() => [QuizResult], { description: 'The outcomes, each reached by a range of scores' })
  results!: QuizResult[];
}
