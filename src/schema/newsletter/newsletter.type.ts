// API shapes of the newsletter mutations.
import { Field, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Outcome of an activation: `error` false when the subscription is (now) active' })
export class ActivationResultType {
  @Field({ description: 'True for a wrong, expired or unknown key or no such subscription (one answer for all)' })
  error!: boolean;

  @Field(() => String, { nullable: true, description: 'Why the activation failed; null when it succeeded' })
  message!: string | null;
}

@ObjectType({ description: 'A subscription request was taken; the same answer whether or not the e-mail was known' })
export class SubscribeResultType {
  @Field({ description: 'Always true: the request was taken' })
  accepted!: boolean;

  @Field({ description: 'What happens next, worded for the person subscribing' })
  message!: string;
}
