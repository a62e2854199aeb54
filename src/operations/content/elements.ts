// What an article's elements and attachments show, through the request's loaders: live blogs with their newest
// messages (when the reader may read them), polls with the viewer's vote, quizzes, and an attachment's video.
// Answered by GraphQL's field resolvers and the REST issues list alike.
import type { Context } from '../../context.js';
import type { ArticleElements } from '../../schema/content/article-parts.type.js';
import type { Attachment } from '../../schema/content/attachment.type.js';
import type { LiveBlog, LiveBlogMessage } from '../../schema/content/live-blog.type.js';
import type { Poll } from '../../schema/content/poll.type.js';
import type { Quiz } from '../../schema/content/quiz.type.js';
import type { Video } from '../../schema/content/video.type.js';
import { previewMessagesOf, voteOf } from '../../store/content/elements.loaders.js';
import { liveBlogById, pollById, quizById, videoById } from '../../store/content/loaders.js';
import { toLiveBlog, toLiveBlogMessage, toPoll, toQuiz } from '../../store/content/mappers/elements.mapper.js';
import { toVideo } from '../../store/content/mappers/media.mapper.js';
import { mayReadLiveBlog } from '../live/live-blog-access.js';
import { loadOne, loadVisible, type MaybePromise } from './load.js';

export const liveBlogsOf = (ctx: Context, elements: ArticleElements): MaybePromise<LiveBlog[]> =>
  loadVisible(ctx.loaders.get(liveBlogById), elements.liveBlogIds, toLiveBlog);

export const pollsOf = (ctx: Context, elements: ArticleElements): MaybePromise<Poll[]> =>
  loadVisible(ctx.loaders.get(pollById), elements.pollIds, (d) => toPoll(d, ctx.now));

/** Open and closed quizzes; drafts are left out (the loader's visibility). */
export const quizzesOf = (ctx: Context, elements: ArticleElements): MaybePromise<Quiz[]> =>
  loadVisible(ctx.loaders.get(quizById), elements.quizIds, toQuiz);

export const videoOf = (ctx: Context, attachment: Attachment): MaybePromise<Video | null> =>
  loadOne(ctx.loaders.get(videoById), attachment.videoId, toVideo);

/** The blog's newest messages, newest first; none for a reader who may not read them (a premium blog). */
export async function previewMessages(ctx: Context, blog: LiveBlog): Promise<LiveBlogMessage[]> {
  if (!(await mayReadLiveBlog(ctx, blog.id))) return [];
  const docs = await ctx.loaders.get(previewMessagesOf).load({ liveBlogId: blog.id, lastSeq: blog.lastSeq });
  return docs.map(toLiveBlogMessage);
}

/** The viewer's vote on the poll (`choiceId`: the stored key of the choice); null for anonymous readers. */
export function viewerVote(ctx: Context, poll: Poll): Promise<{ choiceId: string } | null> {
  if (poll.viewerChoiceKey) return Promise.resolve({ choiceId: poll.viewerChoiceKey });
  if (!ctx.viewer) return Promise.resolve(null);
  return ctx.loaders.get(voteOf).load({ customerId: ctx.viewer.customerId, pollId: poll.id });
}
