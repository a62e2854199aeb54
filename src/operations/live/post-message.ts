// Use case: an editor posts a message to a live blog. The blog's `lastSeq` is bumped atomically to number
// the message (so parallel posts never share a number), then the message is inserted; a failed insert gives
// its number back when it can (postLiveBlogMessage). Subscribers learn of it from the store's change stream
// (src/live), not from here.
import type { Context } from '../../context.js';
import type { LiveBlogMessageDoc } from '../../store/content/elements.doc.js';
import { isDuplicateKey } from '../../store/errors.js';
import { checkId } from '../content/input.js';
import { requireEditor, type Editor } from './editor.js';
import { liveBlogNotFound } from './live.errors.js';
import { spend } from './limits.js';
import { parseNewMessage, type MessageFields } from './message.input.js';

/** How many taken numbers a post steps over before it gives up. */
const TAKEN_NUMBER_RETRIES = 3;

export async function postLiveBlogMessage(
  ctx: Context,
  input: { liveBlogId: string; message: object },
): Promise<LiveBlogMessageDoc> {
  const editor = await requireEditor(ctx);
  const liveBlogId = checkId(input.liveBlogId, 'liveBlogId');
  const fields = parseNewMessage(input.message);
  await spend(ctx.store, 'posts', editor.customerId);
  const blogs = ctx.store.collection('liveBlogs');
  const messages = ctx.store.collection('liveBlogMessages');
  for (let attempt = 1; ; attempt++) {
    const blog = await blogs.findOneAndUpdate(
      { _id: liveBlogId },
      { $inc: { lastSeq: 1 } },
      { returnDocument: 'after', projection: { lastSeq: 1 } },
    );
    if (!blog) throw liveBlogNotFound();
    const doc = newMessage(liveBlogId, blog.lastSeq, fields, editor, ctx.now);
    try {
      await messages.insertOne(doc);
      return doc;
    } catch (err) {
      // The number is taken by a message written around the gateway (another system writing to the store):
      // that message keeps it, and this one takes the next number.
      if (isDuplicateKey(err)) {
        if (attempt < TAKEN_NUMBER_RETRIES) continue;
        throw err;
      }
      // Nothing was written: the number is given back when nobody has taken a later one (so the blog's newest
      // messages stay numbered without a gap), and the error is the caller's.
      await blogs
        .updateOne({ _id: liveBlogId, lastSeq: blog.lastSeq }, { $inc: { lastSeq: -1 } })
        .catch((undo: unknown) => {
          ctx.log.error(
            { err: undo, liveBlogId, seq: blog.lastSeq },
            'a live-blog message number could not be given back',
          );
        });
      throw err;
    }
  }
}

function newMessage(
  liveBlogId: string,
  seq: number,
  fields: MessageFields,
  editor: Editor,
  now: Date,
): LiveBlogMessageDoc {
  return {
    _id: `${liveBlogId}-message-${seq}`,
    liveBlogId,
    seq,
    timestamp: now,
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
}
