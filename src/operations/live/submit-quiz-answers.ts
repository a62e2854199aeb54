// Use case: score a quiz submission and count it. The score is the sum of the chosen answers' points;
// the result is the first whose minimum..maximum holds the score. Every chosen answer's counter and the
// result's counter go up in one update guarded by `status: 'open'`, so a submission counts whole or not
// at all and parallel submissions never lose an increment. Drafts are invisible (NOT_FOUND, as on reads);
// a closed quiz is QUIZ_NOT_OPEN.
import type { Context } from '../../context.js';
import { badRequest } from '../../errors.js';
import type { QuizDoc, QuizResultDoc } from '../../store/content/elements.doc.js';
import { quizProjection } from '../../store/content/projections.js';
import { checkId } from '../content/input.js';
import { quizNotFound, quizNotOpen } from './live.errors.js';
import { ipKey, spend } from './limits.js';

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

function checkAnswers(quiz: QuizDoc, answers: QuizAnswerChoice[]): Array<{ questionId: string; answerId: string; points: number }> {
  if (answers.length === 0 || answers.length > MAX_ANSWERS) throw badRequest(`Give 1 to ${MAX_ANSWERS} answers`, [{ field: 'answers', message: 'Wrong number of answers' }]);
  const seen = new Set<string>();
  return answers.map((a, i) => {
    const question = quiz.questions.find((q) => q.id === a.questionId);
    if (!question) throw badRequest('An answer names a question that is not in the quiz', [{ field: `answers.${i}.questionId`, message: 'Not a question of this quiz' }]);
    if (seen.has(question.id)) throw badRequest('A question is answered twice', [{ field: `answers.${i}.questionId`, message: 'Answered twice' }]);
    seen.add(question.id);
    const answer = question.choices.find((c) => c.id === a.answerId);
    if (!answer) throw badRequest('An answer is not one of its question', [{ field: `answers.${i}.answerId`, message: 'Not an answer of this question' }]);
    return { questionId: question.id, answerId: answer.id, points: answer.points };
  });
}

type Chosen = ReturnType<typeof checkAnswers>;

/**
 * One `$inc` for the whole submission when answer ids are unique across the quiz (one array-filter
 * identifier per level with `$in`; two identifiers on one array are refused by the embedded engine).
 * Otherwise one update per answer, each still atomic and guarded by `status: 'open'`.
 */
async function countSubmission(ctx: Context, quiz: QuizDoc, chosen: Chosen, result: QuizResultDoc | null): Promise<QuizDoc | null> {
  const quizzes = ctx.store.collection('quizzes');
  const open = { _id: quiz._id, status: 'open' as const };
  const options = { returnDocument: 'after' as const, projection: quizProjection };
  const answerIds = quiz.questions.flatMap((q) => q.choices.map((c) => c.id));
  const resultInc = result ? { 'results.$[r].votes': 1 } : {};
  const resultFilter = result ? [{ 'r.id': result.id }] : [];
  if (new Set(answerIds).size === answerIds.length) {
    const arrayFilters = [{ 'q.id': { $in: chosen.map((a) => a.questionId) } }, { 'a.id': { $in: chosen.map((a) => a.answerId) } }, ...resultFilter];
    return quizzes.findOneAndUpdate(open, { $inc: { 'questions.$[q].choices.$[a].votes': 1, ...resultInc } }, { ...options, arrayFilters });
  }
  let counted: QuizDoc | null = null;
  for (const [i, a] of chosen.entries()) {
    const last = i === chosen.length - 1;
    const arrayFilters = [{ 'q.id': a.questionId }, { 'a.id': a.answerId }, ...(last ? resultFilter : [])];
    counted = await quizzes.findOneAndUpdate(open, { $inc: { 'questions.$[q].choices.$[a].votes': 1, ...(last ? resultInc : {}) } }, { ...options, arrayFilters });
    if (!counted) return null;
  }
  return counted;
}

export async function submitQuizAnswers(ctx: Context, input: { quizId: string; answers: QuizAnswerChoice[] }): Promise<QuizSubmission> {
  const quizId = checkId(input.quizId, 'quizId');
  const given = input.answers.map((a, i) => ({ questionId: checkId(a.questionId, `answers.${i}.questionId`), answerId: checkId(a.answerId, `answers.${i}.answerId`) }));
  const quiz = await ctx.store.collection('quizzes').findOne({ _id: quizId }, { projection: quizProjection });
  if (!quiz || quiz.status === 'draft') throw quizNotFound();
  if (quiz.status !== 'open') throw quizNotOpen();
  const chosen = checkAnswers(quiz, given);
  await spend(ctx.store, 'ip', ipKey(ctx.clientIp));
  if (ctx.viewer) await spend(ctx.store, 'interactions', ctx.viewer.customerId);

  const score = chosen.reduce((sum, a) => sum + a.points, 0);
  const maxScore = quiz.questions.reduce((sum, q) => sum + Math.max(0, ...q.choices.map((c) => c.points)), 0);
  const result = quiz.results.find((r) => r.minimum <= score && score <= r.maximum) ?? null;

  const counted = await countSubmission(ctx, quiz, chosen, result);
  if (!counted) throw quizNotOpen();
  return { quiz: counted, score, maxScore, result: result && (counted.results.find((r) => r.id === result.id) ?? result) };
}
