// Every client mistake on /graphql is a 4xx with a stable code, the request id, no stack, and is logged below
// error level (GraphQL over HTTP with application/graphql-response+json: request errors are 400).
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startService, type RunningService } from '../../src/server.js';
import { Store } from '../../src/store/store.js';
import { openTestDb } from '../helpers/db.js';

const GRAPHQL_RESPONSE = 'application/graphql-response+json';
const logged: Array<{ level: number; msg: string }> = [];
let service: RunningService;
let closeDb: () => Promise<void>;

beforeAll(async () => {
  const db = await openTestDb('errs');
  closeDb = db.close;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        logged.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    RESPONSE_CACHE_MB: '0',
    LOG_LEVEL: 'debug',
    MONGODB_DB: db.db.databaseName,
    GRAPHQL_MAX_DEPTH: '4',
    GRAPHQL_MAX_ALIASES: '3',
  });
  service = await startService({
    config,
    log: pino({ level: 'debug' }, sink),
    store: await Store.onDb(db.client, db.db),
  });
});
afterAll(async () => {
  await service.stop();
  await closeDb();
});

interface Answer {
  status: number;
  type: string | null;
  body: {
    data?: unknown;
    errors?: Array<{ message: string; locations?: unknown[]; extensions: Record<string, unknown> }>;
  } & Record<string, unknown>;
  text: string;
}

async function post(payload: unknown, headers: Record<string, string> = {}, raw?: string): Promise<Answer> {
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: GRAPHQL_RESPONSE, ...headers },
    body: raw ?? JSON.stringify(payload),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: JSON.parse(text) as Answer['body'], text };
}

/** A 400-coded answer: the code, the request id on every error, no stack or file path. */
function expectRefused(answer: Answer, code: string, status = 400): void {
  expect({ status: answer.status, code: answer.body.errors?.[0]?.extensions.code }).toEqual({ status, code });
  for (const error of answer.body.errors!) expect(error.extensions.requestId).toEqual(expect.any(String));
  expect(answer.text).not.toMatch(/stacktrace|\bat .*:\d+:\d+|\/src\/|node_modules/);
}

const PAGES = 'query P($first: Int!, $after: String) { pages(first: $first, after: $after) { totalCount } }';

test.each([
  ['a string for Int!', { first: 'ten' }],
  ['a missing required variable', {}],
  ['null for a non-null variable', { first: null }],
  ['an object for a String', { first: 1, after: { $ne: null } }],
  ['a float for Int!', { first: 1.5 }],
])('variable coercion error (%s) is 400 BAD_USER_INPUT', async (_name, variables) => {
  const answer = await post({ query: PAGES, variables });
  expectRefused(answer, 'BAD_USER_INPUT');
  expect(answer.type).toContain(GRAPHQL_RESPONSE);
});

test('an object for an ID argument is 400 BAD_USER_INPUT', async () => {
  expectRefused(
    await post({ query: 'query A($id: ID!) { page(id: $id) { id } }', variables: { id: { $gt: '' } } }),
    'BAD_USER_INPUT',
  );
});

test('an unknown operationName is 400 OPERATION_RESOLUTION_FAILURE', async () => {
  expectRefused(await post({ query: '{ __typename }', operationName: 'B' }), 'OPERATION_RESOLUTION_FAILURE');
  expectRefused(await post({ query: 'query A { __typename } query C { __typename }' }), 'OPERATION_RESOLUTION_FAILURE');
});

test('a subscription over HTTP POST is 400 BAD_REQUEST', async () => {
  const answer = await post({ query: 'subscription { pollResultsChanged(pollId: "p-1") { id } }' });
  expectRefused(answer, 'BAD_REQUEST');
  expect(answer.body.errors![0].message).toMatch(/WebSocket/);
  // An introspection field alone at a subscription's root is invalid in any transport (GraphQL spec 5.2.3.1).
  expectRefused(await post({ query: 'subscription { __typename }' }), 'GRAPHQL_VALIDATION_FAILED');
});

test('automatic persisted queries: a wrong hash is PERSISTED_QUERY_HASH_MISMATCH, an unknown one PERSISTED_QUERY_NOT_FOUND', async () => {
  const query = '{ __typename }';
  const wrong = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update('other').digest('hex') } };
  expectRefused(await post({ query, extensions: wrong }), 'PERSISTED_QUERY_HASH_MISMATCH');
  const unknown = await post({
    extensions: { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update('never sent').digest('hex') } },
  });
  expect(unknown.body.errors![0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  expect(unknown.status).toBeLessThan(500);
  const right = { persistedQuery: { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') } };
  expect((await post({ query, extensions: right })).body).toEqual({ data: { __typename: 'Query' } });
  expect((await post({ extensions: right })).body).toEqual({ data: { __typename: 'Query' } });
});

test('a persistedQuery extension that is not a version 1 object is refused with a persisted-query code, never a 500', async () => {
  const refusals = /^PERSISTED_QUERY_(NOT_SUPPORTED|NOT_FOUND|HASH_MISMATCH)$/;
  for (const persistedQuery of [7, 'x', true, [], { version: 2 }, { version: 1, sha256Hash: 7 }, { version: 1 }]) {
    const posted = await post({ query: '{ __typename }', extensions: { persistedQuery } });
    expect([persistedQuery, posted.status, posted.body.errors?.[0]?.extensions.code]).toEqual([
      persistedQuery,
      400,
      expect.stringMatching(refusals),
    ]);
    const params = new URLSearchParams({ extensions: JSON.stringify({ persistedQuery }), operationName: 'Nope' });
    const got = await fetch(`${service.url}/graphql?${params.toString()}`, {
      headers: { accept: GRAPHQL_RESPONSE, 'apollo-require-preflight': 'true' },
    });
    const body = (await got.json()) as Answer['body'];
    // Apollo answers an unknown hash with 200, as APQ clients expect; everything else here is a 400.
    expect([persistedQuery, got.status < 500, body.errors?.[0]?.extensions.code]).toEqual([
      persistedQuery,
      true,
      expect.stringMatching(refusals),
    ]);
  }
});

test('depth, alias and token limits are GRAPHQL_VALIDATION_FAILED with the location that crossed them', async () => {
  const deep = await post({
    query: '{\n  pages(first: 1) { edges { node { issues(first: 1) { edges { node { id } } } } } }\n}',
  });
  expectRefused(deep, 'GRAPHQL_VALIDATION_FAILED');
  expect(deep.body.errors![0].message).toMatch(/depth limit of 4 exceeded/);
  expect(deep.body.errors![0].locations).toEqual([{ line: 2, column: expect.any(Number) }]);

  const viaFragments = await post({
    query:
      'fragment N on Page { issues(first: 1) { edges { node { id } } } }\n{ pages(first: 1) { edges { node { ...N } } } }',
  });
  expectRefused(viaFragments, 'GRAPHQL_VALIDATION_FAILED');
  expect(viaFragments.body.errors![0].locations).toEqual([{ line: 1, column: expect.any(Number) }]);

  const aliases = await post({ query: '{ a: __typename b: __typename c: __typename\n d: __typename }' });
  expectRefused(aliases, 'GRAPHQL_VALIDATION_FAILED');
  expect(aliases.body.errors![0].locations).toEqual([{ line: 2, column: 2 }]);

  const tokens = await post({ query: `{ ${Array.from({ length: 6000 }, () => '__typename').join(' ')} }` });
  expectRefused(tokens, 'GRAPHQL_VALIDATION_FAILED');
  expect(tokens.body.errors![0].locations).toHaveLength(1);
});

test('HTTP-layer errors on /graphql are GraphQL-shaped with the request id', async () => {
  const invalid = await post(undefined, {}, '{"query": ');
  expectRefused(invalid, 'BAD_REQUEST');
  expect(invalid.type).toContain(GRAPHQL_RESPONSE);

  const tooLarge = await post({ query: `{ __typename } # ${'x'.repeat(1_100_000)}` });
  expectRefused(tooLarge, 'PAYLOAD_TOO_LARGE', 413);

  const wrongType = await post(undefined, { 'content-type': 'text/plain' }, '{ __typename }');
  expectRefused(wrongType, 'UNSUPPORTED_MEDIA_TYPE', 415);
  expect(wrongType.body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });

  for (const encoding of ['gzip', 'deflate', 'br'])
    expectRefused(await post({ query: '{ __typename }' }, { 'content-encoding': encoding }), 'BAD_REQUEST');
  const rest = await fetch(`${service.url}/cms/channel/7/activate_subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: '{"email":"a@example.com","key":"k"}',
  });
  expect({ status: rest.status, body: await rest.json() }).toMatchObject({
    status: 400,
    body: { code: 'BAD_REQUEST' },
  });

  const plainJson = await post(undefined, { accept: 'application/json' }, 'nope');
  expect(plainJson.type).toContain('application/json');
  expectRefused(plainJson, 'BAD_REQUEST');
});

test("Apollo's own refusals (batching, a GET's unreadable variables) carry the request id", async () => {
  expectRefused(await post([{ query: '{ __typename }' }, { query: '{ __typename }' }]), 'BAD_REQUEST');
  const res = await fetch(
    `${service.url}/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{bad')}`,
    { headers: { accept: GRAPHQL_RESPONSE } },
  );
  const text = await res.text();
  expectRefused(
    { status: res.status, type: res.headers.get('content-type'), body: JSON.parse(text) as Answer['body'], text },
    'BAD_REQUEST',
  );
});

test('none of these client mistakes was logged at error level', () => {
  const errors = logged.filter((line) => line.level >= 50);
  expect(errors).toEqual([]);
  expect(logged.some((line) => line.msg === 'GraphQL request refused')).toBe(true);
});

test('fragment cycles and fragment bombs are validation failures, answered at once', async () => {
  const cycle = await post({
    query: 'fragment A on Page { ...B } fragment B on Page { ...A } { pages(first: 1) { edges { node { ...A } } } }',
  });
  expectRefused(cycle, 'GRAPHQL_VALIDATION_FAILED');
  // Each fragment spreads the next twice: 2^40 selections if expanded, measured once per fragment here.
  const levels = 40;
  const fragments = Array.from(
    { length: levels },
    (_, i) =>
      `fragment F${i} on Query { ${i + 1 < levels ? `...F${i + 1} ...F${i + 1}` : '__typename'} a${i}: __typename }`,
  );
  const bomb = await post({ query: `${fragments.join('\n')}\n{ ...F0 }` });
  expectRefused(bomb, 'GRAPHQL_VALIDATION_FAILED');
  expect(bomb.body.errors!.some((e) => /Aliases limit/.test(e.message))).toBe(true);
});
