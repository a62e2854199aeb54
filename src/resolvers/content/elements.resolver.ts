// Article elements and media: live blogs (with preview messages), polls (with the viewer's vote),
// quizzes, and the video behind an attachment.
import { Ctx, Directive, FieldResolver, ID, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context.js';
import { mayReadLiveBlog } from '../../operations/live/live-blog-access.js';
import {
  liveBlogsOf,
  pollsOf,
  previewMessages,
  quizzesOf,
  videoOf,
  viewerVote,
} from '../../operations/content/elements.js';
import { ArticleElements } from '../../schema/content/article-parts.type.js';
import { Attachment } from '../../schema/content/attachment.type.js';
import { LiveBlog, LiveBlogMessage } from '../../schema/content/live-blog.type.js';
import { Poll } from '../../schema/content/poll.type.js';
import { Quiz } from '../../schema/content/quiz.type.js';
import { Video } from '../../schema/content/video.type.js';
import { pollChoiceId } from '../../store/content/mappers/elements.mapper.js';
import type { MaybePromise } from '../../operations/content/load.js';

@Resolver(() => ArticleElements)
export class ArticleElementsResolver {
  @FieldResolver(() => [LiveBlog], { description: 'Live blogs embedded in the article, in editorial order' })
  liveBlogs(@Root() elements: ArticleElements, @Ctx() ctx: Context): MaybePromise<LiveBlog[]> {
    return liveBlogsOf(ctx, elements);
  }

  @FieldResolver(() => [Poll], { description: 'Polls embedded in the article, in editorial order' })
  polls(@Root() elements: ArticleElements, @Ctx() ctx: Context): MaybePromise<Poll[]> {
    return pollsOf(ctx, elements);
  }

  @FieldResolver(() => [Quiz], { description: 'Open and closed quizzes; drafts are left out' })
  quizzes(@Root() elements: ArticleElements, @Ctx() ctx: Context): MaybePromise<Quiz[]> {
    return quizzesOf(ctx, elements);
  }
}

// A premium live blog's messages are its body: like a premium article's `body`, they are left out for a reader
// without access, on every path to the blog (node, nodes, an article's elements). The decision rests on the
// reader's active entitlements only, so these fields are not per viewer: a signed-in reader's answer is shared
// by entitlement set and an anonymous one is public, neither holding messages its readers may not see.
@Resolver(() => LiveBlog)
export class LiveBlogResolver {
  @FieldResolver(() => Boolean, {
    description: 'Whether this viewer may read the messages (premium live blogs follow the article access rules)',
  })
  accessAllowed(@Root() blog: LiveBlog, @Ctx() ctx: Context): Promise<boolean> {
    return mayReadLiveBlog(ctx, blog.id);
  }

  @FieldResolver(() => [LiveBlogMessage], {
    description: 'The newest messages, newest first; empty when access is not allowed',
  })
  previewMessages(@Root() blog: LiveBlog, @Ctx() ctx: Context): Promise<LiveBlogMessage[]> {
    return previewMessages(ctx, blog);
  }
}

@Resolver(() => Poll)
export class PollResolver {
  @Directive('@cacheControl(scope: PRIVATE)') // per viewer (cache-control.ts)
  @FieldResolver(() => Boolean, { description: 'Whether the viewer has voted; false for anonymous readers' })
  async voted(@Root() poll: Poll, @Ctx() ctx: Context): Promise<boolean> {
    return (await viewerVote(ctx, poll)) !== null;
  }

  @Directive('@cacheControl(scope: PRIVATE)')
  @FieldResolver(() => ID, {
    nullable: true,
    description: "The `id` of the viewer's choice (`PollChoice:<poll id>:<key>`); null when not voted",
  })
  async votedChoice(@Root() poll: Poll, @Ctx() ctx: Context): Promise<string | null> {
    const vote = await viewerVote(ctx, poll);
    return vote ? pollChoiceId(poll.id, vote.choiceId) : null;
  }

  @Directive('@cacheControl(scope: PRIVATE)')
  @FieldResolver(() => String, {
    nullable: true,
    description: "The key of the viewer's choice, unique only within the poll; null when not voted",
  })
  async votedChoiceKey(@Root() poll: Poll, @Ctx() ctx: Context): Promise<string | null> {
    return (await viewerVote(ctx, poll))?.choiceId ?? null;
  }
}

@Resolver(() => Attachment)
export class AttachmentResolver {
  @FieldResolver(() => Video, { nullable: true, description: 'The video of a video attachment, once it is ready' })
  video(@Root() attachment: Attachment, @Ctx() ctx: Context): MaybePromise<Video | null> {
    return videoOf(ctx, attachment);
  }
}
