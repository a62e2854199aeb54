// Use case: score a quiz submission and count it. The score is the sum of the chosen answers' points;
// the result is the first whose minimum..maximum holds the score. Every chosen answer's counter and the
// result's counter go up in one update guarded by `status: 'open'` (see countingUpdate), so a submission
// counts whole or not at all, in a constant number of round trips, and parallel submissions never lose an
// increment. Drafts are invisible (NOT_FOUND, as on reads);
// a closed quiz is QUIZ_NOT_OPEN.
import type { Document } from 'mongodb';
import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import type { QuizDoc, QuizResultDoc } from '../../store/content/elements.doc.js';
import { quizProjection } from '../../store/content/projections.js';
import { memberKey } from '../../store/member-ids.js';
import { checkId } from '../content/input.js';
import { quizChanged, quizNotFound, quizNotOpen } from './live.errors.js';
import { ipKey, spend } from './limits.js';

/** A question and its chosen answer, each by its graph-wide id or by its key (src/store/member-ids.ts). */
export interface QuizAnswerChoice {
  questionId: string;
  answerId: string;
}

export interface QuizSubmission {
  quiz: QuizDoc;
  score: number;
  maxScore: number;
  result: QuizResultDoc | null;
}

const MAX_ANSWERS = 200;

/** A chosen answer, located in the quiz as it was read. */
interface Chosen {
  questionId: string;
  answerId: string;
  points: number;
  /** Positions of the question in `questions` and of the answer in its `choices`. */
  q: number;
  a: number;
}

function checkAnswers(quiz: QuizDoc, answers: readonly QuizAnswerChoice[]): Chosen[] {
  if (answers.length === 0 || answers.length > MAX_ANSWERS)
    throw badRequest(`Give 1 to ${MAX_ANSWERS} answers`, [{ field: 'answers', message: 'Wrong number of answers' }]);
  const seen = new Set<string>();
  return answers.map((given, i) => {
    const questionKey = memberKey(given.questionId, 'QuizQuestion', quiz._id);
    const q = quiz.questions.findIndex((question) => question.id === questionKey);
    if (q < 0)
      throw badRequest('An answer names a question that is not in the quiz', [
        { field: `answers.${i}.questionId`, message: 'Not a question of this quiz' },
      ]);
    const question = quiz.questions[q]!;
    if (seen.has(question.id))
      throw badRequest('A question is answered twice', [
        { field: `answers.${i}.questionId`, message: 'Answered twice' },
      ]);
    seen.add(question.id);
    const answerKey = memberKey(given.answerId, 'QuizAnswer', quiz._id, question.id);
    const a = question.choices.findIndex((c) => c.id === answerKey);
    if (a < 0)
      throw badRequest('An answer is not one of its question', [
        { field: `answers.${i}.answerId`, message: 'Not an answer of this question' },
      ]);
    const answer = question.choices[a]!;
    return { questionId: question.id, answerId: answer.id, points: answer.points, q, a };
  });
}

/** How often a submission is re-read and re-tried when the quiz was edited between the read and the count. */
const EDIT_RETRIES = 3;

interface Scored {
  chosen: Chosen[];
  score: number;
  maxScore: number;
  result: QuizResultDoc | null;
  /** Position of `result` in `results`. */
  r: number;
}

function score(quiz: QuizDoc, answers: readonly QuizAnswerChoice[]): Scored {
  const chosen = checkAnswers(quiz, answers);
  const score = chosen.reduce((sum, a) => sum + a.points, 0);
  const maxScore = quiz.questions.reduce((sum, q) => sum + Math.max(0, ...q.choices.map((c) => c.points)), 0);
  const r = quiz.results.findIndex((res) => res.minimum <= score && score <= res.maximum);
  return { chosen, score, maxScore, result: quiz.results[r] ?? null, r };
}

/**
 * The whole submission as one update: every counter is addressed by its position in the quiz as it was read
 * (`questions.<q>.choices.<a>.votes`, `results.<r>.votes`), and the filter holds only while the quiz is open and
 * those positions still hold what was scored (same ids, points and result bounds). So the submission counts whole
 * or not at all, in one round trip whatever the number of answers, and repeated answer ids across questions need
 * nothing special. Every path and value comes from the stored quiz (positions, ids, points), none from the client.
 */
function countingUpdate(quiz: QuizDoc, scored: Scored): { filter: Document; update: Document } {
  const filter: Document = { _id: quiz._id, status: 'open' };
  const inc: Record<string, number> = {};
  for (const c of scored.chosen) {
    filter[`questions.${c.q}.id`] = c.questionId;
    filter[`questions.${c.q}.choices.${c.a}.id`] = c.answerId;
    filter[`questions.${c.q}.choices.${c.a}.points`] = c.points;
    inc[`questions.${c.q}.choices.${c.a}.votes`] = 1;
  }
  if (scored.result) {
    filter[`results.${scored.r}.id`] = scored.result.id;
    filter[`results.${scored.r}.minimum`] = scored.result.minimum;
    filter[`results.${scored.r}.maximum`] = scored.result.maximum;
    inc[`results.${scored.r}.votes`] = 1;
  }
  return { filter, update: { $inc: inc } };
}

/** A key (the id rule) or a member id made of keys: at most a quiz id and two keys, with their type and colons. */
function checkMember(value: string, field: string): string {
  if (typeof value === 'string' && value.length <= 3 * 64 + 20 && value.split(':').length >= 3) return value;
  return checkId(value, field);
}

async function openQuiz(ctx: Context, quizId: string): Promise<QuizDoc> {
  const quiz = await ctx.store.collection('quizzes').findOne({ _id: quizId }, { projection: quizProjection });
  if (!quiz || quiz.status === 'draft') throw quizNotFound();
  if (quiz.status !== 'open') throw quizNotOpen();
  return quiz;
}

export async function submitQuizAnswers(
  ctx: Context,
  input: { quizId: string; answers: QuizAnswerChoice[] },
): Promise<QuizSubmission> {
  const quizId = checkId(input.quizId, 'quizId');
  const given = input.answers.map((a, i) => ({
    questionId: checkMember(a.questionId, `answers.${i}.questionId`),
    answerId: checkMember(a.answerId, `answers.${i}.answerId`),
  }));
  let quiz = await openQuiz(ctx, quizId);
  let scored = score(quiz, given);
  await spend(ctx.store, 'ip', ipKey(ctx.clientIp));
  if (ctx.viewer) await spend(ctx.store, 'interactions', ctx.viewer.customerId);

  for (let attempt = 0; ; attempt++) {
    const { filter, update } = countingUpdate(quiz, scored);
    const counted = await ctx.store
      .collection('quizzes')
      .findOneAndUpdate(filter, update, { returnDocument: 'after', projection: quizProjection });
    if (counted) {
      const result = scored.result && (counted.results[scored.r] ?? scored.result);
      return { quiz: counted, score: scored.score, maxScore: scored.maxScore, result };
    }
    // Nothing was counted: closed (or gone) since it was read, or edited under the submission. Closed or gone
    // is final; an edit is scored again against the quiz as it is now, a few times at most.
    quiz = await openQuiz(ctx, quizId);
    if (attempt + 1 >= EDIT_RETRIES) throw quizChanged();
    scored = score(quiz, given);
  }
}
