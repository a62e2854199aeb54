// The channel a newsletter operation names must exist (404 CHANNEL_NOT_FOUND otherwise).
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';

export async function requireChannel(ctx: Context, channelId: string): Promise<void> {
  const found = await ctx.store.collection('channels').findOne({ _id: channelId }, { projection: { _id: 1 } });
  if (!found) throw notFound('CHANNEL_NOT_FOUND', 'Channel not found', `No channel ${channelId}`);
}
