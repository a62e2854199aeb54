// Poll. `voted` and `votedChoice` are per viewer, resolved by PollResolver.
import { Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { Node } from '../types/node.type.js';

@ObjectType()
export class PollChoice {
  @Field(() => ID)
  id!: string;

  @Field()
  text!: string;

  @Field(() => Int)
  votes!: number;
}

@ObjectType({ description: 'Result of one choice' })
export class PollResult {
  @Field(() => ID)
  choiceId!: string;

  @Field(() => Int, { description: 'Number of votes' })
  votes!: number;

  @Field(() => Float, { description: 'Percentage of total votes, 0 to 100, two decimals' })
  percentage!: number;
}

@ObjectType()
export class PollCategory {
  @Field(() => ID)
  id!: string;

  @Field()
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

  /** Set by voteInPoll: the choice just voted for, so an anonymous voter's answer also says voted. */
  viewerChoiceId?: string;
}
