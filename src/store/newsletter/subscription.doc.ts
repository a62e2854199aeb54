// Stored shape of newsletter subscriptions (collection `newsletterSubscriptions`) and their indexes.
import type { IndexDef } from '../index-def.js';
import type { RateLimitDoc } from '../rate-limit.doc.js';

type SubscriptionStatus = 'pending' | 'active' | 'unsubscribed';

interface NewsletterSubscriptionDoc {
  _id: string;
  channelId: string;
  /** Trimmed and lower-cased. */
  email: string;
  /** SHA-256 (hex) of the activation key; the key itself is only ever in the mail. */
  keyHash: string;
  status: SubscriptionStatus;
  createdAt: Date;
  /** When the current key stops activating a pending subscription. */
  expiresAt: Date;
  activatedAt: Date | null;
  updatedAt: Date;
}

declare module '../collections.js' {
  interface CollectionTypes {
    newsletterSubscriptions: NewsletterSubscriptionDoc;
    newsletter_limits: RateLimitDoc;
  }
}

export const newsletterIndexes: IndexDef[] = [
  {
    collection: 'newsletterSubscriptions',
    key: { channelId: 1, email: 1 },
    options: { name: 'newsletter_channel_email', unique: true },
  },
  { collection: 'newsletter_limits', key: { key: 1 }, options: { name: 'newsletter_limits_key', unique: true } },
  {
    collection: 'newsletter_limits',
    key: { expire: -1 },
    options: { name: 'newsletter_limits_ttl', expireAfterSeconds: 0 },
  },
];
