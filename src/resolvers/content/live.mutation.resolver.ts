// Mutations of the interactive content: poll votes, quiz submissions, live-blog posting. Thin adapters
// from arguments to the operations in src/operations/live.
import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../../context.js';
import { deleteLiveBlogMessage, editLiveBlogMessage } from '../../operations/live/edit-message.js';
import { postLiveBlogMessage } from '../../operations/live/post-message.js';
import { submitQuizAnswers } from '../../operations/live/submit-quiz-answers.js';
import { voteInPoll } from '../../operations/live/vote-in-poll.js';
import { LiveBlogMessage } from '../../schema/content/live-blog.type.js';
import { LiveBlogMessageChangesInput, LiveBlogMessageInput, QuizAnswerInput } from '../../schema/content/live.input.js';
import { DeletedLiveBlogMessage, QuizSubmissionResult } from '../../schema/content/live.type.js';
import { Poll } from '../../schema/content/poll.type.js';
import { toLiveBlogMessage, toPoll, toQuiz, toQuizResult } from '../../store/content/mappers/elements.mapper.js';

@Resolver()
export class LiveMutationResolver {
  @Mutation(() => Poll, {
    description:
      'One vote per customer (anonymous votes only where onlyLoggedIn is false, at most 5 a day per poll and IP); a repeat of the same vote is harmless, ' +
      'another choice is ALREADY_VOTED, a closed poll POLL_CLOSED. At most 30 votes and quiz submissions a minute per customer, 120 per IP',
  })
  async voteInPoll(
    @Ctx() ctx: Context,
    @Arg('pollId', () => ID, { description: 'Id of the poll' }) pollId: string,
    @Arg('choiceId', () => ID, { description: 'The choice: its `id` (`PollChoice:<poll id>:<key>`) or its `key`' })
    choiceId: string,
  ): Promise<Poll> {
    const { poll, choiceId: chosen } = await voteInPoll(ctx, { pollId, choiceId });
    return { ...toPoll(poll, ctx.now), viewerChoiceKey: chosen };
  }

  @Mutation(() => QuizSubmissionResult, {
    description:
      'Scores the answers and counts them; open quizzes only (QUIZ_NOT_OPEN). At most 30 votes and quiz submissions a minute per customer, 120 per IP',
  })
  async submitQuizAnswers(
    @Ctx() ctx: Context,
    @Arg('quizId', () => ID, { description: 'Id of the quiz' }) quizId: string,
    @Arg('answers', () => [QuizAnswerInput], { description: '1 to 200 answers, at most one per question' })
    answers: QuizAnswerInput[],
  ): Promise<QuizSubmissionResult> {
    const submission = await submitQuizAnswers(ctx, { quizId, answers });
    return {
      score: submission.score,
      maxScore: submission.maxScore,
      result: submission.result && toQuizResult(submission.quiz._id, submission.result),
      quiz: toQuiz(submission.quiz),
    };
  }

  @Mutation(() => LiveBlogMessage, {
    description:
      'Adds a message to a live blog. Editors only (the `editor` role); at most 60 posts, edits and deletions a minute per editor',
  })
  async postLiveBlogMessage(
    @Ctx() ctx: Context,
    @Arg('liveBlogId', () => ID, { description: 'Id of the live blog' }) liveBlogId: string,
    @Arg('input', () => LiveBlogMessageInput, { description: 'The message' }) input: LiveBlogMessageInput,
  ): Promise<LiveBlogMessage> {
    return toLiveBlogMessage(await postLiveBlogMessage(ctx, { liveBlogId, message: input }));
  }

  @Mutation(() => LiveBlogMessage, {
    description:
      'Changes the given fields of a live-blog message. Editors only (the `editor` role); at most 60 a minute per editor',
  })
  async editLiveBlogMessage(
    @Ctx() ctx: Context,
    @Arg('messageId', () => ID, { description: 'Id of the message' }) messageId: string,
    @Arg('input', () => LiveBlogMessageChangesInput, { description: 'The fields to change; at least one' })
    input: LiveBlogMessageChangesInput,
  ): Promise<LiveBlogMessage> {
    return toLiveBlogMessage(await editLiveBlogMessage(ctx, { messageId, changes: input }));
  }

  @Mutation(() => DeletedLiveBlogMessage, {
    description: 'Deletes a live-blog message. Editors only (the `editor` role); at most 60 a minute per editor',
  })
  async deleteLiveBlogMessage(
    @Ctx() ctx: Context,
    @Arg('messageId', () => ID, { description: 'Id of the message' }) messageId: string,
  ): Promise<DeletedLiveBlogMessage> {
    const deleted = await deleteLiveBlogMessage(ctx, { messageId });
    return { id: deleted._id, liveBlogId: deleted.liveBlogId };
  }
}
