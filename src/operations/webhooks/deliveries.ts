// An endpoint's delivery log, and sending a delivered or failed event again.
import { badRequest, notFound } from '../../errors.js';
import type { WebhookDeliveryDoc } from '../../store/webhooks/webhook.docs.js';
import { endpointNotFound, type WebhookAdmin } from './endpoints.js';

export async function listDeliveries(
  admin: WebhookAdmin,
  query: { endpointId: string; status?: WebhookDeliveryDoc['status'] | null; first: number },
): Promise<WebhookDeliveryDoc[]> {
  const endpoint = await admin.store.collection('webhookEndpoints').findOne({ _id: query.endpointId });
  if (!endpoint) throw endpointNotFound(query.endpointId);
  return admin.store
    .collection('webhookDeliveries')
    .find({ endpointId: query.endpointId, ...(query.status ? { status: query.status } : {}) })
    .sort({ createdAt: -1, seq: -1 })
    .limit(query.first)
    .toArray();
}

/**
 * Queues a delivered or failed delivery again, due now, with a fresh retry window; its `webhook-id` stays the
 * same so that a receiver can tell a repeat. Refused while it is still queued or its endpoint is disabled.
 */
export async function redeliver(admin: WebhookAdmin, id: string): Promise<WebhookDeliveryDoc> {
  const deliveries = admin.store.collection('webhookDeliveries');
  const delivery = await deliveries.findOne({ _id: id });
  if (!delivery) throw notFound('NOT_FOUND', 'Not Found', `No webhook delivery ${id}`);
  const endpoint = await admin.store.collection('webhookEndpoints').findOne({ _id: delivery.endpointId });
  if (!endpoint) throw endpointNotFound(delivery.endpointId);
  if (!endpoint.enabled) throw badRequest('The endpoint is disabled: enable it first');
  const queued = await deliveries.findOneAndUpdate(
    { _id: id, status: { $in: ['delivered', 'failed'] } },
    {
      $set: {
        status: 'pending',
        nextAttemptAt: admin.now,
        giveUpAt: new Date(admin.now.getTime() + admin.config.retryForMs),
        updatedAt: admin.now,
      },
    },
    { returnDocument: 'after' },
  );
  if (!queued) throw badRequest('The delivery is still queued: it will be attempted without being asked');
  return queued;
}
