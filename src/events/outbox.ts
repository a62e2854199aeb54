// The outbox's state changes, each one conditional update so that several gateway processes can share it:
// a delivery is claimed for one attempt by the process whose update moves `attempts` from n to n+1 (its lease
// lasts until `leaseUntil`; an expired lease is claimable again), and only the holder of that attempt records
// its outcome. A delivery waits while an earlier one of its entity to its endpoint is still open.
import type { Collection, Filter } from 'mongodb';
import type { Store } from '../store/store.js';
import type { DeliveryAttemptDoc, WebhookDeliveryDoc } from '../store/webhooks/webhook.docs.js';

const LOG_LENGTH = 20;

type Deliveries = Collection<WebhookDeliveryDoc>;

const deliveries = (store: Store): Deliveries => store.collection('webhookDeliveries');

/** Due deliveries (pending and due, or with an expired lease), oldest change first; `except` an endpoint's. */
export function dueDeliveries(store: Store, now: Date, limit: number, except?: string): Promise<WebhookDeliveryDoc[]> {
  return deliveries(store)
    .find({
      $or: [
        { status: 'pending', nextAttemptAt: { $lte: now } },
        { status: 'sending', leaseUntil: { $lte: now } },
      ],
      ...(except === undefined ? {} : { endpointId: { $ne: except } }),
    })
    .sort({ seq: 1 })
    .limit(limit)
    .toArray();
}

/**
 * What a purge batch to `endpointId` may take along: those due (their time has come, or their lease expired)
 * and those never tried yet, due or not (a purge sent early does no harm); not a failed one before its retry
 * time, which would otherwise ride along with every new purge and fail it too.
 */
export function purgesToSend(
  store: Store,
  endpointId: string,
  now: Date,
  limit: number,
): Promise<WebhookDeliveryDoc[]> {
  return deliveries(store)
    .find({
      endpointId,
      $or: [
        { status: 'pending', attempts: 0 },
        { status: 'pending', nextAttemptAt: { $lte: now } },
        { status: 'sending', leaseUntil: { $lte: now } },
      ],
    })
    .sort({ seq: 1 })
    .limit(limit)
    .toArray();
}

/** The earliest time a purge to `endpointId` waiting for its retry is due, if any. */
export async function nextPurgeRetry(store: Store, endpointId: string): Promise<Date | undefined> {
  const next = await deliveries(store)
    .find({ endpointId, status: 'pending' }, { projection: { nextAttemptAt: 1 } })
    .sort({ nextAttemptAt: 1 })
    .limit(1)
    .next();
  return next?.nextAttemptAt;
}

/** True while an earlier delivery of the same entity to the same endpoint is not delivered or given up. */
export async function waitsForEarlier(store: Store, d: WebhookDeliveryDoc): Promise<boolean> {
  const earlier = await deliveries(store).findOne(
    { endpointId: d.endpointId, entity: d.entity, seq: { $lt: d.seq }, status: { $in: ['pending', 'sending'] } },
    { projection: { _id: 1 } },
  );
  return earlier !== null;
}

/** The same delivery in the same state as when it was read: nobody claimed or finished it since. */
const unchanged = (d: WebhookDeliveryDoc): Filter<WebhookDeliveryDoc> => ({
  _id: d._id,
  status: d.status,
  attempts: d.attempts,
  leaseUntil: d.leaseUntil,
});

/** Claims the next attempt of `d` for `owner`; null when another process got there first. */
export function claim(store: Store, d: WebhookDeliveryDoc, owner: string, now: Date, leaseMs: number) {
  return deliveries(store).findOneAndUpdate(
    unchanged(d),
    {
      $set: { status: 'sending', leaseOwner: owner, leaseUntil: new Date(now.getTime() + leaseMs), updatedAt: now },
      $inc: { attempts: 1 },
    },
    { returnDocument: 'after' },
  );
}

/** Gives `d` up without an attempt (its endpoint is disabled or gone). */
export async function giveUpUnsent(store: Store, d: WebhookDeliveryDoc, why: string, now: Date): Promise<void> {
  const attempt: DeliveryAttemptDoc = { at: now, responseStatus: null, durationMs: 0, error: why };
  await deliveries(store).updateOne(unchanged(d), {
    $set: { status: 'failed', leaseOwner: null, leaseUntil: null, lastAttempt: attempt, updatedAt: now },
    $push: { log: { $each: [attempt], $slice: -LOG_LENGTH } },
  });
}

/**
 * Records the outcome of the attempt `claimed` holds: delivered, retried at `retryAt`, or failed when there is
 * no retry. False when the lease was lost meanwhile (another process took the delivery over).
 */
export async function recordAttempt(
  store: Store,
  claimed: WebhookDeliveryDoc,
  owner: string,
  attempt: DeliveryAttemptDoc,
  retryAt: Date | null,
): Promise<boolean> {
  const ok = attempt.error === null;
  const next = ok
    ? { status: 'delivered' as const }
    : retryAt
      ? { status: 'pending' as const, nextAttemptAt: retryAt }
      : { status: 'failed' as const };
  const result = await deliveries(store).updateOne(
    { _id: claimed._id, attempts: claimed.attempts, leaseOwner: owner, status: 'sending' },
    {
      $set: { ...next, leaseOwner: null, leaseUntil: null, lastAttempt: attempt, updatedAt: new Date() },
      $push: { log: { $each: [attempt], $slice: -LOG_LENGTH } },
    },
  );
  return result.modifiedCount === 1;
}

/** Removes delivered and failed deliveries last changed before `before` (the log keeps them until then). */
export async function removeFinished(store: Store, before: Date): Promise<number> {
  const removed = await deliveries(store).deleteMany({
    status: { $in: ['delivered', 'failed'] },
    updatedAt: { $lt: before },
  });
  return removed.deletedCount;
}
