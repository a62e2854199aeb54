// The interactive writes through the real service count whole or not at all: a quiz submission is one
// store write (repeated answer ids across questions included) that a concurrent close cannot split; a vote
// whose count fails (a store error, or the poll closed meanwhile) leaves no record behind, so a retry counts
// it; a post whose number another system took steps to the next number instead of failing with the blog's
// counter spent.
import type { CommandStartedEvent } from 'mongodb';
import type { LiveBlogDoc, LiveBlogMessageDoc, PollDoc, QuizDoc } from '../../src/store/content/elements.doc.js';
import { startMonitoredService, type MonitoredService } from '../helpers/monitored.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { editorToken, liveBlog, liveMessage, openPoll, quiz } from './fixtures.js';

type Body = { data?: any; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> };
const code = (body: Body) => body.errors?.[0]?.extensions?.code;

const SUBMIT = `mutation($quizId: ID!, $answers: [QuizAnswerInput!]!) {
  submitQuizAnswers(quizId: $quizId, answers: $answers) { score result { id votes } quiz { questions { id choices { id votes } } results { id votes } } }
}`;

/** A quiz whose questions all offer the same answer ids, `yes` (10 points) and `no` (0). */
function sameIdsQuiz(id: string, questions: number): QuizDoc {
  const base = quiz(id);
  return {
    ...base,
    questions: Array.from({ length: questions }, (_, i) => ({
      id: `q${i + 1}`,
      title: `Question ${i + 1}`,
      resultText: null,
      image: null,
      choices: [
        { id: 'yes', text: 'Yes', letter: 'a', image: null, correct: true, points: 10, votes: 0 },
        { id: 'no', text: 'No', letter: 'b', image: null, correct: false, points: 0, votes: 0 },
      ],
    })),
    results: [
      { ...base.results[0]!, id: 'low', minimum: 0, maximum: 10 * Math.floor(questions / 2) },
      { ...base.results[1]!, id: 'high', minimum: 10 * Math.floor(questions / 2) + 1, maximum: 10 * questions },
    ],
  };
}

describe('submitQuizAnswers', () => {
  let svc: MonitoredService;

  beforeAll(async () => {
    svc = await startMonitoredService({
      prefix: 'quizwrite',
      beforeStart: async (_store, db) => {
        await db
          .collection<QuizDoc>('quizzes')
          .insertMany([sameIdsQuiz('quiz-same', 3), sameIdsQuiz('quiz-count', 5), sameIdsQuiz('quiz-race', 12)]);
      },
    });
  });
  afterAll(() => svc.close());

  async function submit(quizId: string, answers: Array<{ questionId: string; answerId: string }>): Promise<Body> {
    const res = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: SUBMIT, variables: { quizId, answers } }),
    });
    return (await res.json()) as Body;
  }

  const stored = (id: string) => svc.db.collection<QuizDoc>('quizzes').findOne({ _id: id });

  test('answer ids repeated across questions are counted on their own question only', async () => {
    const body = await submit('quiz-same', [
      { questionId: 'q1', answerId: 'yes' },
      { questionId: 'q2', answerId: 'no' },
      { questionId: 'q3', answerId: 'yes' },
    ]);
    expect(body.errors).toBeUndefined();
    expect(body.data.submitQuizAnswers.score).toBe(20);
    expect(body.data.submitQuizAnswers.result).toEqual({ id: 'QuizResult:quiz-same:high', votes: 1 });
    const counts = (q: QuizDoc | { questions: QuizDoc['questions'] }) =>
      q.questions.map((question) => question.choices.map((c) => c.votes));
    expect(counts(body.data.submitQuizAnswers.quiz)).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    const after = (await stored('quiz-same'))!;
    expect(counts(after)).toEqual([
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
    expect(after.results.map((r) => r.votes)).toEqual([0, 1]);

    // A second submission adds to the same counters.
    const again = await submit('quiz-same', [{ questionId: 'q2', answerId: 'no' }]);
    expect(again.errors).toBeUndefined();
    expect(counts((await stored('quiz-same'))!)).toEqual([
      [1, 0],
      [0, 2],
      [1, 0],
    ]);
  });

  test('one submission costs the same store commands whatever the number of answers', async () => {
    const sent = async (answers: number): Promise<string[]> => {
      svc.commands.length = 0;
      const body = await submit(
        'quiz-count',
        Array.from({ length: answers }, (_, i) => ({ questionId: `q${i + 1}`, answerId: i % 2 ? 'no' : 'yes' })),
      );
      expect(body.errors).toBeUndefined();
      // Change streams (the live hub, cache invalidation) poll on their own: only the request's commands count.
      return svc.commands
        .filter((c: CommandStartedEvent) => !['getMore', 'aggregate', 'killCursors'].includes(c.commandName))
        .map((c) => `${c.commandName}:${String(c.command[c.commandName])}`)
        .sort();
    };
    const one = await sent(1);
    const five = await sent(5);
    expect(five).toEqual(one);
    expect(five.filter((c) => c.endsWith(':quizzes'))).toEqual(['find:quizzes', 'findAndModify:quizzes']);
    const counted = (await stored('quiz-count'))!;
    expect(counted.questions.map((q) => q.choices.map((c) => c.votes))).toEqual([
      [2, 0],
      [0, 1],
      [1, 0],
      [0, 1],
      [1, 0],
    ]);
  });

  test('a quiz closed while submissions run: each submission counts whole or not at all', async () => {
    const submissions = 40;
    const answers = (n: number) =>
      Array.from({ length: 12 }, (_, i) => ({ questionId: `q${i + 1}`, answerId: (n + i) % 3 === 0 ? 'no' : 'yes' }));
    const running = Array.from({ length: submissions }, (_, n) => submit('quiz-race', answers(n)));
    // Close it as soon as the first answer is back, while the others are still on their way.
    await Promise.race(running);
    await svc.db.collection<QuizDoc>('quizzes').updateOne({ _id: 'quiz-race' }, { $set: { status: 'closed' } });
    const bodies = await Promise.all(running);

    const outcomes = bodies.map((b) => code(b) ?? 'ok');
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'QUIZ_NOT_OPEN')).toEqual([]);
    const accepted = bodies.flatMap((b, n) => (b.errors ? [] : [n]));
    expect(accepted.length).toBeGreaterThan(0);

    // Every accepted submission is in every question's counters and in one result; nothing else is.
    const after = (await stored('quiz-race'))!;
    after.questions.forEach((question, i) => {
      const expected = { yes: 0, no: 0 };
      for (const n of accepted) expected[answers(n)[i]!.answerId as 'yes' | 'no'] += 1;
      expect({ question: question.id, yes: question.choices[0]!.votes, no: question.choices[1]!.votes }).toEqual({
        question: question.id,
        ...expected,
      });
    });
    expect(after.results.reduce((sum, r) => sum + r.votes, 0)).toBe(accepted.length);
  });
});

describe('voteInPoll and postLiveBlogMessage', () => {
  let svc: TestService;
  let alice: IssuedTokens;
  let editor: IssuedTokens;

  beforeAll(async () => {
    // Behind one trusted proxy, so anonymous voters can come from many addresses (X-Forwarded-For).
    svc = await startTestService({
      env: { TRUST_PROXY: '1' },
      beforeStart: async (store) => {
        await store.db.collection<PollDoc>('polls').insertMany([openPoll('poll-broken')]);
        await store.db.collection<LiveBlogDoc>('liveBlogs').insertMany([liveBlog('blog-foreign')]);
      },
    });
    alice = await tokenFor(svc, { email: 'alice-integrity@example.test', scopes: ['openid'] });
    editor = await editorToken(svc, 'editor-integrity@example.test');
  });
  afterAll(() => svc.close());

  const VOTE = `mutation($pollId: ID!, $choiceId: ID!) { voteInPoll(pollId: $pollId, choiceId: $choiceId) { id voted votedChoice choices { id votes } } }`;
  const VOTED = `query($id: ID!) { node(id: $id) { ... on Poll { voted votedChoice choices { id votes } } } }`;

  test('a vote whose count the store refuses is withdrawn: the voter has not voted, and a retry counts', async () => {
    const polls = svc.db.collection<PollDoc>('polls');
    // Another system put a unique index on the counters, and another poll already holds a count of 1: the store
    // refuses the count (a duplicate key) after the vote is recorded.
    await polls.insertOne(openPoll('poll-holding-one', { choices: [{ id: 'yes', text: 'Yes', votes: 1 }] }));
    await polls.createIndex({ 'choices.votes': 1 }, { unique: true, name: 'foreign_unique_votes' });
    const failed = await svc.gql(VOTE, { pollId: 'poll-broken', choiceId: 'summer' }, bearer(alice.accessToken));
    expect(failed.body.errors).toHaveLength(1);
    expect(failed.body.data?.voteInPoll ?? null).toBeNull();
    expect(await svc.db.collection('pollVotes').countDocuments({ pollId: 'poll-broken' })).toBe(0);

    // The poll shows that the voter has not voted; once the index is gone, the same vote again is counted (not
    // taken for an already-counted repeat).
    const read = await svc.gql(VOTED, { id: 'poll-broken' }, bearer(alice.accessToken));
    expect(read.body).toEqual({
      data: {
        node: {
          voted: false,
          votedChoice: null,
          choices: [
            { id: 'PollChoice:poll-broken:spring', votes: 0 },
            { id: 'PollChoice:poll-broken:summer', votes: 0 },
            { id: 'PollChoice:poll-broken:winter', votes: 0 },
          ],
        },
      },
    });
    await polls.dropIndex('foreign_unique_votes');
    const retried = await svc.gql(VOTE, { pollId: 'poll-broken', choiceId: 'summer' }, bearer(alice.accessToken));
    expect(retried.body.errors).toBeUndefined();
    expect(retried.body.data).toEqual({
      voteInPoll: {
        id: 'poll-broken',
        voted: true,
        votedChoice: 'PollChoice:poll-broken:summer',
        choices: [
          { id: 'PollChoice:poll-broken:spring', votes: 0 },
          { id: 'PollChoice:poll-broken:summer', votes: 1 },
          { id: 'PollChoice:poll-broken:winter', votes: 0 },
        ],
      },
    });
    expect(await svc.db.collection('pollVotes').countDocuments({ pollId: 'poll-broken' })).toBe(1);
  });

  test('a poll closed while votes run: every vote record is counted and every count has its record', async () => {
    await svc.db.collection<PollDoc>('polls').insertOne(openPoll('poll-closing', { onlyLoggedIn: false }));
    const voters = 40;
    const vote = (i: number) =>
      fetch(`${svc.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
        body: JSON.stringify({
          query: VOTE,
          variables: { pollId: 'poll-closing', choiceId: ['spring', 'summer', 'winter'][i % 3] },
        }),
      }).then(async (res) => (await res.json()) as Body);
    const running = Array.from({ length: voters }, (_, i) => vote(i));
    await Promise.race(running);
    await svc.db.collection<PollDoc>('polls').updateOne({ _id: 'poll-closing' }, { $set: { closed: true } });
    const bodies = await Promise.all(running);

    const outcomes = bodies.map((b) => code(b) ?? 'ok');
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'POLL_CLOSED')).toEqual([]);
    const accepted = outcomes.filter((o) => o === 'ok').length;
    expect(accepted).toBeGreaterThan(0);
    const poll = (await svc.db.collection<PollDoc>('polls').findOne({ _id: 'poll-closing' }))!;
    expect(poll.choices.reduce((sum, c) => sum + c.votes, 0)).toBe(accepted);
    expect(await svc.db.collection('pollVotes').countDocuments({ pollId: 'poll-closing' })).toBe(accepted);
  });

  test('a post whose number another system already used takes the next number', async () => {
    const POST = `mutation($id: ID!, $input: LiveBlogMessageInput!) { postLiveBlogMessage(liveBlogId: $id, input: $input) { id text } }`;
    // A message written straight into the store with the next number, without bumping the blog's counter.
    const foreign: LiveBlogMessageDoc = liveMessage(
      'blog-foreign-message-1',
      'blog-foreign',
      1,
      'From the wire service',
    );
    await svc.db.collection<LiveBlogMessageDoc>('liveBlogMessages').insertOne(foreign);

    const res = await svc.gql(POST, { id: 'blog-foreign', input: { text: 'Kick-off' } }, bearer(editor.accessToken));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({ postLiveBlogMessage: { id: 'blog-foreign-message-2', text: 'Kick-off' } });
    const blog = await svc.db.collection('liveBlogs').findOne({ _id: 'blog-foreign' as never });
    expect(blog!.lastSeq).toBe(2);
    const messages = await svc.db
      .collection<LiveBlogMessageDoc>('liveBlogMessages')
      .find({ liveBlogId: 'blog-foreign' }, { sort: { seq: 1 } })
      .toArray();
    expect(messages.map((m) => [m._id, m.seq, m.text])).toEqual([
      ['blog-foreign-message-1', 1, 'From the wire service'],
      ['blog-foreign-message-2', 2, 'Kick-off'],
    ]);
  });
});
