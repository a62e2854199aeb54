// Seeded hostile input on the graphql-ws endpoint: malformed JSON, binary frames, unknown or server-only
// message types, subscribe before connection_init, a second connection_init, duplicate ids, malformed
// payloads, oversized messages, operators and objects in variables, bad tokens. Every case ends in a close
// code the graphql-transport-ws protocol defines (4400, 4401, 4403, 4409, 4429; 1009 for the size limit) or
// in an error message on its subscription; the process never faults, and a subscriber connected beside the
// fuzz keeps receiving throughout. LIVE_FUZZ_CASES (default 60) and LIVE_FUZZ_SEED (default 15) set the run.
import WebSocket from 'ws';
import { startTestService, type TestService } from '../helpers/service.js';
import { random } from '../helpers/random.js';
import { insertLiveFixtures } from './fixtures.js';
import { collect, wsClient } from './ws.js';
import { statusOf } from '../helpers/status.js';

const CASES = Number(process.env.LIVE_FUZZ_CASES ?? 60);
const SEED = Number(process.env.LIVE_FUZZ_SEED ?? 15);
const MAX_MESSAGE = 4096;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({
    env: { LIVE_MAX_MESSAGE_BYTES: String(MAX_MESSAGE) },
    beforeStart: (store) => insertLiveFixtures(store.db),
  });
});
afterAll(() => svc.close());

/** What a case may end in: the socket closed with one of these codes, or an error for subscription `id`. */
interface Expect {
  closes?: number[];
  errorFor?: string;
  /** connection_ack: the session was accepted (as anonymous). */
  acked?: boolean;
}
type Frame = string | Buffer;
interface Case {
  kind: string;
  frames: Frame[];
  expect: Expect;
}

const INIT = JSON.stringify({ type: 'connection_init' });
const subscribe = (id: string, payload: unknown) => JSON.stringify({ type: 'subscribe', id, payload });
const BLOG = 'subscription($id: ID!) { liveBlogMessageAdded(liveBlogId: $id) { id } }';

function cases(seed: number): Case[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const text = (n: number) =>
    Array.from({ length: n }, () => String.fromCharCode(32 + Math.floor(rnd() * 95))).join('');
  const id = () => text(1 + Math.floor(rnd() * 12));
  const generators: Array<() => Case> = [
    () => ({
      kind: 'malformed JSON',
      frames: [INIT, pick(['{', '{"type":', 'nul', '[1,2', `{"type":"subscribe","id":"x"${text(5)}`, text(20)])],
      expect: { closes: [4400] },
    }),
    () => ({
      kind: 'binary frame',
      frames: [INIT, Buffer.from(Array.from({ length: 1 + Math.floor(rnd() * 64) }, () => Math.floor(rnd() * 256)))],
      expect: { closes: [4400] },
    }),
    () => ({
      kind: 'unknown type',
      frames: [
        INIT,
        JSON.stringify({ type: pick(['hello', '', 'start', 'stop', 'connection_terminate', text(8)]), id: id() }),
      ],
      expect: { closes: [4400] },
    }),
    () => ({
      kind: 'server-only type',
      frames: [
        INIT,
        JSON.stringify(
          pick([
            { type: 'next', id: 'a', payload: {} },
            { type: 'error', id: 'a', payload: [] },
            { type: 'connection_ack' },
          ]),
        ),
      ],
      expect: { closes: [4400] },
    }),
    () => ({
      kind: 'not an object',
      frames: [INIT, JSON.stringify(pick([1, 'subscribe', null, [], [{ type: 'ping' }], true]))],
      expect: { closes: [4400] },
    }),
    () => ({
      kind: 'subscribe before connection_init',
      frames: [subscribe(id(), { query: BLOG, variables: { id: 'blog-1' } })],
      expect: { closes: [4401] },
    }),
    () => ({ kind: 'second connection_init', frames: [INIT, INIT], expect: { closes: [4429] } }),
    () => {
      const same = id();
      const payload = { query: BLOG, variables: { id: 'blog-1' } };
      return {
        kind: 'duplicate id',
        frames: [INIT, subscribe(same, payload), subscribe(same, payload)],
        expect: { closes: [4409] },
      };
    },
    () => ({
      kind: 'bad init payload',
      frames: [JSON.stringify({ type: 'connection_init', payload: pick([1, 'token', [1], true]) })],
      expect: { closes: [4400] },
    }),
    () => ({
      kind: 'bad token',
      frames: [
        JSON.stringify({
          type: 'connection_init',
          payload: {
            authorization: pick([
              `Bearer ${text(30)}`,
              'Bearer ',
              `Bearer ${text(20)}.${text(40)}.${text(20)}`,
              'bearer x y',
            ]),
          },
        }),
      ],
      expect: { closes: [4403] },
    }),
    // As over HTTP, a credential of another scheme is refused, not read as anonymous.
    () => ({
      kind: 'other scheme',
      frames: [
        JSON.stringify({
          type: 'connection_init',
          payload: { authorization: pick([`Basic ${text(10)}`, text(40), 'Digest x']) },
        }),
      ],
      expect: { closes: [4403] },
    }),
    () => ({
      kind: 'malformed subscribe payload',
      frames: [
        INIT,
        JSON.stringify({
          type: 'subscribe',
          id: pick([id(), 7, null]),
          payload: pick([
            {},
            { query: 42 },
            { query: BLOG, variables: 'x' },
            { query: BLOG, operationName: 5 },
            'query',
            null,
          ]),
        }),
      ],
      expect: { closes: [4400] },
    }),
    () => ({
      kind: 'oversized message',
      frames: [
        INIT,
        subscribe(id(), { query: `subscription { pollResultsChanged(pollId: "${'p'.repeat(MAX_MESSAGE)}") { id } }` }),
      ],
      expect: { closes: [1009] },
    }),
    () => {
      const sub = id();
      const variables = {
        id: pick([
          { $ne: null },
          { $gt: '' },
          ['blog-1'],
          { liveBlogId: 'blog-1' },
          1.5,
          true,
          { $where: 'sleep(100)' },
        ]),
      };
      return {
        kind: 'operator in variables',
        frames: [INIT, subscribe(sub, { query: BLOG, variables })],
        expect: { errorFor: sub },
      };
    },
    () => {
      // Past the 64 levels variables may be nested: refused as the client's error, the connection kept.
      const sub = id();
      const depth = pick([65, 300, 1_500]);
      const variables = { id: 'blog-1', x: JSON.parse(`${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}`) as unknown };
      return {
        kind: 'deeply nested variables',
        frames: [INIT, subscribe(sub, { query: BLOG, variables })],
        expect: { errorFor: sub },
      };
    },
    () => {
      const sub = id();
      const query = pick([
        text(30),
        'subscription {',
        '{ __typename }',
        'mutation { x }',
        `subscription { liveBlogMessageAdded(liveBlogId: ${text(4)}) { id } }`,
      ]);
      return { kind: 'bad query', frames: [INIT, subscribe(sub, { query })], expect: { errorFor: sub } };
    },
  ];
  return Array.from({ length: CASES }, () => pick(generators)());
}

/** Sends the frames (after the ack when the case begins with a valid connection_init) and reports how it ended. */
async function run(url: string, c: Case): Promise<{ closed?: number; error?: string; acked?: boolean }> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
  let heard: () => void = () => undefined;
  socket.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as (typeof messages)[number]);
    heard();
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const next = () => new Promise<void>((resolve) => (heard = resolve));
  const [first, ...rest] = c.frames;
  if (first === INIT) {
    const ack = next();
    socket.send(first);
    await Promise.race([ack, closed]);
  } else if (first !== undefined) rest.unshift(first);
  for (const frame of rest) if (socket.readyState === WebSocket.OPEN) socket.send(frame);
  if (c.expect.acked) {
    const code = await Promise.race([next().then(() => undefined), closed]);
    socket.close();
    return code === undefined ? { acked: messages[0]?.type === 'connection_ack' } : { closed: code };
  }
  const want = c.expect.errorFor;
  if (want === undefined) return { closed: await closed };
  // An error for the subscription: an `error` message, or a `next` whose payload has errors and no data.
  for (;;) {
    const m = messages.find((x) => x.id === want && (x.type === 'error' || x.type === 'next'));
    if (m) {
      socket.close();
      const errors =
        m.type === 'error'
          ? (m.payload as unknown[])
          : (m.payload as { errors?: unknown[]; data?: unknown }).data
            ? []
            : (m.payload as { errors?: unknown[] }).errors;
      return { error: errors?.length ? JSON.stringify(errors) : `unexpected ${JSON.stringify(m)}` };
    }
    const code = await Promise.race([next().then(() => undefined), closed]);
    if (code !== undefined) return { closed: code };
  }
}

/** Errors that name the client's mistake: a client error code each, no stack. */
const CLIENT_CODES = new Set(['BAD_USER_INPUT', 'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'NOT_FOUND']);
function clientErrors(json: string | undefined): boolean {
  if (!json || json.startsWith('unexpected') || /stack/i.test(json)) return false;
  const errors = JSON.parse(json) as Array<{ extensions?: { code?: string } }>;
  return errors.every((e) => CLIENT_CODES.has(String(e.extensions?.code)));
}

test(`${CASES} seeded hostile graphql-ws sessions (seed ${SEED}): protocol close codes or errors, no fault, others keep receiving`, async () => {
  const watcher = wsClient(svc.url);
  const sentinel = collect<{ liveBlogMessageAdded: { id: string } }>(watcher, BLOG, { id: 'blog-1' });
  const messages = svc.db.collection('liveBlogMessages');
  let seq = 0;
  /** Writes one message and waits until the sentinel has it. */
  const heardBySentinel = async (): Promise<void> => {
    const _id = `fuzz-${++seq}`;
    await messages.insertOne({ _id, liveBlogId: 'blog-1', seq, timestamp: new Date(), text: _id } as never);
    while (!sentinel.results.some((r) => r.data?.liveBlogMessageAdded.id === _id)) {
      if (sentinel.results.some((r) => r.errors))
        throw new Error(`sentinel failed: ${JSON.stringify(sentinel.results)}`);
      await sentinel.until(sentinel.results.length + 1);
    }
  };
  // The first message only counts once the subscription is registered: write until one arrives.
  while (sentinel.results.length === 0) {
    await messages.insertOne({
      _id: `warm-${++seq}`,
      liveBlogId: 'blog-1',
      seq,
      timestamp: new Date(),
      text: 'warm',
    } as never);
    await new Promise((r) => setTimeout(r, 20));
  }

  const failures: string[] = [];
  const seen = new Map<string, number>();
  for (const [i, c] of cases(SEED).entries()) {
    const outcome = await run(svc.url, c);
    seen.set(c.kind, (seen.get(c.kind) ?? 0) + 1);
    const ok = c.expect.acked
      ? outcome.acked === true
      : c.expect.errorFor !== undefined
        ? clientErrors(outcome.error)
        : c.expect.closes!.includes(outcome.closed!);
    if (!ok)
      failures.push(
        `case ${i} (${c.kind}, frames ${JSON.stringify(c.frames.map(String)).slice(0, 200)}): ${JSON.stringify(outcome).slice(0, 300)}`,
      );
    if (i % 10 === 9) await heardBySentinel();
  }
  await heardBySentinel();
  expect(failures).toEqual([]);
  expect(seen.size).toBeGreaterThan(8); // the seed exercised most kinds
  expect(await statusOf(`${svc.url}/healthz`)).toBe(200);
  await watcher.dispose();
});
