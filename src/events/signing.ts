// Standard Webhooks signatures: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under a `whsec_` secret,
// computed by the specification's own library. While a rotated-out secret is still valid both sign, and the
// header carries both signatures separated by a space: a receiver holding either secret accepts the message.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookEndpointDoc } from '../store/webhooks/webhook.docs.js';

export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The secrets that sign now: the current one first, then rotated-out ones not yet expired. */
export const signingSecrets = (
  endpoint: Pick<WebhookEndpointDoc, 'secret' | 'previousSecrets'>,
  now: Date,
): string[] => [endpoint.secret, ...endpoint.previousSecrets.filter((s) => s.expiresAt > now).map((s) => s.secret)];

/** The three Standard Webhooks headers for one attempt of a message. */
export function signedHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  };
}
