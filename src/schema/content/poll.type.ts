// Poll (interface §2.14). `voted` and `votedChoice` are per viewer, resolved by PollResolver.
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Node } from '../types/node.type.js';

@ObjectType({ description: 'One answer a poll offers' })
export class PollChoice {
  @Field(() => ID, { description: 'Unique across the whole graph: `PollChoice:<poll id>:<key>`; `voteInPoll` takes it (or the key)' })
  id!: string;

  @Field({ description: 'The choice\'s key, unique only within its poll (e.g. `choice-1`)' })
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
  @Field(() => ID, { description: 'The poll category\'s own id, the same in every poll filed under it' })
  id!: string;

  @Field({ description: 'Name of the category' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'Image URL' })
  image!: string | null;
}

@ObjectType({ implements: Node })
export class Poll {
  @Field(() => ID)
  id!: string;

  @Field()
  timestamp!: Date;

  @Field()
  question!: string;

  @Field(() => [PollChoice])
  choices!: PollChoice[];

  @Field(() => Int, { description: 'Total votes' })
  votes!: number;

  @Field()
  slug!: string;

  @Field(() => PollCategory, { nullable: true })
  category!: PollCategory | null;

  @Field(() => [PollResult])
  results!: PollResult[];

  @Field(() => String, { nullable: true })
  message!: string | null;

  @Field({ description: 'Only signed-in customers may vote' })
  onlyLoggedIn!: boolean;

  @Field(() => Date, { nullable: true })
  endDate!: Date | null;

  @Field()
  closed!: boolean;

  /** Set by voteInPoll: the key of the choice just voted for, so an anonymous voter's answer also says voted. */
  viewerChoiceKey?: string;
}
