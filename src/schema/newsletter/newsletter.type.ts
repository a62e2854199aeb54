// API shapes of the newsletter mutations.
import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Outcome of an activation: `error` false when the subscription is (now) active' })
export class ActivationResultType {
  @Field({ description: 'True for a wrong, expired or unknown key or no such subscription (one answer for all)' })
  error!: boolean;

  @Field(() => String, { nullable: true })
  message!: string | null;
}

@ObjectType({ description: 'A subscription request was taken; the same answer whether or not the e-mail was known' })
export class SubscribeResultType {
  @Field()
  accepted!: boolean;

  @Field()
  message!: string;
}
