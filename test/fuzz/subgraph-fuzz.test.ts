// Seeded fuzzing of the federation subgraph endpoint (/graphql/subgraph): odd entity references (types, ids, shapes,
// counts), odd secrets and tokens, bodies that are not operations. Whatever a router or anyone else sends: never a
// 5xx, never INTERNAL_SERVER_ERROR, never a stack trace or a file path, always JSON; without the secret always 403.
// FUZZ_REQUESTS (default 300 here) and FUZZ_SEED (default 12) set the run.
import { insertCatalogue, testAuthenticator } from '../catalogue/fixtures.js';
import * as f from '../content/fixtures.js';
import { contentGraph } from '../content/graph.fixture.js';
import { Draws } from '../helpers/random.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { statusOf } from '../helpers/status.js';

const REQUESTS = Math.ceil(Number(process.env.FUZZ_REQUESTS ?? 1000) * 0.3);
const SEED = Number(process.env.FUZZ_SEED ?? 12);
const SECRET = 'a-router-secret-of-at-least-32-characters';
const LEAK = /\bat [\w.<>]+ \(|\bat .+:\d+:\d+|node_modules|\/work\/|\/src\/|\.ts:\d+|\.js:\d+|stacktrace/i;

const TYPES = ['Article', 'Author', 'Page', 'Issue', 'Cart', 'Channel', 'Product', 'Poll', 'Quiz', 'Video'];
const IDS = [
  'g-a-1-1',
  'g-a-2-2',
  'g-au-1',
  'g-page',
  'g-issue-1',
  'cart-alice',
  '7',
  'prod-weekly',
  'a-draft',
  'nope',
];
const SELECTION =
  '__typename ... on Node { id } ... on Article { title authors { name } } ... on Cart { priceMatrix { currency } }';

class SubgraphFuzzer extends Draws {
  private oddValue(): unknown {
    return this.pick([
      null,
      7,
      true,
      '',
      'no spaces!',
      '$ne',
      'a'.repeat(70),
      { $gt: '' },
      ['g-a-1-1'],
      '\u{1F600}'.repeat(300),
    ]);
  }

  private reference(): unknown {
    const roll = this.rnd();
    if (roll < 0.7) return { __typename: this.pick(TYPES), id: this.pick(IDS) };
    if (roll < 0.8) return { __typename: this.pick(['Pick', '_Entity', 'Query', 'Node', '', '__proto__']), id: 'x' };
    if (roll < 0.9) return { __typename: this.pick(TYPES), id: this.oddValue() };
    return this.oddValue();
  }

  next(): { kind: string; headers: Record<string, string>; body: string } {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-subgraph-secret': SECRET };
    if (this.chance(0.2)) headers.authorization = this.pick(['Bearer alice-cart', 'Bearer forged-token']);
    let kind = 'entities';
    if (this.chance(0.1)) {
      kind = 'wrong secret';
      headers['x-subgraph-secret'] = this.pick(['', 'x', SECRET.slice(1), `${SECRET}x`, SECRET.toUpperCase()]);
    }
    const count = this.chance(0.05) ? 900 + this.int(200) : this.int(30);
    const representations = Array.from({ length: count }, () => this.reference());
    const roll = this.rnd();
    let body: unknown = {
      query: `query($r: [_Any!]!) { _entities(representations: $r) { ${SELECTION} } }`,
      variables: { r: representations },
    };
    if (roll < 0.1) {
      body = { query: '{ _service { sdl } }' };
      // The SDL's descriptions read like a stack line ("at UTC, such as 2007-12-03T10:15:30Z").
      if (kind === 'entities') kind = 'sdl';
    } else if (roll < 0.2)
      body = {
        query: `{ _entities(representations: ${JSON.stringify(representations.slice(0, 3)).replace(/"(\w+)":/g, '$1:')}) { __typename } }`,
      };
    else if (roll < 0.25)
      body = { query: `query($r: [_Any!]!) { _entities(representations: $r) { id } }`, variables: { r: 5 } };
    else if (roll < 0.3) body = this.pick(['{', 'null', '[]', '{"query": 5}']);
    return { kind, headers, body: typeof body === 'string' ? body : JSON.stringify(body) };
  }
}

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    authenticate: testAuthenticator,
    env: { SUBGRAPH_SECRET: SECRET },
    beforeStart: async (store) => {
      await insertCatalogue(store);
      await f.insert(store.db, contentGraph({ prefix: 'g-', issues: 2, articlesPerIssue: 2 }).fixture);
      await f.insert(store.db, { articles: [f.article('a-draft', { status: 'draft' })] });
    },
  });
}, 60_000);
afterAll(() => svc.close());

test(`${REQUESTS} seeded requests to /graphql/subgraph (seed ${SEED}): client errors only, JSON every time`, async () => {
  const fuzzer = new SubgraphFuzzer(SEED);
  const failures: Array<{ kind: string; status: number; problem: string; request: string; answer: string }> = [];
  for (let sent = 0; sent < REQUESTS; sent += 4) {
    const batch = Array.from({ length: Math.min(4, REQUESTS - sent) }, () => fuzzer.next());
    await Promise.all(
      batch.map(async (request) => {
        const res = await fetch(`${svc.url}/graphql/subgraph`, { method: 'POST', ...request });
        const text = await res.text();
        const fail = (problem: string) =>
          failures.push({
            kind: request.kind,
            status: res.status,
            problem,
            request: request.body.slice(0, 200),
            answer: text.slice(0, 200),
          });
        if (res.status >= 500) fail('server error');
        if (request.kind === 'wrong secret' && res.status !== 403) fail('answered without the secret');
        if (request.kind !== 'sdl' && LEAK.test(text)) fail('stack trace or file path');
        try {
          const body = JSON.parse(text) as { errors?: Array<{ extensions?: { code?: string } }> };
          if (body.errors?.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')) fail('INTERNAL_SERVER_ERROR');
        } catch {
          fail('body is not JSON');
        }
      }),
    );
  }
  expect(failures.slice(0, 3)).toEqual([]);
  expect(await statusOf(`${svc.url}/readyz`)).toBe(200);
}, 300_000);
