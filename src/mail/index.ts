// Chooses the mailer from configuration: SMTP when SMTP_URL is set, otherwise the outbox.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/store.js';
import type { Mailer } from './mailer.js';
import { OutboxMailer } from './outbox.mailer.js';
import { SmtpMailer } from './smtp.mailer.js';

export type { Mailer } from './mailer.js';

export function createMailer(deps: { config: Config; store: Store; log: Logger }): Mailer {
  const { config, store, log } = deps;
  if (config.mail.smtpUrl) return new SmtpMailer(config.mail.smtpUrl, config.mail.from);
  if (config.isProduction) {
    log.warn('SMTP_URL is not set: mail is kept in the outbox collection and never delivered');
  }
  return new OutboxMailer(store, log.child({ component: 'mail' }), {
    from: config.mail.from,
    logBodies: !config.isProduction,
  });
}
