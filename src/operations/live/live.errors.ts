// The typed errors of polls, quizzes and live blogs (codes clients can rely on).
import { badRequest, conflict, notFound, type AppError } from '../../errors.js';

export const pollNotFound = (): AppError => notFound('NOT_FOUND', 'Not Found', 'No poll with this id');
export const quizNotFound = (): AppError => notFound('NOT_FOUND', 'Not Found', 'No quiz with this id');
export const liveBlogNotFound = (): AppError => notFound('NOT_FOUND', 'Not Found', 'No live blog with this id');
export const messageNotFound = (): AppError => notFound('NOT_FOUND', 'Not Found', 'No live-blog message with this id');
export const choiceNotInPoll = (): AppError =>
  badRequest('The choice is not one of the poll', [{ field: 'choiceId', message: 'Not a choice of this poll' }]);
export const pollClosed = (): AppError => conflict('POLL_CLOSED', 'The poll is closed or past its end date');
export const quizNotOpen = (): AppError => conflict('QUIZ_NOT_OPEN', 'The quiz is closed');
export const quizChanged = (): AppError =>
  conflict('QUIZ_CHANGED', 'The quiz was changed while the answers were counted; submit them again');
export const alreadyVoted = (): AppError =>
  conflict('ALREADY_VOTED', 'This voter has already voted for another choice of the poll');
