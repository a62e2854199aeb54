// Seeded random queries (the fuzzer's valid ones) asked one at a time, then the same queries arriving together:
// every answer together is the answer alone. Requests that arrive together share store commands
// (src/store/shared-reads.ts); none may see another's documents, miss its own, or fail for another's.
// FUZZ_SEED (default 12) sets the queries.
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { insertCatalogue } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { pipelinedPosts } from '../helpers/pipelined.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { Fuzzer } from './generator.js';

const SEED = Number(process.env.FUZZ_SEED ?? 12);
const QUERIES = 360;
const TOGETHER = 36;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    beforeStart: async (store) => {
      await insertCatalogue(store);
      await f.insert(store.db, contentGraph({ prefix: 'g-', issues: 3, articlesPerIssue: 3 }).fixture);
      await f.insert(store.db, contentGraph({ prefix: 'h-', issues: 2, articlesPerIssue: 4, channelId: '8' }).fixture);
      await f.insert(store.db, {
        pages: [f.page('p-off', { enabled: false })],
        articles: [f.article('a-draft', { status: 'draft' })],
      });
    },
  });
}, 60_000);
afterAll(() => svc.close());

/**
 * An answer without what differs between two deliveries of the same answer: the request id on errors, and the
 * `service` field's readings of the moment (uptime, the store's latency).
 */
const comparable = (text: string): string =>
  text.replace(/"requestId":"[^"]*"/g, '"requestId":"-"').replace(/"(uptimeSeconds|latencyMs)":[0-9.]+/g, '"$1":0');

test(`${QUERIES} seeded queries (seed ${SEED}): each answer given together with ${TOGETHER - 1} others is the answer given alone`, async () => {
  const introspection = (await (
    await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: getIntrospectionQuery() }),
    })
  ).json()) as { data: IntrospectionQuery };
  const ids = [
    'g-page',
    'h-page',
    'g-issue-1',
    'h-issue-2',
    'g-a-1-1',
    'g-a-2-3',
    'h-a-1-2',
    'h-a-2-4',
    'g-cat-a',
    'h-cat-a',
    'g-au-1',
    'h-au-2',
    'g-kw-1',
    'h-kw-3',
    'g-vid-1',
    'g-lb-1',
    'g-poll-1',
    'g-quiz-1',
    'p-off',
    'a-draft',
    'prod-weekly',
    'item-print',
    'cat-print',
    'nothing',
  ];
  const fuzzer = new Fuzzer(buildClientSchema(introspection.data), SEED, ids);
  const bodies = Array.from({ length: QUERIES }, () => JSON.stringify(fuzzer.operation('query')));

  const alone: string[] = [];
  for (const body of bodies)
    alone.push(
      comparable(
        await (
          await fetch(`${svc.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        ).text(),
      ),
    );
  // The queries read something: most answers carry data, not only errors.
  expect(alone.filter((a) => a.startsWith('{"data":{') && !a.includes('"errors"')).length).toBeGreaterThan(QUERIES / 3);

  const differing: Array<{ body: string; alone: string; together: string }> = [];
  for (let from = 0; from < QUERIES; from += TOGETHER) {
    const together = (await pipelinedPosts(svc.url, '/graphql', bodies.slice(from, from + TOGETHER))).map(comparable);
    together.forEach((answer, i) => {
      if (answer !== alone[from + i])
        differing.push({
          body: bodies[from + i]!.slice(0, 300),
          alone: alone[from + i]!.slice(0, 300),
          together: answer.slice(0, 300),
        });
    });
  }
  expect({ differing: differing.length, first: differing.slice(0, 3) }).toEqual({ differing: 0, first: [] });
  // And they did share commands: reads served by a command that served more than one request's reads.
  const metrics = await (await fetch(`${svc.url}/metrics`)).text();
  const readers = Number(/^store_shared_read_readers_sum (\d+)/m.exec(metrics)?.[1]);
  const commands = Number(/^store_shared_read_readers_count (\d+)/m.exec(metrics)?.[1]);
  expect(readers - commands).toBeGreaterThan(0);
}, 120_000);
