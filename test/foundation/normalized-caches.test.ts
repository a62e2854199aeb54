// The three normalized client caches frontends use, in their default configuration, against the running
// service: Apollo Client's InMemoryCache and urql's graphcache key objects by type and id, Relay's store by id
// alone. Two polls and two quizzes whose choices, questions, answers and results have the same keys (every poll
// has a `yes`) are read one after the other through one cache; each must then still read as itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jest } from '@jest/globals';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { buildSchema, introspectionFromSchema } from 'graphql';
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { createOperationDescriptor, fetchQuery, type ConcreteRequest, type OperationType } from 'relay-runtime';
import type { PollDoc, QuizDoc } from '../../src/store/content/elements.doc.js';
import { projectRoot } from '../../src/version.js';
import * as f from '../content/fixtures.js';
import { compileRelay, relayEnvironment, type Compiled } from '../helpers/relay.js';
import { startTestService, type TestService } from '../helpers/service.js';

// Only fields clients had before ids became graph-wide: what an existing frontend sends.
const POLL_AND_QUIZ = `query PollAndQuizQuery($poll: ID!, $quiz: ID!) {
  poll: node(id: $poll) { __typename id ... on Poll { question choices { id text votes } results { choiceId votes } } }
  quiz: node(id: $quiz) {
    __typename id
    ... on Quiz { name questions { id title choices { id text votes } } results { id result votes } }
  }
}`;

/** Same keys in both, different texts and counts: what a merged cache entry would give away. */
const poll = (id: string, yes: number, no: number): PollDoc => ({
  ...f.poll(id),
  question: `Question of ${id}?`,
  endDate: null,
  choices: [
    { id: 'yes', text: `Yes to ${id}`, votes: yes },
    { id: 'no', text: `No to ${id}`, votes: no },
  ],
});
const quiz = (id: string, votes: number): QuizDoc => {
  const base = f.quiz(id);
  return {
    ...base,
    questions: [
      {
        ...base.questions[0]!,
        title: `Question of ${id}`,
        choices: base.questions[0]!.choices.map((a) => ({ ...a, text: `${a.text} in ${id}`, votes })),
      },
    ],
    results: [{ ...base.results[0]!, result: `Result of ${id}`, votes }],
  };
};

type Answer = {
  poll: {
    id: string;
    question: string;
    choices: Array<{ id: string; text: string; votes: number }>;
    results: Array<{ choiceId: string; votes: number }>;
  };
  quiz: {
    id: string;
    name: string;
    questions: Array<{ id: string; title: string; choices: Array<{ id: string; text: string; votes: number }> }>;
    results: Array<{ id: string; result: string; votes: number }>;
  };
};

/** What each poll and quiz holds, as the client should read it back. */
const own = {
  'nc-poll-a': {
    question: 'Question of nc-poll-a?',
    choices: [
      ['Yes to nc-poll-a', 3],
      ['No to nc-poll-a', 1],
    ],
  },
  'nc-poll-b': {
    question: 'Question of nc-poll-b?',
    choices: [
      ['Yes to nc-poll-b', 20],
      ['No to nc-poll-b', 30],
    ],
  },
  'nc-quiz-a': {
    title: 'Question of nc-quiz-a',
    answers: [
      ['Ljubljana in nc-quiz-a', 5],
      ['Maribor in nc-quiz-a', 5],
    ],
    result: ['Result of nc-quiz-a', 5],
  },
  'nc-quiz-b': {
    title: 'Question of nc-quiz-b',
    answers: [
      ['Ljubljana in nc-quiz-b', 70],
      ['Maribor in nc-quiz-b', 70],
    ],
    result: ['Result of nc-quiz-b', 70],
  },
} as const;

function expectOwn(answer: Answer, pollId: 'nc-poll-a' | 'nc-poll-b', quizId: 'nc-quiz-a' | 'nc-quiz-b'): void {
  const p = own[pollId];
  expect({
    id: answer.poll.id,
    question: answer.poll.question,
    choices: answer.poll.choices.map((c) => [c.text, c.votes]),
    results: answer.poll.results.map((r) => r.votes),
  }).toEqual({ id: pollId, question: p.question, choices: p.choices, results: p.choices.map(([, votes]) => votes) });
  // The results name the choices by the choices' own ids.
  expect(answer.poll.results.map((r) => r.choiceId)).toEqual(answer.poll.choices.map((c) => c.id));
  const q = own[quizId];
  expect({
    id: answer.quiz.id,
    questions: answer.quiz.questions.map((question) => ({
      title: question.title,
      answers: question.choices.map((a) => [a.text, a.votes]),
    })),
    results: answer.quiz.results.map((r) => [r.result, r.votes]),
  }).toEqual({ id: quizId, questions: [{ title: q.title, answers: q.answers }], results: [q.result] });
}

let svc: TestService;
let compiled: Compiled;
let relayQuery: ConcreteRequest;

beforeAll(async () => {
  svc = await startTestService({
    beforeStart: async (store) => {
      await f.insert(store.db, {
        polls: [poll('nc-poll-a', 3, 1), poll('nc-poll-b', 20, 30)],
        quizzes: [quiz('nc-quiz-a', 5), quiz('nc-quiz-b', 70)],
      });
    },
  });
  // Relay reads only what its compiler wrote: the query compiled against schema.graphql, as a Relay app builds it.
  compiled = await compileRelay('Elements', `import { graphql } from 'relay-runtime';\ngraphql\`${POLL_AND_QUIZ}\`;\n`);
  relayQuery = compiled.artifacts.PollAndQuizQuery as ConcreteRequest;
}, 60_000);

afterAll(async () => {
  await svc?.close();
  compiled?.remove();
});

const A = { poll: 'nc-poll-a', quiz: 'nc-quiz-a' } as const;
const B = { poll: 'nc-poll-b', quiz: 'nc-quiz-b' } as const;

test('Apollo Client InMemoryCache: each poll and quiz keeps its own choices, questions, answers and results', async () => {
  const client = new ApolloClient({
    link: new HttpLink({ uri: `${svc.url}/graphql`, fetch }),
    cache: new InMemoryCache(),
  });
  const query = gql(POLL_AND_QUIZ);
  try {
    for (const vars of [A, B]) {
      const { data, error } = await client.query({ query, variables: vars, fetchPolicy: 'network-only' });
      expect(error).toBeUndefined();
      expectOwn(data as Answer, vars.poll, vars.quiz);
    }
    // Both read back from the one cache, after both were written.
    expectOwn(client.readQuery({ query, variables: A }) as Answer, A.poll, A.quiz);
    expectOwn(client.readQuery({ query, variables: B }) as Answer, B.poll, B.quiz);
  } finally {
    client.stop();
  }
});

/** Reads both polls and quizzes through `client`, from the network and then from its cache alone. */
async function readThroughUrql(client: Client): Promise<void> {
  for (const vars of [A, B]) {
    const { data, error } = await client.query(POLL_AND_QUIZ, vars, { requestPolicy: 'network-only' }).toPromise();
    expect(error).toBeUndefined();
    expectOwn(data as Answer, vars.poll, vars.quiz);
  }
  for (const vars of [A, B]) {
    const cached = await client.query(POLL_AND_QUIZ, vars, { requestPolicy: 'cache-only' }).toPromise();
    expect(cached.operation.context.meta?.cacheOutcome).toBe('hit');
    expectOwn(cached.data as Answer, vars.poll, vars.quiz);
  }
}

test('urql with graphcache: each poll and quiz keeps its own choices, questions, answers and results', async () => {
  // urql's defaults throughout: queries go as GET, and graphcache has no configuration. In development it warns
  // about objects without an id (it keeps them inside their parent, as the README says): that warning only.
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    await readThroughUrql(new Client({ url: `${svc.url}/graphql`, exchanges: [cacheExchange(), fetchExchange] }));
    const warned = warn.mock.calls.map(([message]) => String(message));
    expect(warned.filter((m) => !/^Invalid key: .* no key could be generated/s.test(m))).toEqual([]);
  } finally {
    warn.mockRestore();
  }
});

test('urql with graphcache configured as the README shows: the same answers, and no warning in development', async () => {
  // The README's recipe: the schema's introspection (what @urql/introspection or codegen's introspection plugin
  // writes), and every object type without an id kept inside its parent.
  const schema = introspectionFromSchema(buildSchema(readFileSync(join(projectRoot, 'schema.graphql'), 'utf8')));
  const keys = Object.fromEntries(
    schema.__schema.types
      .filter((t) => t.kind === 'OBJECT' && !t.fields.some((f) => f.name === 'id'))
      .map((t) => [t.name, () => null]),
  );
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  try {
    await readThroughUrql(
      new Client({ url: `${svc.url}/graphql`, exchanges: [cacheExchange({ schema, keys }), fetchExchange] }),
    );
    expect(warn.mock.calls).toEqual([]);
  } finally {
    warn.mockRestore();
  }
});

test('Relay: each poll and quiz keeps its own choices, questions, answers and results', async () => {
  const env = relayEnvironment(`${svc.url}/graphql`, ({ status }) => expect(status).toBe(200));
  for (const vars of [A, B]) {
    const data = await fetchQuery<OperationType>(env, relayQuery, vars).toPromise();
    expectOwn(data as unknown as Answer, vars.poll, vars.quiz);
  }
  for (const vars of [A, B]) {
    const snapshot = env.lookup(createOperationDescriptor(relayQuery, vars).fragment);
    expect(snapshot.isMissingData).toBe(false);
    expectOwn(snapshot.data as unknown as Answer, vars.poll, vars.quiz);
  }
  // Relay keys its store by id alone: every choice, question, answer and result has a record of its own.
  const records = env.getStore().getSource().getRecordIDs();
  const typeOf = (id: string) => env.getStore().getSource().get(id)?.__typename;
  const byType = (type: string) => records.filter((id) => typeOf(id) === type).length;
  expect([byType('PollChoice'), byType('QuizQuestion'), byType('QuizAnswer'), byType('QuizResult')]).toEqual([
    4, 2, 4, 2,
  ]);
});

test('every id is unique across the whole answer, and votes and submissions take ids or keys', async () => {
  const { body } = await svc.gql<Answer>(POLL_AND_QUIZ, A);
  const ids = JSON.stringify(body.data).match(/"id":"[^"]+"/g)!;
  expect(new Set(ids).size).toBe(ids.length);
  const choice = body.data!.poll.choices[0]!;
  expect(choice.id).toBe('PollChoice:nc-poll-a:yes');
  // The keys are still there, under their own names.
  const keys = await svc.gql<{ node: { choices: Array<{ key: string }>; results: Array<{ choiceKey: string }> } }>(
    'query($id: ID!) { node(id: $id) { ... on Poll { choices { key } results { choiceKey } } } }',
    { id: 'nc-poll-a' },
  );
  expect(keys.body.data!.node).toEqual({
    choices: [{ key: 'yes' }, { key: 'no' }],
    results: [{ choiceKey: 'yes' }, { choiceKey: 'no' }],
  });

  const VOTE =
    'mutation($poll: ID!, $choice: ID!) { voteInPoll(pollId: $poll, choiceId: $choice) { votedChoice votedChoiceKey choices { id votes } } }';
  const byId = await svc.gql<{
    voteInPoll: { votedChoice: string; votedChoiceKey: string; choices: Array<{ id: string; votes: number }> };
  }>(VOTE, { poll: 'nc-poll-a', choice: choice.id });
  expect(byId.body.errors).toBeUndefined();
  expect(byId.body.data!.voteInPoll).toMatchObject({
    votedChoice: choice.id,
    votedChoiceKey: 'yes',
    choices: [{ id: choice.id, votes: 4 }, expect.anything()],
  });
  const byKey = await svc.gql<{ voteInPoll: { choices: Array<{ votes: number }> } }>(VOTE, {
    poll: 'nc-poll-b',
    choice: 'no',
  });
  expect(byKey.body.data!.voteInPoll.choices.map((c) => c.votes)).toEqual([20, 31]);
  // Another poll's choice id is not a choice of this one.
  const other = await svc.gql(VOTE, { poll: 'nc-poll-b', choice: 'PollChoice:nc-poll-a:no' });
  expect(other.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

  const SUBMIT =
    'mutation($quiz: ID!, $answers: [QuizAnswerInput!]!) { submitQuizAnswers(quizId: $quiz, answers: $answers) { score result { id key } } }';
  const question = body.data!.quiz.questions[0]!;
  const submitted = await svc.gql<{ submitQuizAnswers: { score: number; result: { id: string; key: string } } }>(
    SUBMIT,
    {
      quiz: 'nc-quiz-a',
      answers: [{ questionId: question.id, answerId: question.choices[0]!.id }],
    },
  );
  expect(submitted.body.errors).toBeUndefined();
  expect(submitted.body.data!.submitQuizAnswers).toEqual({
    score: 10,
    result: { id: 'QuizResult:nc-quiz-a:r1', key: 'r1' },
  });
  const byKeys = await svc.gql<{ submitQuizAnswers: { score: number } }>(SUBMIT, {
    quiz: 'nc-quiz-b',
    answers: [{ questionId: 'q1', answerId: 'a2' }],
  });
  expect(byKeys.body.data!.submitQuizAnswers.score).toBe(0);
  // An answer id of another quiz's question does not count here.
  const crossed = await svc.gql(SUBMIT, {
    quiz: 'nc-quiz-b',
    answers: [{ questionId: 'q1', answerId: question.choices[0]!.id }],
  });
  expect(crossed.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
});
