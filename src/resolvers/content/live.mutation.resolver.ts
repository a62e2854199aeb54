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
  @Mutation(() => Poll, { description: 'One vote per customer (anonymous votes only where onlyLoggedIn is false); a repeat of the same vote is harmless' })
  async voteInPoll(
    @Ctx() ctx: Context,
    @Arg('pollId', () => ID) pollId: string,
    @Arg('choiceId', () => ID, { description: 'The choice: its `id` (`PollChoice:<poll id>:<key>`) or its `key`' }) choiceId: string,
  ): Promise<Poll> {
    const { poll, choiceId: chosen } = await voteInPoll(ctx, { pollId, choiceId });
    return { ...toPoll(poll), viewerChoiceKey: chosen };
  }

  @Mutation(() => QuizSubmissionResult, { description: 'Scores the answers and counts them; open quizzes only' })
  async submitQuizAnswers(
    @Ctx() ctx: Context,
    @Arg('quizId', () => ID) quizId: string,
    @Arg('answers', () => [QuizAnswerInput]) answers: QuizAnswerInput[],
  ): Promise<QuizSubmissionResult> {
    const submission = await submitQuizAnswers(ctx, { quizId, answers });
    return { score: submission.score, maxScore: submission.maxScore, result: submission.result && toQuizResult(submission.quiz._id, submission.result), quiz: toQuiz(submission.quiz) };
  }

  @Mutation(() => LiveBlogMessage, { description: 'Editors only: adds a message to a live blog' })
  async postLiveBlogMessage(
    @Ctx() ctx: Context,
    @Arg('liveBlogId', () => ID) liveBlogId: string,
    @Arg('input', () => LiveBlogMessageInput) input: LiveBlogMessageInput,
  ): Promise<LiveBlogMessage> {
    return toLiveBlogMessage(await postLiveBlogMessage(ctx, { liveBlogId, message: input }));
  }

  @Mutation(() => LiveBlogMessage, { description: 'Editors only: changes the given fields of a live-blog message' })
  async editLiveBlogMessage(
    @Ctx() ctx: Context,
    @Arg('messageId', () => ID) messageId: string,
    @Arg('input', () => LiveBlogMessageChangesInput) input: LiveBlogMessageChangesInput,
  ): Promise<LiveBlogMessage> {
    return toLiveBlogMessage(await editLiveBlogMessage(ctx, { messageId, changes: input }));
  }

  @Mutation(() => DeletedLiveBlogMessage, { description: 'Editors only: deletes a live-blog message' })
  async deleteLiveBlogMessage(@Ctx() ctx: Context, @Arg('messageId', () => ID) messageId: string): Promise<DeletedLiveBlogMessage> {
    const deleted = await deleteLiveBlogMessage(ctx, { messageId });
    return { id: deleted._id, liveBlogId: deleted.liveBlogId };
  }
}
