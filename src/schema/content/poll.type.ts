// Poll. `voted` and `votedChoice` are per viewer, resolved by PollResolver.
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'One answer a poll offers' })
export class PollChoice {
  @Field(() => ID, {
    description: 'Unique across the whole graph: `PollChoice:<poll id>:<key>`; `voteInPoll` takes it (or the key)',
  })
  id!: string;

  @Field({ description: "The choice's key, unique only within its poll (e.g. `choice-1`)" })
  key!: string;

  @Field({ description: 'The text shown for the choice' })
  text!: string;

  @Field(() => Int, { description: 'Votes this choice has received so far' })
  votes!: number;
}

@ObjectType({ description: 'Result of one choice' })
export class PollResult {
  @Field(() => ID, { description: 'The `id` of the choice this result is for (`PollChoice:<poll id>:<key>`)' })
  choiceId!: string;

  @Field({ description: 'The key of the choice this result is for, unique only within the poll' })
  choiceKey!: string;

  @Field(() => Int, { description: 'Number of votes' })
  votes!: number;

  @Field(() => Float, { description: 'Percentage of total votes, 0 to 100, two decimals' })
  percentage!: number;
}

@ObjectType({ description: 'The category a poll is filed under, as recorded with the poll' })
export class PollCategory {
  @Field(() => ID, { description: "The poll category's own id, the same in every poll filed under it" })
  id!: string;

  @Field({ description: 'Name of the category' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'URL of the category image; null when it has none' })
  image!: string | null;
}

@ObjectType({ implements: Node, description: 'A poll readers vote in; `voteInPoll` counts a vote' })
export class Poll {
  @Field(() => ID, { description: 'The stored id of the poll; `node(id:)` fetches it again' })
  id!: string;

  @Field({ description: 'When the poll was created' })
  timestamp!: Date;

  @Field({ description: 'The question put to the readers' })
  question!: string;

  @Field(() => [PollChoice], { description: 'The answers offered, in display order' })
  choices!: PollChoice[];

  @Field(() => Int, { description: "Total votes: the sum of the choices' votes" })
  votes!: number;

  @Field({ description: 'URL slug of the poll' })
  slug!: string;

  @Field(() => PollCategory, {
    nullable: true,
    description: 'The category the poll is filed under; null when it has none',
  })
  category!: PollCategory | null;

  @Field(() => [PollResult], { description: 'One result per choice, in the order of `choices`' })
  results!: PollResult[];

  @Field(() => String, {
    nullable: true,
    description: 'Message shown to a reader after voting; null when there is none',
  })
  message!: string | null;

  @Field({ description: 'Only signed-in customers may vote' })
  onlyLoggedIn!: boolean;

  @Field(() => Date, { nullable: true, description: 'When voting ends; null when the poll has no end date' })
  endDate!: Date | null;

  @Field({ description: 'Closed by an editor; votes are refused once closed or past `endDate`' })
  closed!: boolean;

  /** Set by voteInPoll: the key of the choice just voted for, so an anonymous voter's answer also says voted. */
  viewerChoiceKey?: string;
}
