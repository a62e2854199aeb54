// The interactive mutations through the real service: poll votes (one per voter, exact counts under
// concurrency, refusals with clear codes), quiz submissions, and live-blog posting by editors only.
import { createLogger } from '../../src/logger.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { bearer, tokenFor, type IssuedTokens } from '../helpers/tokens.js';
import { editorToken, insertLiveFixtures } from './fixtures.js';

let svc: TestService;
let alice: IssuedTokens;
let editor: IssuedTokens;

beforeAll(async () => {
  svc = await startTestService({ beforeStart: (store) => insertLiveFixtures(store.db) });
  alice = await tokenFor(svc, { email: 'alice@example.test', scopes: ['openid'] });
  editor = await editorToken(svc);
});
afterAll(() => svc.close());

const VOTE = `mutation($pollId: ID!, $choiceId: ID!) { voteInPoll(pollId: $pollId, choiceId: $choiceId) { id votes voted votedChoice choices { id votes } results { choiceId votes percentage } } }`;
const code = (body: { errors?: Array<{ extensions?: Record<string, unknown> }> }) => body.errors?.[0]?.extensions?.code;

describe('voteInPoll', () => {
  test('a customer votes once; the poll comes back with the vote counted and voted set', async () => {
    const res = await svc.gql(VOTE, { pollId: 'poll-open', choiceId: 'summer' }, bearer(alice.accessToken));
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      voteInPoll: expect.objectContaining({
        id: 'poll-open',
        votes: 1,
        voted: true,
        votedChoice: 'PollChoice:poll-open:summer',
      }),
    });
    // The same vote again is harmless; another choice is refused.
    const again = await svc.gql(VOTE, { pollId: 'poll-open', choiceId: 'summer' }, bearer(alice.accessToken));
    expect(again.body.data).toEqual({
      voteInPoll: expect.objectContaining({ votes: 1, votedChoice: 'PollChoice:poll-open:summer' }),
    });
    const other = await svc.gql(VOTE, { pollId: 'poll-open', choiceId: 'winter' }, bearer(alice.accessToken));
    expect(code(other.body)).toBe('ALREADY_VOTED');
    const read = await svc.db.collection('polls').findOne({ _id: 'poll-open' as never });
    expect(read!.choices).toEqual([
      { id: 'spring', text: 'Spring', votes: 0 },
      { id: 'summer', text: 'Summer', votes: 1 },
      { id: 'winter', text: 'Winter', votes: 0 },
    ]);
  });

  test('refusals: unknown poll, choice not in the poll, closed and ended polls, anonymous on a members poll', async () => {
    const auth = bearer(alice.accessToken);
    expect(code((await svc.gql(VOTE, { pollId: 'no-such-poll', choiceId: 'summer' }, auth)).body)).toBe('NOT_FOUND');
    expect(code((await svc.gql(VOTE, { pollId: 'poll-open', choiceId: 'autumn' }, auth)).body)).toBe('BAD_USER_INPUT');
    expect(code((await svc.gql(VOTE, { pollId: 'poll-closed', choiceId: 'summer' }, auth)).body)).toBe('POLL_CLOSED');
    expect(code((await svc.gql(VOTE, { pollId: 'poll-ended', choiceId: 'summer' }, auth)).body)).toBe('POLL_CLOSED');
    expect(code((await svc.gql(VOTE, { pollId: 'poll-open', choiceId: 'x"}' }, auth)).body)).toBe('BAD_USER_INPUT');
    expect(code((await svc.gql(VOTE, { pollId: 'poll-open', choiceId: 'spring' })).body)).toBe('UNAUTHENTICATED');
    const counts = await svc.db
      .collection('polls')
      .find({ _id: { $in: ['poll-closed', 'poll-ended'] } as never })
      .toArray();
    expect(counts.flatMap((p) => p.choices.map((c: { votes: number }) => c.votes))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  test('closed reads as the vote check decides: true for a poll closed by an editor or past its end date', async () => {
    const read = await svc.gql(
      `{ nodes(ids: ["poll-open", "poll-closed", "poll-ended"]) { ... on Poll { id closed } } }`,
    );
    expect(read.body.data).toEqual({
      nodes: [
        { id: 'poll-open', closed: false },
        { id: 'poll-closed', closed: true },
        { id: 'poll-ended', closed: true },
      ],
    });
    // The stored flag of the ended poll still says open: the end date alone closes it.
    expect((await svc.db.collection('polls').findOne({ _id: 'poll-ended' as never }))!.closed).toBe(false);
  });

  test('anonymous votes on an open-to-all poll count, up to the per-IP limit', async () => {
    const results: unknown[] = [];
    for (let i = 0; i < 6; i++)
      results.push(code((await svc.gql(VOTE, { pollId: 'poll-anon', choiceId: 'spring' })).body) ?? 'ok');
    expect(results).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'RATE_LIMITED']);
    const poll = await svc.db.collection('polls').findOne({ _id: 'poll-anon' as never });
    expect(poll!.choices[0].votes).toBe(5);
  });

  test('many parallel voters: the totals match the votes exactly', async () => {
    const voters = 40;
    const ids = Array.from({ length: voters }, (_, i) => `voter-${i}`);
    // Votes need customers, not tokens: insert votes through the operation with distinct viewers.
    const { voteInPoll } = await import('../../src/operations/live/vote-in-poll.js');
    const { createContext } = await import('../../src/context.js');
    const base = {
      requestId: 't',
      log: createLogger('silent'),
      config: svc.config,
      store: svc.store,
      mailer: undefined as never,
    };
    const choices = ['spring', 'summer', 'winter'];
    const outcomes = await Promise.allSettled(
      ids.flatMap((customerId, i) => {
        const viewer = { customerId, scopes: new Set<string>(), entitlements: async () => [] };
        // Each voter votes twice at once for the same choice: still one vote each.
        const vote = () =>
          voteInPoll(createContext({ ...base, viewer, clientIp: `10.0.${i}.1` }), {
            pollId: 'poll-race',
            choiceId: choices[i % 3]!,
          });
        return [vote(), vote()];
      }),
    );
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const poll = await svc.db.collection('polls').findOne({ _id: 'poll-race' as never });
    expect(poll!.choices.map((c: { votes: number }) => c.votes)).toEqual([14, 13, 13]);
    expect(await svc.db.collection('pollVotes').countDocuments({ pollId: 'poll-race' })).toBe(voters);
  });
});

const SUBMIT = `mutation($quizId: ID!, $answers: [QuizAnswerInput!]!) { submitQuizAnswers(quizId: $quizId, answers: $answers) { score maxScore result { id votes } quiz { questions { choices { id votes } } } } }`;

describe('submitQuizAnswers', () => {
  test('scores the answers, picks the result by score and counts answers and result', async () => {
    const answers = [
      { questionId: 'q1', answerId: 'q1-a' },
      { questionId: 'q2', answerId: 'q2-a' },
      { questionId: 'q3', answerId: 'q3-b' },
    ];
    const res = await svc.gql(SUBMIT, { quizId: 'quiz-open', answers });
    expect(res.body.errors).toBeUndefined();
    const out = (
      res.body.data as {
        submitQuizAnswers: {
          score: number;
          maxScore: number;
          result: unknown;
          quiz: { questions: Array<{ choices: Array<{ id: string; votes: number }> }> };
        };
      }
    ).submitQuizAnswers;
    expect(out.score).toBe(20);
    expect(out.maxScore).toBe(30);
    expect(out.result).toEqual({ id: 'QuizResult:quiz-open:high', votes: 1 });
    expect(out.quiz.questions.flatMap((q) => q.choices.map((c) => c.votes))).toEqual([1, 0, 1, 0, 0, 1]);
  });

  test('refusals: draft (hidden) and closed quizzes, foreign answers, a question answered twice', async () => {
    const one = [{ questionId: 'q1', answerId: 'q1-a' }];
    expect(code((await svc.gql(SUBMIT, { quizId: 'quiz-draft', answers: one })).body)).toBe('NOT_FOUND');
    expect(code((await svc.gql(SUBMIT, { quizId: 'nope', answers: one })).body)).toBe('NOT_FOUND');
    expect(code((await svc.gql(SUBMIT, { quizId: 'quiz-closed', answers: one })).body)).toBe('QUIZ_NOT_OPEN');
    expect(
      code((await svc.gql(SUBMIT, { quizId: 'quiz-open', answers: [{ questionId: 'q1', answerId: 'q2-a' }] })).body),
    ).toBe('BAD_USER_INPUT');
    expect(code((await svc.gql(SUBMIT, { quizId: 'quiz-open', answers: [...one, ...one] })).body)).toBe(
      'BAD_USER_INPUT',
    );
    expect(code((await svc.gql(SUBMIT, { quizId: 'quiz-open', answers: [] })).body)).toBe('BAD_USER_INPUT');
  });
});

const POST = `mutation($id: ID!, $input: LiveBlogMessageInput!) { postLiveBlogMessage(liveBlogId: $id, input: $input) { id liveBlogId text title highlight userDisplayName editedAt } }`;
const EDIT = `mutation($id: ID!, $input: LiveBlogMessageChangesInput!) { editLiveBlogMessage(messageId: $id, input: $input) { id text title editedAt } }`;
const DELETE = `mutation($id: ID!) { deleteLiveBlogMessage(messageId: $id) { id liveBlogId } }`;

describe('live-blog posting', () => {
  test('an editor posts, edits and deletes; the blog preview follows', async () => {
    const auth = bearer(editor.accessToken);
    const posted = await svc.gql(POST, { id: 'blog-1', input: { text: 'Kick-off!', highlight: true } }, auth);
    expect(posted.body).toEqual({
      data: {
        postLiveBlogMessage: {
          id: 'blog-1-message-1',
          liveBlogId: 'blog-1',
          text: 'Kick-off!',
          title: null,
          highlight: true,
          userDisplayName: 'Ed Itor',
          editedAt: null,
        },
      },
    });
    const second = await svc.gql(POST, { id: 'blog-1', input: { text: 'Goal', title: '1-0' } }, auth);
    expect(second.body.data).toEqual({ postLiveBlogMessage: expect.objectContaining({ id: 'blog-1-message-2' }) });

    const edited = await svc.gql(EDIT, { id: 'blog-1-message-2', input: { text: 'Goal!!' } }, auth);
    expect(edited.body.data).toEqual({
      editLiveBlogMessage: { id: 'blog-1-message-2', text: 'Goal!!', title: '1-0', editedAt: expect.any(String) },
    });

    const deleted = await svc.gql(DELETE, { id: 'blog-1-message-1' }, auth);
    expect(deleted.body.data).toEqual({ deleteLiveBlogMessage: { id: 'blog-1-message-1', liveBlogId: 'blog-1' } });
    expect(code((await svc.gql(DELETE, { id: 'blog-1-message-1' }, auth)).body)).toBe('NOT_FOUND');
    expect(await svc.db.collection('liveBlogMessages').countDocuments({ liveBlogId: 'blog-1' })).toBe(1);
  });

  test('ordinary customers get FORBIDDEN, anonymous callers UNAUTHENTICATED; nothing is written', async () => {
    expect(code((await svc.gql(POST, { id: 'blog-2', input: { text: 'hi' } }, bearer(alice.accessToken))).body)).toBe(
      'FORBIDDEN',
    );
    expect(code((await svc.gql(POST, { id: 'blog-2', input: { text: 'hi' } })).body)).toBe('UNAUTHENTICATED');
    expect(code((await svc.gql(DELETE, { id: 'blog-1-message-2' }, bearer(alice.accessToken))).body)).toBe('FORBIDDEN');
    expect(await svc.db.collection('liveBlogMessages').countDocuments({ liveBlogId: 'blog-2' })).toBe(0);
  });

  test('bad input: unknown blog NOT_FOUND, empty text and empty edits BAD_USER_INPUT', async () => {
    const auth = bearer(editor.accessToken);
    expect(code((await svc.gql(POST, { id: 'no-blog', input: { text: 'hi' } }, auth)).body)).toBe('NOT_FOUND');
    expect(code((await svc.gql(POST, { id: 'blog-2', input: { text: '   ' } }, auth)).body)).toBe('BAD_USER_INPUT');
    expect(code((await svc.gql(EDIT, { id: 'blog-1-message-2', input: {} }, auth)).body)).toBe('BAD_USER_INPUT');
    expect(code((await svc.gql(EDIT, { id: 'nope', input: { text: 'x' } }, auth)).body)).toBe('NOT_FOUND');
  });
});
