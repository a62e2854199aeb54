// The README's examples run, verbatim and top to bottom, against a fresh service started as `npm start` starts
// it (the built entry point, development mode, the embedded store in an empty data directory, demo data seeded
// at start), on a random port: only the address is substituted. A broken example fails this test.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distPath, ensureBuilt } from '../helpers/built.js';
import { spawnNode, type Child } from '../helpers/child.js';
import { readmeSnippets, runSnippets, type Outcome } from '../helpers/readme-snippets.js';

const dir = mkdtempSync(join(tmpdir(), 'readme-'));
let service: Child;
let baseUrl: string;

beforeAll(async () => {
  await ensureBuilt();
  service = spawnNode(distPath('bundle/main.js'), [], {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: join(dir, 'data'),
    LOG_LEVEL: 'info',
  });
  const listening = await service.waitFor(
    (l) => typeof l.url === 'string' && String(l.msg).includes('listening'),
    240_000,
  );
  baseUrl = new URL(String(listening.url)).origin;
}, 300_000);
afterAll(async () => {
  service?.proc.kill('SIGTERM');
  await service?.exited;
  rmSync(dir, { recursive: true, force: true });
});

const report = (outcomes: Outcome[]) =>
  outcomes
    .filter((o) => o.failure)
    .map((o) => `README line ${o.snippet.line} (${o.snippet.kind}): ${o.failure}\n${o.output.slice(0, 2_000)}`);

test('every marked example of the README works on a fresh start, in order', async () => {
  const snippets = readmeSnippets();
  // The walk-through: a query, the tokens, REST, the newsletter, a vote, a follower, an editor's post.
  expect(snippets.length).toBeGreaterThanOrEqual(7);
  expect(new Set(snippets.map((s) => s.kind))).toEqual(new Set(['sh', 'graphql', 'node']));
  const outcomes = await runSnippets(snippets, baseUrl, join(dir, 'state.sh'));
  expect(report(outcomes)).toEqual([]);
  // The follower saw the editor's post; the vote counted on an open poll.
  const follower = outcomes.find((o) => o.snippet.kind === 'node')!;
  expect(follower.output).toContain('"kind":"ADDED"');
  expect(follower.output).toContain('Kick-off!');
  const vote = outcomes.find((o) => o.snippet.code.includes('voteInPoll'))!;
  expect(JSON.parse(vote.output)).toMatchObject({ data: { voteInPoll: { closed: false } } });
}, 300_000);

test('the start log names the demo credentials the README uses, the editor beside the customer', async () => {
  const notice = await service.waitFor((l) => String(l.msg).startsWith('demo OAuth access (development only)'));
  expect(String(notice.msg)).toContain('demo customer demo@example.com / demo-password');
  expect(String(notice.msg)).toContain('demo editor editor@example.com / editor-password');
});

test('a broken example fails: an unknown poll, a wrong password (an empty $TOKEN), a failing command', async () => {
  const [vote] = readmeSnippets().filter((s) => s.code.includes('voteInPoll'));
  const [token] = readmeSnippets().filter((s) => s.code.includes('TOKEN=$(') && s.code.includes('demo-password'));
  const broken = [
    { ...vote!, code: vote!.code.replace('poll-1', 'no-such-poll') },
    { ...token!, code: token!.code.replace('password=demo-password', 'password=wrong') },
    { ...vote!, code: 'curl -s http://localhost:4000/graphql | node -e "process.exit(3)"' },
  ];
  const outcomes = await runSnippets(broken, baseUrl, join(dir, 'broken.sh'));
  expect(outcomes.map((o) => o.failure)).toEqual(['a GraphQL error', 'exit code 97', 'exit code 3']);
}, 120_000);
