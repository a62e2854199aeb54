// A body over an endpoint's limit, sent chunked (no Content-Length, so the service finds out only while
// reading): the answer is a 413 and the client's next request on the same kept-alive connection is answered
// (docs/api.md; one request's bad input never fails another request). Driven over a raw socket, since
// fetch and undici always send a length for a string body.
import net from 'node:net';
import { insertCatalogue, testAuthenticator } from '../catalogue/fixtures.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { ensureTestClient, TEST_CLIENT_ID, TEST_CLIENT_SECRET } from '../helpers/tokens.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ authenticate: testAuthenticator, beforeStart: (store) => insertCatalogue(store) });
  await ensureTestClient(svc);
});
afterAll(() => svc?.close());

const basic = `Basic ${Buffer.from(`${TEST_CLIENT_ID}:${TEST_CLIENT_SECRET}`).toString('base64')}`;
const chunk = (b: string): string => `${Buffer.byteLength(b).toString(16)}\r\n${b}\r\n`;

/**
 * Sends `first` (head, then its body in chunks), then `second` on the same socket; resolves with the status
 * lines of the answers received by the time both came or the server closed the connection.
 */
function twoOnOneSocket(first: { head: string; pieces: string[] }, second: string): Promise<string[]> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(svc.url).port), '127.0.0.1');
    let received = '';
    const statuses = (): string[] => received.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    const finish = (): void => {
      socket.destroy();
      resolve(statuses());
    };
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      if (statuses().length >= 2) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
    const send = async (): Promise<void> => {
      socket.write(first.head);
      for (const piece of first.pieces) {
        if (socket.destroyed) return;
        socket.write(chunk(piece));
        await new Promise((r) => setImmediate(r));
      }
      if (socket.destroyed) return;
      socket.write('0\r\n\r\n');
      socket.write(second);
    };
    // A send that fails ends the exchange as a socket error does: with the answers received so far.
    socket.on('connect', () => void send().catch(finish));
  });
}

const head = (method: string, path: string, type: string, extra = ''): string =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nTransfer-Encoding: chunked\r\n${extra}\r\n`;
const readyz = 'GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n';
const pad = (n: number, first = ''): string[] =>
  Array.from({ length: n }, (_, i) => (i === 0 ? first : '') + 'p'.repeat(16_000));

test.each([
  [
    'the token endpoint, form',
    head('POST', '/oauth2/access_token', 'application/x-www-form-urlencoded', `Authorization: ${basic}\r\n`),
    pad(8, 'grant_type=password&pad='),
  ],
  [
    'the token endpoint, JSON',
    head('POST', '/oauth2/access_token', 'application/json', `Authorization: ${basic}\r\n`),
    pad(8, '{"grant_type":"password","pad":"'),
  ],
  [
    'introspection',
    head('POST', '/oauth2/introspect', 'application/x-www-form-urlencoded', `Authorization: ${basic}\r\n`),
    pad(8, 'token=x&pad='),
  ],
  [
    'revocation',
    head('POST', '/oauth2/revoke', 'application/x-www-form-urlencoded', `Authorization: ${basic}\r\n`),
    pad(8, 'token=x&pad='),
  ],
  ['the otp request', head('POST', '/oauth2/otp', 'application/json'), pad(8, '{"client_id":"x","pad":"')],
  ['GraphQL', head('POST', '/graphql', 'application/json'), pad(80, '{"query":"{ __typename }","pad":"')],
  [
    'a REST body',
    head('POST', '/cms/channel/1/activate_subscription', 'application/json'),
    pad(80, '{"email":"a@example.test","key":"'),
  ],
])(
  '%s: a chunked body over the limit is 413, and the next request on the connection is answered',
  async (_name, first, pieces) => {
    const statuses = await twoOnOneSocket({ head: first, pieces }, readyz);
    expect(statuses).toEqual(['HTTP/1.1 413', 'HTTP/1.1 200']);
  },
);
