// Stored shape of webhook endpoints (collection `webhookEndpoints`) and of the outbox of their deliveries
// (collection `webhookDeliveries`: one document per event and endpoint, kept as the endpoint's delivery log).
import type { IndexDef } from '../index-def.js';

interface WebhookSecretDoc {
  /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
  secret: string;
  /** A rotated-out secret still signs until then. */
  expiresAt: Date;
}

export interface WebhookEndpointDoc {
  _id: string;
  url: string;
  description: string;
  /** Event types the endpoint receives. */
  eventTypes: string[];
  secret: string;
  /** Secrets replaced by a rotation that still sign beside `secret` until they expire. */
  previousSecrets: WebhookSecretDoc[];
  enabled: boolean;
  /** Why the endpoint was disabled (by an administrator, or after failing for too long); null while enabled. */
  disabledReason: string | null;
  /** First failure since the last success; null while deliveries succeed. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed';

export interface DeliveryAttemptDoc {
  at: Date;
  /** HTTP status of the answer; null when none came (refused target, timeout, connection error). */
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
}

export interface WebhookDeliveryDoc {
  /** `<event id>.<endpoint id>`: the same event is queued once per endpoint however many gateways saw it. */
  _id: string;
  /** The `webhook-id` header: one per event, the same on every attempt and for every endpoint. */
  eventId: string;
  endpointId: string;
  type: string;
  /** Deliveries of one entity to one endpoint go out in `seq` order. */
  entity: string;
  /** Position of the change in the store's change stream: sortable, the same in every gateway. */
  seq: string;
  /** The JSON body, byte for byte what is signed and sent. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  /** The gateway process holding the current attempt, and until when its claim holds. */
  leaseOwner: string | null;
  leaseUntil: Date | null;
  /** Retries stop once this is past (a day after the first attempt, or after a redelivery). */
  giveUpAt: Date;
  lastAttempt: DeliveryAttemptDoc | null;
  /** The latest attempts, newest last (at most 20). */
  log: DeliveryAttemptDoc[];
  createdAt: Date;
  updatedAt: Date;
}

declare module '../collections.js' {
  interface CollectionTypes {
    webhookEndpoints: WebhookEndpointDoc;
    webhookDeliveries: WebhookDeliveryDoc;
  }
}

export const webhookIndexes: IndexDef[] = [
  {
    collection: 'webhookDeliveries',
    key: { status: 1, nextAttemptAt: 1 },
    options: { name: 'webhook_deliveries_due' },
  },
  {
    collection: 'webhookDeliveries',
    key: { endpointId: 1, entity: 1, seq: 1 },
    options: { name: 'webhook_deliveries_entity_order' },
  },
  {
    collection: 'webhookDeliveries',
    key: { endpointId: 1, createdAt: -1 },
    options: { name: 'webhook_deliveries_log' },
  },
  {
    collection: 'webhookDeliveries',
    key: { status: 1, updatedAt: 1 },
    options: { name: 'webhook_deliveries_finished' },
  },
];
