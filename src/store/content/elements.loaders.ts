// Loaders for article elements that need more than an id: a live blog's newest messages, a viewer's poll votes.
import DataLoader from 'dataloader';
import type { LoaderFactory } from '../loaders.js';
import type { LiveBlogMessageDoc, PollVoteDoc } from './elements.doc.js';
import { liveBlogMessageProjection, pollVoteProjection } from './projections.js';

/** How many of a live blog's newest messages its preview carries. */
const PREVIEW_MESSAGES = 5;

export interface PreviewKey {
  liveBlogId: string;
  lastSeq: number;
}

/**
 * The newest PREVIEW_MESSAGES messages of each live blog, newest first. Messages are numbered per
 * blog, so one `$or` of `seq > lastSeq - N` ranges reads exactly the preview of every blog in the batch.
 */
export const previewMessagesOf: LoaderFactory<PreviewKey, LiveBlogMessageDoc[]> = (store) =>
  new DataLoader<PreviewKey, LiveBlogMessageDoc[], string>(
    async (keys) => {
      const docs = await store
        .collection('liveBlogMessages')
        .find(
          { $or: keys.map((k) => ({ liveBlogId: k.liveBlogId, seq: { $gt: k.lastSeq - PREVIEW_MESSAGES } })) },
          {
            projection: liveBlogMessageProjection,
            sort: { liveBlogId: 1, seq: -1 },
            limit: keys.length * PREVIEW_MESSAGES,
            batchSize: keys.length * PREVIEW_MESSAGES,
          },
        )
        .toArray();
      const byBlog = new Map<string, LiveBlogMessageDoc[]>();
      for (const doc of docs) byBlog.set(doc.liveBlogId, [...(byBlog.get(doc.liveBlogId) ?? []), doc]);
      return keys.map((k) => byBlog.get(k.liveBlogId) ?? []);
    },
    { cacheKeyFn: (k) => `${k.liveBlogId}\u0000${k.lastSeq}`, maxBatchSize: 1000 },
  );

export interface VoteKey {
  customerId: string;
  pollId: string;
}

/** A customer's vote on each poll, or null. */
export const voteOf: LoaderFactory<VoteKey, PollVoteDoc | null> = (store) =>
  new DataLoader<VoteKey, PollVoteDoc | null, string>(
    async (keys) => {
      const docs = await store
        .collection('pollVotes')
        .find(
          { $or: keys.map((k) => ({ customerId: k.customerId, pollId: k.pollId })) },
          { projection: pollVoteProjection, limit: keys.length, batchSize: keys.length },
        )
        .toArray();
      const found = new Map(docs.map((d) => [`${d.customerId}\u0000${d.pollId}`, d]));
      return keys.map((k) => found.get(`${k.customerId}\u0000${k.pollId}`) ?? null);
    },
    { cacheKeyFn: (k) => `${k.customerId}\u0000${k.pollId}`, maxBatchSize: 1000 },
  );
