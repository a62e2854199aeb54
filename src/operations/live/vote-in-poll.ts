// Use case: one vote on a poll. The vote is recorded first in `pollVotes`, whose unique index on
// (customerId, pollId) is what makes it one vote per voter; the count is then one conditional `$inc` on
// the chosen choice (guarded by "still open"), so parallel voters never lose an increment. A repeated
// vote for the same choice answers like the first (a client may retry); one for another choice is
// ALREADY_VOTED. Anonymous votes (only on `onlyLoggedIn: false` polls) are limited per IP and poll.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { unauthenticated } from '../../errors.js';
import type { PollDoc } from '../../store/content/elements.doc.js';
import { pollIsOpen, pollOpenFilter } from '../../store/content/poll-state.js';
import { pollProjection } from '../../store/content/projections.js';
import { isDuplicateKey } from '../../store/errors.js';
import { memberKey } from '../../store/member-ids.js';
import { checkId } from '../content/input.js';
import { alreadyVoted, choiceNotInPoll, pollClosed, pollNotFound } from './live.errors.js';
import { ipKey, spend } from './limits.js';

export interface VoteResult {
  poll: PollDoc;
  /** The key of the voter's choice (the one counted, also on an idempotent repeat). */
  choiceId: string;
}

/** The filter that only matches while the poll takes votes for `choiceId`. */
const openFor = (pollId: string, choiceId: string, now: Date) => ({
  _id: pollId,
  ...pollOpenFilter(now),
  'choices.id': choiceId,
});

export async function voteInPoll(ctx: Context, input: { pollId: string; choiceId: string }): Promise<VoteResult> {
  const pollId = checkId(input.pollId, 'pollId');
  // The choice's graph-wide id or its key within the poll: votes are stored by key.
  const choiceId = checkId(memberKey(input.choiceId, 'PollChoice', pollId), 'choiceId');
  const polls = ctx.store.collection('polls');
  const poll = await polls.findOne({ _id: pollId }, { projection: pollProjection });
  if (!poll) throw pollNotFound();
  if (!poll.choices.some((c) => c.id === choiceId)) throw choiceNotInPoll();
  if (!pollIsOpen(poll, ctx.now)) throw pollClosed();
  if (!ctx.viewer && poll.onlyLoggedIn)
    throw unauthenticated('This poll takes votes from signed-in customers only', 'invalid_token');

  const ip = ipKey(ctx.clientIp);
  await spend(ctx.store, 'ip', ip);
  if (ctx.viewer) await spend(ctx.store, 'interactions', ctx.viewer.customerId);
  else await spend(ctx.store, 'anonymousPerPoll', `${pollId}:${ip}`);

  // Anonymous voters have no identity to hold a vote to: each of their votes is its own record.
  const voterId = ctx.viewer?.customerId ?? `anonymous:${randomUUID()}`;
  const votes = ctx.store.collection('pollVotes');
  const voteId = randomUUID();
  try {
    await votes.insertOne({ _id: voteId, pollId, customerId: voterId, choiceId, votedAt: ctx.now });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const earlier = await votes.findOne({ customerId: voterId, pollId });
    if (earlier?.choiceId !== choiceId) throw alreadyVoted();
    return { poll: (await polls.findOne({ _id: pollId }, { projection: pollProjection })) ?? poll, choiceId };
  }
  // A vote that is not counted is withdrawn, whatever stopped the count (closed since the check, or a store
  // error), so the records match the counts and a retry counts it rather than finding it already there.
  let counted: PollDoc | null;
  try {
    counted = await polls.findOneAndUpdate(
      openFor(pollId, choiceId, ctx.now),
      { $inc: { 'choices.$.votes': 1 } },
      { returnDocument: 'after', projection: pollProjection },
    );
  } catch (err) {
    await withdraw(ctx, voteId);
    throw err;
  }
  if (!counted) {
    await withdraw(ctx, voteId);
    throw pollClosed();
  }
  return { poll: counted, choiceId };
}

/**
 * Deletes an uncounted vote record. The caller's error is what the client learns, so a failure here is only
 * logged: the record then stays uncounted until a recount (the records are the source of truth).
 */
async function withdraw(ctx: Context, voteId: string): Promise<void> {
  await ctx.store
    .collection('pollVotes')
    .deleteOne({ _id: voteId })
    .catch((err: unknown) => ctx.log.error({ err, voteId }, 'an uncounted poll vote could not be withdrawn'));
}
