// Every index the service relies on, created idempotently at start-up. Domains export their own lists;
// add one line below for a new domain.
import type { IndexDef } from './index-def.js';
import { contentIndexes } from './content/indexes.js';
import { catalogueIndexes } from './catalogue/catalogue.indexes.js';
import { customerIndexes } from './customers/customer.doc.js';
import { oauthIndexes } from './oauth/oauth.docs.js';
import { newsletterIndexes } from './newsletter/subscription.doc.js';
import { trustedDocumentIndexes } from './documents/trusted-document.doc.js';
import { webhookIndexes } from './webhooks/webhook.docs.js';

export type { IndexDef } from './index-def.js';

export const allIndexes: IndexDef[] = [
  ...contentIndexes,
  ...catalogueIndexes,
  ...customerIndexes,
  ...oauthIndexes,
  ...newsletterIndexes,
  ...trustedDocumentIndexes,
  ...webhookIndexes,
];
