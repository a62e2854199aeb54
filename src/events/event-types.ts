// Every event type a webhook endpoint can ask for, with what it means (the API's enum and docs/api.md).

const EVENT_TYPES = {
  'article.published': 'An article became public (created published, or its status changed to published)',
  'article.updated': 'A public article changed (counters such as views and ratings excepted)',
  'article.unpublished': 'A public article stopped being public (status changed, or deleted)',
  'issue.published': 'An issue became public',
  'issue.updated': 'A public issue changed',
  'issue.unpublished': 'A public issue stopped being public (status changed, or deleted)',
  'product.changed': 'A product was created, changed or deleted',
  'productItem.changed': 'A product item was created, deleted, or its price, stock or availability changed',
  'newsletter.subscription.activated': 'A newsletter subscription was activated',
  'cache.purge': 'Something cached changed: the surrogate keys to purge',
} as const;

export type EventType = keyof typeof EVENT_TYPES;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];
