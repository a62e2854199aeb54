// A real webhook receiver for the tests: an HTTP server that records every request (headers, raw body) and
// answers as the test says; signatures are checked with the Standard Webhooks library, not the service's code.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** The event id (`webhook-id`). */
  id: string;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
  /** The status this request was answered with; undefined while it is held. */
  answered?: number;
}

/** What to answer: a status (and headers), or 'hold' to keep the request open until the socket dies. */
type Answer = { status: number; headers?: Record<string, string> } | 'hold';

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  answer: (req: Received) => Answer;
  /** Resolves once `predicate` holds for the requests received so far. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** True when `secret` verifies the request's signature (and timestamp) per Standard Webhooks. */
export function verifies(secret: string, req: Received): boolean {
  try {
    new Webhook(secret).verify(req.body, req.headers);
    return true;
  } catch {
    return false;
  }
}

export async function startReceiver(
  answer: Receiver['answer'] = () => ({ status: 204 }),
  host = '127.0.0.1',
): Promise<Receiver> {
  const held = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    answer,
    until(predicate, timeoutMs = 30_000) {
      if (predicate(receiver.received)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!predicate(receiver.received)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `receiver: condition not met; got ${JSON.stringify(receiver.received.map((r) => [r.id, r.payload.type, r.answered]))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
      });
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const entry: Received = {
        path: req.url ?? '/',
        headers,
        body,
        id: headers['webhook-id'] ?? '',
        payload: JSON.parse(body) as Received['payload'],
      };
      receiver.received.push(entry);
      const decided = receiver.answer(entry);
      if (decided === 'hold') held.add(res);
      else {
        entry.answered = decided.status;
        res.writeHead(decided.status, decided.headers).end();
      }
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://${host}:${receiver.port}`;
  return receiver;
}
