// Polls, quizzes and live blogs for the live tests, inserted straight into the test database.
import type { Db } from 'mongodb';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc } from '../../src/store/content/elements.doc.js';
import type { TestService } from '../helpers/service.js';
import { tokenFor, type IssuedTokens } from '../helpers/tokens.js';

export const openPoll = (id: string, extra: Partial<PollDoc> = {}): PollDoc => ({
  _id: id,
  timestamp: new Date('2026-01-01T00:00:00Z'),
  question: 'Best season?',
  choices: [
    { id: 'spring', text: 'Spring', votes: 0 },
    { id: 'summer', text: 'Summer', votes: 0 },
    { id: 'winter', text: 'Winter', votes: 0 },
  ],
  slug: id,
  category: null,
  message: null,
  onlyLoggedIn: true,
  endDate: null,
  closed: false,
  ...extra,
});

export const quiz = (id: string, status: QuizDoc['status'] = 'open'): QuizDoc => ({
  _id: id,
  name: 'Capitals',
  timestamp: new Date('2026-01-01T00:00:00Z'),
  image: null,
  coverPicture: null,
  description: null,
  share: null,
  template: null,
  allowForm: false,
  introductionMessage: null,
  thankyouMessage: null,
  terms: null,
  status,
  questions: [1, 2, 3].map((q) => ({
    id: `q${q}`,
    title: `Question ${q}`,
    resultText: null,
    image: null,
    choices: ['a', 'b'].map((letter) => ({
      id: `q${q}-${letter}`,
      text: letter,
      letter,
      image: null,
      correct: letter === 'a',
      points: letter === 'a' ? 10 : 0,
      votes: 0,
    })),
  })),
  results: [
    {
      id: 'low',
      result: 'Try again',
      image: null,
      letter: null,
      resultText: null,
      share: null,
      twitterShare: null,
      minimum: 0,
      maximum: 10,
      votes: 0,
    },
    {
      id: 'high',
      result: 'Well done',
      image: null,
      letter: null,
      resultText: null,
      share: null,
      twitterShare: null,
      minimum: 11,
      maximum: 30,
      votes: 0,
    },
  ],
});

export const liveBlog = (id: string, extra: Partial<LiveBlogDoc> = {}): LiveBlogDoc => ({
  _id: id,
  title: 'Match day',
  startDate: new Date('2026-01-01T12:00:00Z'),
  endDate: null,
  websocketRoomName: `room-${id}`,
  lastSeq: 0,
  ...extra,
});

/** The live blog messages collection, typed, for messages written straight into the store. */
export const liveMessages = (db: Db) => db.collection<LiveBlogMessageDoc>('liveBlogMessages');

/** A live blog message as another system (or a test) writes it straight into the store. */
export const liveMessage = (
  id: string,
  liveBlogId: string,
  seq: number,
  text: string,
  extra: Partial<LiveBlogMessageDoc> = {},
): LiveBlogMessageDoc => ({
  _id: id,
  liveBlogId,
  seq,
  timestamp: new Date(),
  text,
  title: null,
  minute: null,
  additionalMinute: null,
  typeId: null,
  imageLetter: null,
  highlight: false,
  htmlContent: null,
  userDisplayName: null,
  userThumbnailUrl: null,
  ...extra,
});

export async function insertLiveFixtures(db: Db): Promise<void> {
  await db
    .collection<PollDoc>('polls')
    .insertMany([
      openPoll('poll-open'),
      openPoll('poll-anon', { onlyLoggedIn: false }),
      openPoll('poll-closed', { closed: true }),
      openPoll('poll-ended', { endDate: new Date('2020-01-01T00:00:00Z') }),
      openPoll('poll-race'),
    ]);
  await db
    .collection<QuizDoc>('quizzes')
    .insertMany([quiz('quiz-open'), quiz('quiz-draft', 'draft'), quiz('quiz-closed', 'closed')]);
  await db.collection<LiveBlogDoc>('liveBlogs').insertMany([liveBlog('blog-1'), liveBlog('blog-2')]);
}

/** A customer token whose account carries the editor role. */
export async function editorToken(svc: TestService, email = 'editor@example.test'): Promise<IssuedTokens> {
  const tokens = await tokenFor(svc, { email, scopes: ['openid'] });
  await svc.db
    .collection('customers')
    .updateOne({ _id: tokens.customerId as never }, { $set: { roles: ['editor'], name: 'Ed Itor' } });
  return tokens;
}
