// Inputs of the webhook endpoint mutations (checked again in src/operations/webhooks).
import { Field, InputType } from 'type-graphql';

@InputType({ description: 'A new webhook endpoint' })
export class WebhookEndpointInput {
  @Field({ description: 'Where to POST events: an http or https URL of at most 2,048 characters, on a public address' })
  url!: string;

  @Field(() => String, { nullable: true, description: 'What the endpoint is for, at most 500 characters' })
  description?: string | null;

  @Field(() => [String], {
    description: 'Event types to send, 1 to 10 of `article.published`, `article.updated`, ... (docs/api.md)',
  })
  eventTypes!: string[];
}

@InputType({ description: 'Changes to a webhook endpoint; a field left out stays as it is' })
export class WebhookEndpointChanges {
  @Field(() => String, { nullable: true, description: 'A new URL (same rules as when created)' })
  url?: string | null;

  @Field(() => String, { nullable: true, description: 'A new description, at most 500 characters' })
  description?: string | null;

  @Field(() => [String], { nullable: true, description: 'The new set of event types' })
  eventTypes?: string[] | null;

  @Field(() => Boolean, {
    nullable: true,
    description: 'False disables the endpoint; true enables it again and clears its failure record',
  })
  enabled?: boolean | null;
}
