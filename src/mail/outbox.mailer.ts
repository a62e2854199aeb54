// Development mailer: each message becomes a document in `outbox` (so tests and developers can read it)
// and, when allowed, a log line with its text. Nothing leaves the machine.
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';
import type { MailMessage, Mailer } from './mailer.js';

export interface OutboxDoc {
  _id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  createdAt: Date;
}

declare module '../store/collections.js' {
  interface CollectionTypes {
    outbox: OutboxDoc;
  }
}

export class OutboxMailer implements Mailer {
  constructor(
    private readonly store: Store,
    private readonly log: Logger,
    private readonly opts: { from: string; logBodies: boolean },
  ) {}

  async send(message: MailMessage): Promise<void> {
    const doc: OutboxDoc = {
      _id: randomUUID(),
      from: this.opts.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      createdAt: new Date(),
    };
    await this.store.collection('outbox').insertOne(doc);
    // The text carries one-time codes and keys: only ever logged in development (see createMailer).
    if (this.opts.logBodies)
      this.log.info({ outboxId: doc._id }, `outbox: mail to ${doc.to}: ${doc.subject}\n${doc.text}`);
    else this.log.info({ outboxId: doc._id }, 'outbox: mail stored');
  }
}

/** The newest messages of the outbox, newest first, optionally only those to one address. */
export function latestOutboxMessages(store: Store, opts: { to?: string; limit: number }): Promise<OutboxDoc[]> {
  return store
    .collection('outbox')
    .find(opts.to ? { to: opts.to } : {}, { sort: { createdAt: -1 }, limit: opts.limit })
    .toArray();
}
