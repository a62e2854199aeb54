// Starts (or restarts) a newsletter subscription: a pending record with a fresh key, and a mail carrying
// the activation link. The answer is the same whether or not the e-mail was known.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { isDuplicateKey } from '../../store/errors.js';
import { requireChannel } from './channel.js';
import { hashKey, newActivationKey } from './keys.js';
import { spendAttempt } from './limits.js';

const ACTIVATION_KEY_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** The link in the mail: the site's activation page, which posts e-mail and key to the activation endpoint. */
function activationLink(ctx: Context, channelId: string, email: string, key: string): string {
  const url = new URL(ctx.config.newsletter.activationUrl.replace('{channelId}', encodeURIComponent(channelId)));
  url.searchParams.set('channel', channelId);
  url.searchParams.set('email', email);
  url.searchParams.set('key', key);
  return url.toString();
}

export async function subscribeToNewsletter(ctx: Context, input: { channelId: string; email: string }): Promise<void> {
  await requireChannel(ctx, input.channelId);
  await spendAttempt(ctx.store, 'subscribe', input.channelId, input.email);

  const key = newActivationKey();
  const now = ctx.now;
  const subscriptions = ctx.store.collection('newsletterSubscriptions');
  const existing = await subscriptions.findOne(
    { channelId: input.channelId, email: input.email },
    { projection: { status: 1 } },
  );
  // An active subscription stays active: re-subscribing must not let anyone reset someone else's.
  if (existing?.status === 'active') return;

  const fields = {
    keyHash: hashKey(key),
    status: 'pending' as const,
    expiresAt: new Date(now.getTime() + ACTIVATION_KEY_TTL_MS),
    activatedAt: null,
    updatedAt: now,
  };
  try {
    await subscriptions.updateOne(
      { channelId: input.channelId, email: input.email, status: { $ne: 'active' } },
      {
        $set: fields,
        $setOnInsert: { _id: randomUUID(), channelId: input.channelId, email: input.email, createdAt: now },
      },
      { upsert: true },
    );
  } catch (err) {
    // A concurrent request created it, or it became active in between: either way nothing to send.
    if (isDuplicateKey(err)) return;
    throw err;
  }

  const link = activationLink(ctx, input.channelId, input.email, key);
  await ctx.mailer.send({
    to: input.email,
    subject: 'Confirm your newsletter subscription',
    text: [
      'Please confirm your newsletter subscription by opening this link:',
      '',
      link,
      '',
      `The link works for 7 days. Activation key: ${key}`,
      'If you did not ask for this, ignore this mail and nothing will happen.',
    ].join('\n'),
  });
}
