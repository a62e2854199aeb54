// Use cases: an editor edits or deletes a live-blog message. Both are single-document writes; the change
// stream carries them to subscribers (an edit as the new message, a deletion as the message's id).
import type { Context } from '../../context.js';
import type { LiveBlogMessageDoc } from '../../store/content/elements.doc.js';
import { liveBlogMessageProjection } from '../../store/content/projections.js';
import { checkId } from '../content/input.js';
import { requireEditor } from './editor.js';
import { messageNotFound } from './live.errors.js';
import { spend } from './limits.js';
import { parseMessageChanges } from './message.input.js';

export async function editLiveBlogMessage(
  ctx: Context,
  input: { messageId: string; changes: object },
): Promise<LiveBlogMessageDoc> {
  const editor = await requireEditor(ctx);
  const messageId = checkId(input.messageId, 'messageId');
  const changes = parseMessageChanges(input.changes);
  await spend(ctx.store, 'posts', editor.customerId);
  const edited = await ctx.store
    .collection('liveBlogMessages')
    .findOneAndUpdate(
      { _id: messageId },
      { $set: { ...changes, editedAt: ctx.now } },
      { returnDocument: 'after', projection: liveBlogMessageProjection },
    );
  if (!edited) throw messageNotFound();
  return edited;
}

export async function deleteLiveBlogMessage(ctx: Context, input: { messageId: string }): Promise<LiveBlogMessageDoc> {
  const editor = await requireEditor(ctx);
  const messageId = checkId(input.messageId, 'messageId');
  await spend(ctx.store, 'posts', editor.customerId);
  const deleted = await ctx.store
    .collection('liveBlogMessages')
    .findOneAndDelete({ _id: messageId }, { projection: liveBlogMessageProjection });
  if (!deleted) throw messageNotFound();
  return deleted;
}
