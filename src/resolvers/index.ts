// Every resolver class of the schema; add one line for a new one.
import type { NonEmptyArray } from 'type-graphql';
import { ServiceResolver } from './service.resolver.js';
import { contentResolvers } from './content/index.js';
import { catalogueResolvers } from './catalogue/index.js';
import { NewsletterResolver } from './newsletter/newsletter.resolver.js';
import { NodeResolver } from './node.resolver.js';
import { WebhookResolver } from './webhooks/webhook.resolver.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const resolvers: NonEmptyArray<Function> = [
  ServiceResolver,
  ...contentResolvers,
  ...catalogueResolvers,
  NewsletterResolver,
  NodeResolver,
  WebhookResolver,
];
