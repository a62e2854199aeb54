// A peer's WebSocket protocol error (anyone can send an oversized frame) is logged as one JSON line through
// the service's logger, never as a raw stack trace on stderr; the connection closes with the protocol's code
// (1009) and the service goes on answering.
import WebSocket from 'ws';
import { ensureBuilt, distPath } from '../helpers/built.js';
import { spawnNode, type Child } from '../helpers/child.js';
import { statusOf } from '../helpers/status.js';

const MAX_MESSAGE = 4096;
let child: Child;
let origin: string;

beforeAll(async () => {
  await ensureBuilt();
  child = spawnNode(distPath('bundle/main.js'), [], {
    PORT: '0',
    HOST: '127.0.0.1',
    STORE: 'memory',
    SEED: 'none',
    LOG_LEVEL: 'info',
    LIVE_MAX_MESSAGE_BYTES: String(MAX_MESSAGE),
  });
  const listening = await child.waitFor((l) => typeof l.url === 'string' && String(l.msg).includes('listening'));
  origin = new URL(String(listening.url)).origin;
}, 120_000);
afterAll(async () => {
  child.proc.kill('SIGTERM');
  await child.exited;
});

/** Opens a graphql-transport-ws socket, waits for the ack, sends `frame` and resolves with the close code. */
async function sendAfterAck(frame: string): Promise<number> {
  const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const acked = new Promise((resolve) => socket.once('message', resolve));
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await acked;
  socket.send(frame);
  return closed;
}

test('an oversized message: closed with 1009, one JSON log line, nothing on stderr', async () => {
  const frame = JSON.stringify({
    type: 'subscribe',
    id: '1',
    payload: { query: `subscription { pollResultsChanged(pollId: "${'p'.repeat(MAX_MESSAGE)}") { id } }` },
  });
  expect(await sendAfterAck(frame)).toBe(1009);
  const line = await child.waitFor((l) => l.msg === 'live: closed a connection on a protocol error');
  expect(line).toMatchObject({
    level: 30,
    service: 'gateway',
    wsError: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH',
    reason: expect.stringContaining('Max payload size exceeded'),
  });
  expect(JSON.stringify(line)).not.toMatch(/\bat .+:\d+:\d+/);
  // Still serving.
  expect(await statusOf(`${origin}/healthz`)).toBe(200);
  expect(child.stderr.join('')).toBe('');
  // stdout is a pipe here: every line is JSON, none of them pretty-printed.
  expect(child.lines.every((l) => typeof l.level === 'number' && typeof l.time === 'string')).toBe(true);
});
