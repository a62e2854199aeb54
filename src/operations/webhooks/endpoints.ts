// Managing webhook endpoints: create, change, delete, rotate the signing secret, list. Each takes a
// WebhookAdmin (admin.ts checks the caller first; the CLI, run by whoever runs the service, builds its own).
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import { badRequest, notFound } from '../../errors.js';
import { newSecret } from '../../events/signing.js';
import { TargetRefused, targetGuard } from '../../events/target-guard.js';
import type { Store } from '../../store/store.js';
import type { WebhookEndpointDoc } from '../../store/webhooks/webhook.docs.js';
import type { EndpointChanges, NewEndpoint } from './input.js';

export interface WebhookAdmin {
  store: Store;
  config: Config['webhooks'];
  now: Date;
}

/** Rotated-out secrets kept signing at once, at most (older ones stop at the next rotation). */
const PREVIOUS_SECRETS = 2;

const endpoints = (admin: WebhookAdmin) => admin.store.collection('webhookEndpoints');

export const endpointNotFound = (id: string) => notFound('NOT_FOUND', 'Not Found', `No webhook endpoint ${id}`);

/** A URL whose host is a refused address literal is refused now; names are checked again at every connect. */
function checkTarget(admin: WebhookAdmin, url: string): void {
  try {
    targetGuard(admin.config.allowTargets).checkUrl(url);
  } catch (err) {
    if (err instanceof TargetRefused) throw badRequest('The URL is refused', [{ field: 'url', message: err.message }]);
    throw err;
  }
}

export async function createEndpoint(
  admin: WebhookAdmin,
  input: NewEndpoint,
): Promise<{ endpoint: WebhookEndpointDoc; secret: string }> {
  checkTarget(admin, input.url);
  const endpoint: WebhookEndpointDoc = {
    _id: `ep_${randomBytes(12).toString('base64url')}`,
    url: input.url,
    description: input.description ?? '',
    eventTypes: input.eventTypes,
    secret: newSecret(),
    previousSecrets: [],
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: admin.now,
    updatedAt: admin.now,
  };
  await endpoints(admin).insertOne(endpoint);
  return { endpoint, secret: endpoint.secret };
}

export async function updateEndpoint(
  admin: WebhookAdmin,
  id: string,
  changes: EndpointChanges,
): Promise<WebhookEndpointDoc> {
  if (changes.url) checkTarget(admin, changes.url);
  const set: Partial<WebhookEndpointDoc> = { updatedAt: admin.now };
  if (changes.url) set.url = changes.url;
  if (changes.description != null) set.description = changes.description;
  if (changes.eventTypes) set.eventTypes = changes.eventTypes;
  if (changes.enabled === true) Object.assign(set, { enabled: true, disabledReason: null, failingSince: null });
  if (changes.enabled === false) Object.assign(set, { enabled: false, disabledReason: 'disabled by an administrator' });
  const updated = await endpoints(admin).findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: 'after' });
  if (!updated) throw endpointNotFound(id);
  return updated;
}

/** Deletes the endpoint and its delivery log; false when there was none. */
export async function deleteEndpoint(admin: WebhookAdmin, id: string): Promise<boolean> {
  const deleted = await endpoints(admin).deleteOne({ _id: id });
  await admin.store.collection('webhookDeliveries').deleteMany({ endpointId: id });
  return deleted.deletedCount === 1;
}

/**
 * A new secret signs from now on; the old ones keep signing beside it for at most `keepPreviousSeconds` (0: they
 * stop at once, for a secret that leaked).
 */
export async function rotateSecret(
  admin: WebhookAdmin,
  id: string,
  keepPreviousSeconds: number,
): Promise<{ endpoint: WebhookEndpointDoc; secret: string }> {
  const current = await endpoints(admin).findOne({ _id: id });
  if (!current) throw endpointNotFound(id);
  const secret = newSecret();
  // No earlier secret outlives the new window: a rotation with 0 seconds stops every old secret at once.
  const until = new Date(admin.now.getTime() + keepPreviousSeconds * 1000);
  const previous = [{ secret: current.secret, expiresAt: until }, ...current.previousSecrets]
    .map((s) => ({ secret: s.secret, expiresAt: s.expiresAt < until ? s.expiresAt : until }))
    .filter((s) => s.expiresAt > admin.now)
    .slice(0, PREVIOUS_SECRETS);
  // Conditional on the secret read: two rotations at once cannot both keep "the old one".
  const endpoint = await endpoints(admin).findOneAndUpdate(
    { _id: id, secret: current.secret },
    { $set: { secret, previousSecrets: previous, updatedAt: admin.now } },
    { returnDocument: 'after' },
  );
  if (!endpoint) throw badRequest('The secret was rotated meanwhile; try again');
  return { endpoint, secret };
}

export function listEndpoints(admin: WebhookAdmin): Promise<WebhookEndpointDoc[]> {
  return endpoints(admin).find({}).sort({ createdAt: 1, _id: 1 }).toArray();
}
