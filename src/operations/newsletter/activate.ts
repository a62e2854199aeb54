// Activates a newsletter subscription with the key from its mail (docs/api.md). Every wrong answer
// (wrong, expired or unknown key, no such subscription) is the same, so nobody learns who subscribed.
import type { Context } from '../../context.js';
import { requireChannel } from './channel.js';
import { keyMatches } from './keys.js';
import { spendAttempt } from './limits.js';

export type ActivationResult = { error: false } | { error: true; message: string };

const INVALID_ACTIVATION: ActivationResult = Object.freeze({
  error: true,
  message: 'Invalid or expired activation key',
});
const ACTIVATED: ActivationResult = Object.freeze({ error: false });

/** `email` is already normalised and `channelId` validated (see input.ts). */
export async function activateSubscription(
  ctx: Context,
  input: { channelId: string; email: string; key: string },
): Promise<ActivationResult> {
  await requireChannel(ctx, input.channelId);
  await spendAttempt(ctx.store, 'activate', input.channelId, input.email);

  const subscriptions = ctx.store.collection('newsletterSubscriptions');
  const sub = await subscriptions.findOne(
    { channelId: input.channelId, email: input.email },
    { projection: { keyHash: 1, status: 1, expiresAt: 1 } },
  );
  if (!keyMatches(input.key, sub?.keyHash) || !sub) return INVALID_ACTIVATION;
  if (sub.status === 'active') return ACTIVATED;
  if (sub.status !== 'pending' || sub.expiresAt <= ctx.now) return INVALID_ACTIVATION;

  // Conditional on the state just read: a concurrent re-subscribe (new key) or unsubscribe wins.
  const updated = await subscriptions.updateOne(
    { _id: sub._id, status: 'pending', keyHash: sub.keyHash, expiresAt: { $gt: ctx.now } },
    { $set: { status: 'active', activatedAt: ctx.now, updatedAt: ctx.now } },
  );
  if (updated.matchedCount === 1) {
    ctx.log.info({ channelId: input.channelId, subscriptionId: sub._id }, 'newsletter subscription activated');
    return ACTIVATED;
  }
  const now = await subscriptions.findOne({ _id: sub._id }, { projection: { keyHash: 1, status: 1 } });
  return now?.status === 'active' && now.keyHash === sub.keyHash ? ACTIVATED : INVALID_ACTIVATION;
}
