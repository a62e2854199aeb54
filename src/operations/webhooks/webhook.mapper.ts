// Stored webhook endpoints and deliveries to their API shapes (the secrets never leave through here).
import {
  WebhookDeliveryStatus,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../schema/webhooks/webhook.type.js';
import type { WebhookDeliveryDoc, WebhookEndpointDoc } from '../../store/webhooks/webhook.docs.js';

const STATUS: Record<WebhookDeliveryDoc['status'], WebhookDeliveryStatus> = {
  pending: WebhookDeliveryStatus.PENDING,
  sending: WebhookDeliveryStatus.SENDING,
  delivered: WebhookDeliveryStatus.DELIVERED,
  failed: WebhookDeliveryStatus.FAILED,
};

export function toWebhookEndpoint(doc: WebhookEndpointDoc, now = new Date()): WebhookEndpoint {
  const previous = doc.previousSecrets.filter((s) => s.expiresAt > now).map((s) => s.expiresAt.getTime());
  return {
    id: doc._id,
    url: doc.url,
    description: doc.description,
    eventTypes: doc.eventTypes,
    enabled: doc.enabled,
    disabledReason: doc.disabledReason,
    failingSince: doc.failingSince,
    previousSecretExpiresAt: previous.length ? new Date(Math.max(...previous)) : null,
    createdAt: doc.createdAt,
    updatedAt: doc.updatedAt,
  };
}

export function toWebhookDelivery(doc: WebhookDeliveryDoc): WebhookDelivery {
  const open = doc.status === 'pending' || doc.status === 'sending';
  return {
    id: doc._id,
    eventId: doc.eventId,
    endpointId: doc.endpointId,
    type: doc.type,
    entity: doc.entity,
    payload: doc.body,
    status: STATUS[doc.status],
    attempts: doc.attempts,
    nextAttemptAt: open ? (doc.status === 'sending' ? doc.leaseUntil : doc.nextAttemptAt) : null,
    lastAttempt: doc.lastAttempt,
    log: doc.log,
    createdAt: doc.createdAt,
  };
}
