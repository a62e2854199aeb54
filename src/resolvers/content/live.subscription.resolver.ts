// Subscriptions (GraphQL over WebSocket, src/live): a live blog's new messages, all of its changes (by id
// or websocketRoomName), and a poll's counts. The subscribe functions are the operations in
// src/operations/live/watch.ts; the resolvers only map stored documents to API objects.
import { Arg, ID, Resolver, Root, Subscription, type SubscribeResolverData } from 'type-graphql';
import type { Context } from '../../context.js';
import type { LiveBlogUpdate } from '../../live/hub.js';
import { watchLiveBlog, watchPoll } from '../../operations/live/watch.js';
import { LiveBlogMessage } from '../../schema/content/live-blog.type.js';
import { LiveBlogEvent, LiveBlogEventKind } from '../../schema/content/live.type.js';
import { Poll } from '../../schema/content/poll.type.js';
import type { PollDoc } from '../../store/content/elements.doc.js';
import { toLiveBlogMessage, toPoll } from '../../store/content/mappers/elements.mapper.js';

type Args<T> = SubscribeResolverData<unknown, T, Context>;

@Resolver()
export class LiveSubscriptionResolver {
  @Subscription(() => LiveBlogMessage, {
    description: 'Messages posted to a live blog from now on',
    subscribe: ({ args, context }: Args<{ liveBlogId: string }>) =>
      watchLiveBlog(context, { liveBlogId: args.liveBlogId }, 'added'),
  })
  liveBlogMessageAdded(
    @Root() update: LiveBlogUpdate,
    @Arg('liveBlogId', () => ID, { description: 'Id of the live blog to follow' }) _liveBlogId: string,
  ): LiveBlogMessage {
    return toLiveBlogMessage(update.message!);
  }

  @Subscription(() => LiveBlogEvent, {
    description: 'Every change to a live blog (added, edited, deleted messages); give liveBlogId or websocketRoomName',
    subscribe: ({ args, context }: Args<{ liveBlogId?: string | null; websocketRoomName?: string | null }>) =>
      watchLiveBlog(context, args),
  })
  liveBlogUpdates(
    @Root() update: LiveBlogUpdate,
    @Arg('liveBlogId', () => ID, {
      nullable: true,
      description: 'Id of the live blog to follow; give this or `websocketRoomName`',
    })
    _liveBlogId?: string,
    @Arg('websocketRoomName', () => String, {
      nullable: true,
      description: '`websocketRoomName` of the live blog to follow; give this or `liveBlogId`',
    })
    _room?: string,
  ): LiveBlogEvent {
    return {
      kind: update.kind as LiveBlogEventKind,
      liveBlogId: update.liveBlogId,
      messageId: update.messageId,
      message: update.message && toLiveBlogMessage(update.message),
    };
  }

  @Subscription(() => Poll, {
    description: 'The poll with its new counts and results, on every change',
    subscribe: ({ args, context }: Args<{ pollId: string }>) => watchPoll(context, { pollId: args.pollId }),
  })
  pollResultsChanged(
    @Root() poll: PollDoc,
    @Arg('pollId', () => ID, { description: 'Id of the poll to follow' }) _pollId: string,
  ): Poll {
    // As of the change being sent, not of the subscription's start.
    return toPoll(poll, new Date());
  }
}
