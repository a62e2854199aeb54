// Stored live blogs, messages, polls, quizzes and channels -> API objects.
import type { Channel } from '../../../schema/content/channel.type.js';
import type { QuizStatus } from '../../../schema/content/enums.js';
import type { LiveBlog, LiveBlogMessage } from '../../../schema/content/live-blog.type.js';
import type { Poll } from '../../../schema/content/poll.type.js';
import type { Quiz, QuizResult } from '../../../schema/content/quiz.type.js';
import { memberId } from '../../member-ids.js';
import type { ChannelDoc } from '../channel.doc.js';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc, QuizResultDoc } from '../elements.doc.js';
import { pollIsOpen } from '../poll-state.js';
import { toDynamicSection } from './page.mapper.js';

export function toLiveBlog(doc: LiveBlogDoc): LiveBlog {
  const { _id, ...rest } = doc;
  return { ...rest, id: _id };
}

export function toLiveBlogMessage(doc: LiveBlogMessageDoc): LiveBlogMessage {
  const { _id, seq: _seq, authorId: _author, editedAt, ...rest } = doc;
  return { ...rest, id: _id, editedAt: editedAt ?? null };
}

/** The graph-wide id of a poll's choice (src/store/member-ids.ts). */
export const pollChoiceId = (pollId: string, key: string): string => memberId('PollChoice', pollId, key);

/**
 * Results are derived from the choices' vote counts; percentages have two decimals and are 0 when nobody voted.
 * `closed` is as of `now`: a poll past its end date reads closed, as a vote on it is refused.
 */
export function toPoll(doc: PollDoc, now: Date): Poll {
  const votes = doc.choices.reduce((sum, c) => sum + c.votes, 0);
  return {
    id: doc._id,
    timestamp: doc.timestamp,
    question: doc.question,
    choices: doc.choices.map((c) => ({ id: pollChoiceId(doc._id, c.id), key: c.id, text: c.text, votes: c.votes })),
    votes,
    slug: doc.slug,
    category: doc.category ? { ...doc.category } : null,
    results: doc.choices.map((c) => ({
      choiceId: pollChoiceId(doc._id, c.id),
      choiceKey: c.id,
      votes: c.votes,
      percentage: votes === 0 ? 0 : Math.round((c.votes / votes) * 10_000) / 100,
    })),
    message: doc.message,
    onlyLoggedIn: doc.onlyLoggedIn,
    endDate: doc.endDate,
    closed: !pollIsOpen(doc, now),
  };
}

export function toQuizResult(quizId: string, doc: QuizResultDoc): QuizResult {
  return { ...doc, id: memberId('QuizResult', quizId, doc.id), key: doc.id };
}

export function toQuiz(doc: QuizDoc): Quiz {
  const { _id, status, questions, results, ...rest } = doc;
  return {
    ...rest,
    id: _id,
    status: status as QuizStatus,
    questions: questions.map((q) => ({
      ...q,
      id: memberId('QuizQuestion', _id, q.id),
      key: q.id,
      choices: q.choices.map((a) => ({ ...a, id: memberId('QuizAnswer', _id, q.id, a.id), key: a.id })),
    })),
    results: results.map((r) => toQuizResult(_id, r)),
  };
}

export function toChannel(doc: ChannelDoc): Channel {
  return {
    id: doc._id,
    name: doc.name,
    image: doc.image,
    description: doc.description,
    objectType: doc.objectType,
    configuration: {
      linkables: doc.configuration.linkables.map((l) => ({
        key: l.key,
        linkables: l.linkables.map((x) => ({ ...x })),
      })),
      dynamicSections: doc.configuration.dynamicSections.map(toDynamicSection),
    },
  };
}
