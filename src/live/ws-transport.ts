// graphql-ws's protocol server on `ws` sockets: the glue graphql-ws ships as `graphql-ws/use/ws` (protocol
// negotiation, keep-alive pings, messages in, closes out), with every error logged through the service's
// redacting logger. That glue writes them to stderr as raw stack traces, and a peer's protocol errors (an
// oversized or malformed frame) are anyone's to cause.
import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ConnectionInitMessage, type ServerOptions } from 'graphql-ws';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../logger.js';

/** What each connection's context carries beside the caller's own fields. */
export interface SocketExtra {
  readonly socket: WebSocket;
  readonly request: IncomingMessage;
}

/** Keep-alive slices per period. */
const PING_SLICES = 20;

/** A close reason within the protocol's 123 bytes. */
export function closeReason(text: string): string {
  let reason = text;
  while (Buffer.byteLength(reason) > 123) reason = reason.slice(0, -1);
  return reason;
}

/**
 * A `ws` socket as graphql-ws's server drives it. A class, not an object of closures: one per connection, and
 * ten thousand connections each holding a few functions cost more than the objects themselves.
 */
class ProtocolSocket {
  constructor(
    private readonly socket: WebSocket,
    private readonly log: Logger,
  ) {}

  get protocol(): string {
    return this.socket.protocol;
  }

  send(data: string): Promise<void> {
    const socket = this.socket;
    return new Promise<void>((resolve, reject) => {
      if (socket.readyState !== socket.OPEN) return resolve();
      socket.send(data, (err) => (err ? reject(err) : resolve()));
    });
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  onMessage(handle: (data: string) => Promise<void>): void {
    const { socket, log } = this;
    // Not awaited in an async function of ours: a subscribe message's handling lasts as long as its subscription.
    socket.on('message', (data) => {
      void handle(String(data)).catch((err: unknown) => {
        // Our own hooks failed: the client learns only that the server did (no internal message).
        log.error({ err }, 'live: handling a WebSocket message failed');
        socket.close(CloseCode.InternalServerError, 'Internal server error');
      });
    });
  }
}

/** Serves graphql-transport-ws on every connection `wss` accepts; `dispose` closes them all with 1001. */
export function serveGraphqlWs<P extends ConnectionInitMessage['payload'], E extends object>(
  options: ServerOptions<P, SocketExtra & E>,
  wss: WebSocketServer,
  keepAliveMs: number,
  log: Logger,
): { dispose(): Promise<void> } {
  const server = makeServer(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (err) => log.error({ err }, 'live: the WebSocket server failed'));
  // One keep-alive timer for every socket, the sockets split into slices pinged in turn: each socket is pinged once
  // per period and cut when it did not answer the previous ping within the period. Ten thousand pings at once
  // (and their pongs) would hold up every message sent meanwhile by as long as they take.
  const awaitingPong = new Set<WebSocket>();
  const slices = Array.from({ length: PING_SLICES }, () => new Set<WebSocket>());
  let joined = 0;
  let tick = 0;
  const pings =
    keepAliveMs > 0
      ? setInterval(
          () => {
            for (const socket of slices[tick++ % PING_SLICES]!) {
              if (socket.readyState !== socket.OPEN) continue;
              if (awaitingPong.has(socket)) {
                socket.terminate();
                continue;
              }
              awaitingPong.add(socket);
              socket.ping();
            }
          },
          Math.max(1, Math.floor(keepAliveMs / PING_SLICES)),
        ).unref()
      : undefined;
  wss.on('connection', (socket, request: IncomingMessage) => {
    // Only the peer's address is kept for the connection's life, not the upgrade request.
    const ip = request.socket.remoteAddress;
    // `ws` closes the connection itself on a peer's protocol error (1009 for an oversized message, 1002 ...) and
    // then reports it here: the client's doing, logged without a stack.
    socket.on('error', (err: Error & { code?: string }) =>
      log.info({ wsError: err.code, reason: err.message, ip }, 'live: closed a connection on a protocol error'),
    );
    const slice = slices[joined++ % PING_SLICES]!;
    slice.add(socket);
    socket.on('pong', () => awaitingPong.delete(socket));
    const closed = server.opened(new ProtocolSocket(socket, log), { socket, request } as SocketExtra & E);
    socket.on('close', (code, reason) => {
      awaitingPong.delete(socket);
      slice.delete(socket);
      void closed(code, String(reason));
    });
  });
  return {
    async dispose() {
      clearInterval(pings);
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
