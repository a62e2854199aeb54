// Use case: an editor posts a message to a live blog. The blog's `lastSeq` is bumped atomically to number
// the message (so parallel posts never share a number), then the message is inserted; subscribers learn
// of it from the store's change stream (src/live), not from here.
import type { Context } from '../../context.js';
import type { LiveBlogMessageDoc } from '../../store/content/elements.doc.js';
import { checkId } from '../content/input.js';
import { requireEditor } from './editor.js';
import { liveBlogNotFound } from './live.errors.js';
import { spend } from './limits.js';
import { parseNewMessage } from './message.input.js';

export async function postLiveBlogMessage(ctx: Context, input: { liveBlogId: string; message: object }): Promise<LiveBlogMessageDoc> {
  const editor = await requireEditor(ctx);
  const liveBlogId = checkId(input.liveBlogId, 'liveBlogId');
  const fields = parseNewMessage(input.message);
  await spend(ctx.store, 'posts', editor.customerId);
  const blog = await ctx.store.collection('liveBlogs').findOneAndUpdate({ _id: liveBlogId }, { $inc: { lastSeq: 1 } }, { returnDocument: 'after', projection: { lastSeq: 1 } });
  if (!blog) throw liveBlogNotFound();
  const doc: LiveBlogMessageDoc = {
    _id: `${liveBlogId}-message-${blog.lastSeq}`,
    liveBlogId,
    seq: blog.lastSeq,
    timestamp: ctx.now,
    text: fields.text,
    title: fields.title ?? null,
    minute: fields.minute ?? null,
    additionalMinute: fields.additionalMinute ?? null,
    typeId: fields.typeId ?? null,
    imageLetter: fields.imageLetter ?? null,
    highlight: fields.highlight ?? false,
    htmlContent: fields.htmlContent ?? null,
    userDisplayName: editor.name,
    userThumbnailUrl: fields.userThumbnailUrl ?? null,
    authorId: editor.customerId,
  };
  await ctx.store.collection('liveBlogMessages').insertOne(doc);
  return doc;
}
