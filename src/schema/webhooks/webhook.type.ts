// API shapes of webhook endpoints and their delivery log (administrators only).
import { Field, ID, Int, ObjectType, registerEnumType } from 'type-graphql';

export enum WebhookDeliveryStatus {
  PENDING = 'pending',
  SENDING = 'sending',
  DELIVERED = 'delivered',
  FAILED = 'failed',
}
registerEnumType(WebhookDeliveryStatus, {
  name: 'WebhookDeliveryStatus',
  description: 'Where a delivery stands',
  valuesConfig: {
    PENDING: { description: 'Waiting for its first attempt or its next retry' },
    SENDING: { description: 'An attempt is under way' },
    DELIVERED: { description: 'The endpoint answered 2xx' },
    FAILED: { description: 'Given up: retried for the whole retry window, or its endpoint is disabled or gone' },
  },
});

@ObjectType({ description: 'A place events are sent to, signed per the Standard Webhooks specification' })
export class WebhookEndpoint {
  @Field(() => ID, { description: 'Id of the endpoint' })
  id!: string;

  @Field({ description: 'Where events are POSTed (http or https)' })
  url!: string;

  @Field({ description: 'What the endpoint is for, as its administrator wrote it' })
  description!: string;

  @Field(() => [String], { description: 'The event types sent to it (`article.published`, `cache.purge`, ...)' })
  eventTypes!: string[];

  @Field({ description: 'False when disabled by an administrator or after failing for too long' })
  enabled!: boolean;

  @Field(() => String, { nullable: true, description: 'Why the endpoint is disabled; null while enabled' })
  disabledReason!: string | null;

  @Field(() => Date, { nullable: true, description: 'First failed attempt since the last success; null if none' })
  failingSince!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'While a rotated-out secret still signs beside the new one: until when; null otherwise',
  })
  previousSecretExpiresAt!: Date | null;

  @Field({ description: 'When the endpoint was created' })
  createdAt!: Date;

  @Field({ description: 'When the endpoint was last changed' })
  updatedAt!: Date;
}

@ObjectType({ description: 'An endpoint with its signing secret: shown only when the secret is created' })
export class WebhookEndpointSecret {
  @Field(() => WebhookEndpoint, { description: 'The endpoint' })
  endpoint!: WebhookEndpoint;

  @Field({ description: 'The signing secret (`whsec_` and base64): keep it, it is not shown again' })
  secret!: string;
}

@ObjectType({ description: 'One attempt to deliver an event' })
export class WebhookDeliveryAttempt {
  @Field({ description: 'When the attempt started' })
  at!: Date;

  @Field(() => Int, { nullable: true, description: 'HTTP status of the answer; null when none came' })
  responseStatus!: number | null;

  @Field(() => Int, { description: 'How long the attempt took, in milliseconds' })
  durationMs!: number;

  @Field(() => String, { nullable: true, description: 'Why the attempt failed; null when it succeeded' })
  error!: string | null;
}

@ObjectType({ description: 'One event sent (or to be sent) to one endpoint' })
export class WebhookDelivery {
  @Field(() => ID, { description: 'Id of the delivery (for redeliverWebhook)' })
  id!: string;

  @Field({ description: 'The `webhook-id` header: the same on every attempt and for every endpoint' })
  eventId!: string;

  @Field(() => ID, { description: 'Id of the endpoint' })
  endpointId!: string;

  @Field({ description: 'The event type' })
  type!: string;

  @Field({ description: 'The entity the event is about (`article:<id>`): its events are delivered in order' })
  entity!: string;

  @Field({ description: 'The JSON body sent, as signed' })
  payload!: string;

  @Field(() => WebhookDeliveryStatus, { description: 'Where the delivery stands' })
  status!: WebhookDeliveryStatus;

  @Field(() => Int, { description: 'Attempts made so far' })
  attempts!: number;

  @Field(() => Date, { nullable: true, description: 'When the next attempt is due; null once delivered or failed' })
  nextAttemptAt!: Date | null;

  @Field(() => WebhookDeliveryAttempt, { nullable: true, description: 'The latest attempt; null before the first' })
  lastAttempt!: WebhookDeliveryAttempt | null;

  @Field(() => [WebhookDeliveryAttempt], { description: 'The latest attempts (at most 20), oldest first' })
  log!: WebhookDeliveryAttempt[];

  @Field({ description: 'When the event was queued' })
  createdAt!: Date;
}
