// Use cases: follow a live blog (by id, or by the websocketRoomName legacy clients hold) or a poll. The
// subscription is refused up front (NOT_FOUND, FORBIDDEN for a premium blog without access, or
// LIVE_UNAVAILABLE when the store cannot stream changes); afterwards events come from the hub.
import type { Context } from '../../context.js';
import { AppError, badRequest, forbidden } from '../../errors.js';
import type { LiveFeed } from '../../live/feed.js';
import type { LiveBlogUpdate } from '../../live/hub.js';
import type { PollDoc } from '../../store/content/elements.doc.js';
import { checkId } from '../content/input.js';
import { liveBlogNotFound, pollNotFound } from './live.errors.js';
import { mayFollowLiveBlog } from './live-blog-access.js';

function requireLive(ctx: Context): LiveFeed {
  if (!ctx.live?.hub.available) {
    throw new AppError({
      status: 503,
      code: 'LIVE_UNAVAILABLE',
      title: 'Service Unavailable',
      detail: 'Live updates are not available on this server',
    });
  }
  return ctx.live;
}

/** A live blog's updates, or only those of one `kind`. */
export async function watchLiveBlog(
  ctx: Context,
  input: { liveBlogId?: string | null; websocketRoomName?: string | null },
  kind?: LiveBlogUpdate['kind'],
): Promise<AsyncIterableIterator<LiveBlogUpdate>> {
  const live = requireLive(ctx);
  if ((input.liveBlogId == null) === (input.websocketRoomName == null)) {
    throw badRequest('Give liveBlogId or websocketRoomName', [
      { field: 'liveBlogId', message: 'Exactly one of liveBlogId and websocketRoomName is required' },
    ]);
  }
  const blogs = ctx.store.collection('liveBlogs');
  const blog =
    input.liveBlogId != null
      ? await blogs.findOne({ _id: checkId(input.liveBlogId, 'liveBlogId') }, { projection: { _id: 1 } })
      : await blogs.findOne(
          { websocketRoomName: checkId(input.websocketRoomName!, 'websocketRoomName') },
          { projection: { _id: 1 } },
        );
  if (!blog) throw liveBlogNotFound();
  if (!(await mayFollowLiveBlog(ctx, blog._id)))
    throw forbidden('This live blog belongs to premium content the viewer has no access to');
  return live.hub.subscribeBlog(blog._id, live.connection, kind);
}

export async function watchPoll(ctx: Context, input: { pollId: string }): Promise<AsyncIterableIterator<PollDoc>> {
  const live = requireLive(ctx);
  const poll = await ctx.store
    .collection('polls')
    .findOne({ _id: checkId(input.pollId, 'pollId') }, { projection: { _id: 1 } });
  if (!poll) throw pollNotFound();
  return live.hub.subscribePoll(poll._id, live.connection);
}
